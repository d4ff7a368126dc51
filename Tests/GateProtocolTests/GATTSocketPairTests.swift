#if canImport(Glibc)
import Glibc
import Testing
import GateCore
@testable import GateProtocol

/// Two boxes over a real socketpair(AF_UNIX, SOCK_SEQPACKET): one datagram
/// per ATT PDU, as an L2CAP ATT socket delivers them. Each box routes what
/// it reads by opcode to its own server or client, as the Linux link will.
/// Box A discovers B's service, subscribes, writes a fragmented seed
/// message and a clock sync PING, and hears B's notification.
@Suite struct GATTSocketPairTests {
    /// One box's end of the bearer.
    struct Box {
        let fd: Int32
        let service = GateGATTService(deviceName: "ts-gate-B0B0")
        var link = GATTServerLink()
        var store = GATTValueStore()
        var client = GATTClient()
        var discovery = GatePeerDiscovery()
        var effects: [GATTServerEffect] = []
        var events: [GATTClientEvent] = []

        init(fd: Int32) { self.fd = fd }

        func send(_ pdus: [[UInt8]]) {
            for pdu in pdus {
                let sent = pdu.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
                precondition(sent == pdu.count, "send failed")
            }
        }

        /// Takes everything waiting on the socket; false when nothing was.
        mutating func receiveAll() -> Bool {
            var any = false
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard count > 0 else { return any }
                any = true
                take(Array(buffer[0..<count]))
            }
        }

        mutating func take(_ pdu: [UInt8]) {
            switch ATTOpcode.route(pdu[0]) {
            case .server:
                let output = service.server.handle(pdu, link: &link, source: &store)
                if let response = output.response { send([response]) }
                for effect in output.effects {
                    if case .mtuChanged(let mtu) = effect { client.adoptMTU(mtu) }
                }
                effects.append(contentsOf: output.effects)
            case .client:
                run(client.receive(pdu))
            }
        }

        /// Sends what the client (and discovery, which sees every event) asks.
        mutating func run(_ output: GATTClientOutput) {
            let all = discovery.absorb(output, client: &client)
            for event in all.events {
                if case .mtuExchanged(let mtu) = event { link.settleMTU(clientMTU: mtu, serverMTU: mtu) }
            }
            events.append(contentsOf: all.events)
            send(all.send)
        }
    }

    static func pump(_ a: inout Box, _ b: inout Box) {
        var rounds = 0
        while rounds < 1000 {
            let movedA = a.receiveAll()
            let movedB = b.receiveAll()
            if !movedA && !movedB { return }
            rounds += 1
        }
        Issue.record("the boxes never went quiet")
    }

    @Test func aBoxDiscoversSubscribesWritesAndIsNotified() throws {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var a = Box(fd: fds[0])
        var b = Box(fd: fds[1])
        let deviceInfo = Array(#"{"deviceId":"box-b0b0","deviceName":"ts-gate-B0B0","platform":"ts-gate","appVersion":"0.1","protocolVersion":"1.0","capabilities":{"binaryClockSync":true}}"#.utf8)
        b.store.values[b.service.deviceInfo] = deviceInfo

        a.run(a.discovery.start(&a.client))
        Self.pump(&a, &b)
        let handles = GatePeerHandles(service: GATTRemoteService(start: 7, end: 15), timingMessages: 9, timingMessagesCCCD: 10,
                                      deviceInfo: 12, clockSync: 14, clockSyncCCCD: 15, clockSyncWithoutResponse: true)
        #expect(a.discovery.state == .ready(handles))
        #expect(a.client.mtu == 512 && a.link.mtu == 512 && b.link.mtu == 512)
        #expect(b.effects == [.mtuChanged(512),
                              .subscriptionChanged(b.service.timingMessages, GATTSubscription(notify: true, indicate: false)),
                              .subscriptionChanged(b.service.clockSync, GATTSubscription(notify: true, indicate: false))])
        #expect(b.link.subscription(b.service.timingMessages).notify)

        // Device Info, read whole.
        a.events = []
        a.run(a.client.start(.read(handle: handles.deviceInfo)))
        Self.pump(&a, &b)
        #expect(a.events == [.readCompleted(handle: 12, value: deviceInfo)])

        // A seed message, fragmented at the link's payload size, written as Write Requests.
        b.effects = []
        a.events = []
        let message = try TimingMessage.decode(SeedExamples.sessionJoin).encoded()
        let chunks = try Fragmenter.fragments(of: message, messageId: 1, attPayloadSize: 20)
        #expect(chunks.count > 1)
        for chunk in chunks { a.run(a.client.start(.write(handle: handles.timingMessages, value: chunk))) }
        Self.pump(&a, &b)
        #expect(a.events == chunks.map { _ in GATTClientEvent.writeCompleted(handle: 9) })
        var reassembler = Reassembler()
        var whole: [UInt8]?
        for effect in b.effects {
            guard case .written(let id, let bytes, withResponse: true) = effect, id == b.service.timingMessages else {
                Issue.record("unexpected effect \(effect)")
                continue
            }
            if case .complete(let bytes) = try reassembler.accept(bytes) { whole = bytes }
        }
        #expect(try whole.map { try TimingMessage.decode($0) } == TimingMessage.decode(SeedExamples.sessionJoin))

        // A clock sync PING as a Write Command: the bytes GateCore parses, untouched.
        b.effects = []
        let ping = ClockSyncPacket.ping(sequence: 7, t1: 123_456_789).bytes()
        a.send([a.client.writeCommand(handle: handles.clockSync, value: ping)])
        Self.pump(&a, &b)
        #expect(b.effects == [.written(b.service.clockSync, ping, withResponse: false)])
        #expect(try ClockSyncPacket.parse(ping) == .ping(sequence: 7, t1: 123_456_789))

        // B notifies A on Timing Messages: A subscribed, so it goes out, whole at MTU 512.
        a.events = []
        let reply = try Fragmenter.fragments(of: TimingMessage.decode(SeedExamples.sessionJoinAccepted).encoded(),
                                             messageId: 0, attPayloadSize: b.link.mtu - 3)
        #expect(reply.count == 1)
        let notification = try #require(b.service.server.notification(b.service.timingMessages, value: reply[0], link: b.link))
        b.send([notification])
        Self.pump(&a, &b)
        #expect(a.events == [.notification(handle: handles.timingMessages, value: reply[0])])

        // A writer B does not accept is refused with Insufficient Authorization, and nothing changes.
        b.effects = []
        a.events = []
        b.store.refusedWrites[b.service.timingMessages] = .insufficientAuthorization
        a.run(a.client.start(.write(handle: handles.timingMessages, value: chunks[0])))
        Self.pump(&a, &b)
        #expect(a.events == [.failed(.write(handle: 9, value: chunks[0]), handle: 9, error: .insufficientAuthorization)])
        #expect(b.effects.isEmpty)
    }

    @Test func discoveryFailsOnAPeerWithoutTheService() {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var a = Box(fd: fds[0])
        // A peer with only GAP and GATT, answering through a plain server.
        var builder = GATTDatabaseBuilder()
        builder.addPrimaryService(.genericAccessService)
        builder.addCharacteristic(.deviceName, properties: .read, fixedValue: Array("phone".utf8))
        let server = GATTServer(database: builder.build(), serverMTU: 185)
        var link = GATTServerLink()
        var store = GATTValueStore()
        a.run(a.discovery.start(&a.client))
        var buffer = [UInt8](repeating: 0, count: 1024)
        for _ in 0..<10 {
            let count = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0, let response = server.handle(Array(buffer[0..<count]), link: &link, source: &store).response {
                _ = response.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) }
            }
            _ = a.receiveAll()
        }
        #expect(a.client.mtu == 185)
        #expect(a.discovery.state == .failed("the peer has no seed 002 service"))
    }
}
#endif

import Testing
@testable import GateProtocol

/// The GATT client alone: each procedure's requests as raw PDUs, fed raw
/// responses, in the manner of BlueZ's unit/test-gatt.c client tests.
@Suite struct GATTClientTests {
    static let svc = hexText(WireUUID.service)
    static let tm = hexText(WireUUID.timingMessages)
    static let di = hexText(WireUUID.deviceInfo)
    static let cs = hexText(WireUUID.clockSync)

    /// Feeds `response` and checks what the client sends and reports.
    static func feed(_ client: inout GATTClient, _ response: String, send: [String], events: [GATTClientEvent] = [],
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let output = client.receive(hex(response))
        #expect(output.send.map(hexText) == send, "after \(response)", sourceLocation: sourceLocation)
        #expect(output.events == events, "after \(response)", sourceLocation: sourceLocation)
    }

    @Test func exchangeMTUTakesTheSmaller() {
        var client = GATTClient()
        #expect(client.start(.exchangeMTU(512)).send.map(hexText) == ["02 00 02"])
        #expect(client.isBusy)
        Self.feed(&client, "03 F7 00", send: [], events: [.mtuExchanged(247)])
        #expect(client.mtu == 247)
        #expect(!client.isBusy)

        var old = GATTClient()
        _ = old.start(.exchangeMTU(512))
        Self.feed(&old, "01 02 00 00 06", send: [], events: [.mtuExchanged(23)])
    }

    @Test func discoverTheSeedServiceByUUID() {
        var client = GATTClient()
        #expect(client.start(.discoverPrimaryService(GateGATTUUID.service)).send.map(hexText) == ["06 01 00 FF FF 00 28 " + Self.svc])
        Self.feed(&client, "07 07 00 0F 00", send: ["06 10 00 FF FF 00 28 " + Self.svc])
        Self.feed(&client, "01 06 10 00 0A", send: [],
                  events: [.servicesDiscovered(GateGATTUUID.service, [GATTRemoteService(start: 7, end: 15)])])

        // A service that ends the table ends the search without another request.
        _ = client.start(.discoverPrimaryService(.genericAccessService))
        Self.feed(&client, "07 01 00 FF FF", send: [],
                  events: [.servicesDiscovered(.genericAccessService, [GATTRemoteService(start: 1, end: 0xFFFF)])])
    }

    @Test func discoverCharacteristicsAndDescriptors() {
        var client = GATTClient()
        #expect(client.start(.discoverCharacteristics(start: 7, end: 15)).send.map(hexText) == ["08 07 00 0F 00 03 28"])
        Self.feed(&client, "09 15 08 00 1A 09 00 " + Self.tm, send: ["08 09 00 0F 00 03 28"])
        Self.feed(&client, "09 15 0B 00 02 0C 00 " + Self.di, send: ["08 0C 00 0F 00 03 28"])
        Self.feed(&client, "09 15 0D 00 1C 0E 00 " + Self.cs, send: ["08 0E 00 0F 00 03 28"])
        Self.feed(&client, "01 08 0E 00 0A", send: [], events: [.characteristicsDiscovered([
            GATTRemoteCharacteristic(declarationHandle: 8, properties: [.read, .write, .notify], valueHandle: 9,
                                     uuid: GateGATTUUID.timingMessages, end: 10),
            GATTRemoteCharacteristic(declarationHandle: 11, properties: [.read], valueHandle: 12,
                                     uuid: GateGATTUUID.deviceInfo, end: 12),
            GATTRemoteCharacteristic(declarationHandle: 13, properties: [.write, .writeWithoutResponse, .notify],
                                     valueHandle: 14, uuid: GateGATTUUID.clockSync, end: 15),
        ])])

        #expect(client.start(.discoverDescriptors(start: 10, end: 10)).send.map(hexText) == ["04 0A 00 0A 00"])
        Self.feed(&client, "05 01 0A 00 02 29", send: [],
                  events: [.descriptorsDiscovered([ATTHandleUUID(handle: 10, uuid: .clientCharacteristicConfiguration)])])
        // An empty range asks nothing.
        #expect(client.start(.discoverDescriptors(start: 13, end: 12)) == GATTClientOutput(events: [.descriptorsDiscovered([])]))
    }

    @Test func aLongReadContinuesWithReadBlob() {
        let value = (0..<50).map { UInt8($0) }
        var client = GATTClient()
        #expect(client.start(.read(handle: 12)).send.map(hexText) == ["0A 0C 00"])
        Self.feed(&client, "0B " + hexText(Array(value[0..<22])), send: ["0C 0C 00 16 00"])
        Self.feed(&client, "0D " + hexText(Array(value[22..<44])), send: ["0C 0C 00 2C 00"])
        Self.feed(&client, "0D " + hexText(Array(value[44..<50])), send: [], events: [.readCompleted(handle: 12, value: value)])

        // Exactly 22 bytes: the blob that follows finds the value not long.
        _ = client.start(.read(handle: 3))
        Self.feed(&client, "0B " + hexText(Array(value[0..<22])), send: ["0C 03 00 16 00"])
        Self.feed(&client, "01 0C 03 00 0B", send: [], events: [.readCompleted(handle: 3, value: Array(value[0..<22]))])
    }

    @Test func writesShortAndLong() {
        var client = GATTClient()
        #expect(client.start(.write(handle: 10, value: [1, 0])).send.map(hexText) == ["12 0A 00 01 00"])
        Self.feed(&client, "13", send: [], events: [.writeCompleted(handle: 10)])

        // Longer than MTU - 3: Prepare Write in parts of MTU - 5, then Execute.
        let value = (0..<30).map { UInt8($0) }
        let first = hexText(Array(value[0..<18]))
        let rest = hexText(Array(value[18..<30]))
        #expect(client.start(.write(handle: 9, value: value)).send.map(hexText) == ["16 09 00 00 00 " + first])
        Self.feed(&client, "17 09 00 00 00 " + first, send: ["16 09 00 12 00 " + rest])
        Self.feed(&client, "17 09 00 12 00 " + rest, send: ["18 01"])
        Self.feed(&client, "19", send: [], events: [.writeCompleted(handle: 9)])

        #expect(hexText(client.writeCommand(handle: 14, value: [1, 7])) == "52 0E 00 01 07")
        #expect(!client.isBusy, "a command waits for nothing")
    }

    @Test func oneRequestAtATime() {
        var client = GATTClient()
        #expect(client.start(.read(handle: 3)).send.map(hexText) == ["0A 03 00"])
        #expect(client.start(.write(handle: 9, value: [1])).send.isEmpty, "queued behind the read")
        #expect(client.queuedCount == 1)
        // The read's answer completes it and sends the queued write.
        Self.feed(&client, "0B 41", send: ["12 09 00 01"], events: [.readCompleted(handle: 3, value: [0x41])])
        // Refused: reported, and the bearer is free again.
        Self.feed(&client, "01 12 09 00 08", send: [],
                  events: [.failed(.write(handle: 9, value: [1]), handle: 9, error: .insufficientAuthorization)])
        #expect(!client.isBusy)
    }

    @Test func strayPDUsAndServerPushes() {
        var client = GATTClient()
        Self.feed(&client, "13", send: [], events: [.unexpected(opcode: 0x13)])
        _ = client.start(.read(handle: 3))
        // An error for another request, and a response of the wrong kind, are not the read's answer.
        Self.feed(&client, "01 12 03 00 01", send: [], events: [.unexpected(opcode: 0x01)])
        Self.feed(&client, "13", send: [], events: [.unexpected(opcode: 0x13)])
        Self.feed(&client, "0B", send: [], events: [.readCompleted(handle: 3, value: [])])
        Self.feed(&client, "1B 09 00 00 00 01 7B", send: [], events: [.notification(handle: 9, value: hex("00 00 01 7B"))])
        // An indication is confirmed at once.
        Self.feed(&client, "1D 09 00 01", send: ["1E"], events: [.indication(handle: 9, value: [1])])
        Self.feed(&client, "09 15 08", send: [], events: [.unexpected(opcode: 0x09)])
    }

    @Test func discoveryAfterThePeerExchangedTheMTU() {
        var client = GATTClient()
        client.adoptMTU(247)
        var discovery = GatePeerDiscovery()
        let output = discovery.absorb(discovery.start(&client, exchangeMTU: false), client: &client)
        #expect(output.send.map(hexText) == ["06 01 00 FF FF 00 28 " + Self.svc], "ATT allows one exchange per link")
        #expect(discovery.state == .findingService)
        let refused = discovery.absorb(client.receive(hex("01 06 01 00 0A")), client: &client)
        #expect(refused.send.isEmpty)
        #expect(discovery.state == .failed("the peer has no seed 002 service"))
    }
}

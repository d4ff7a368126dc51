import GateCore
import GateDevices
import GateProtocol

/// A joining box's one link to its host (race = join), the central side of
/// seed 002 section 2.2: scan for the service UUID, connect without
/// blocking, find the host's handles and subscribe (`GatePeerDiscovery`),
/// then carry the race's messages as Write Commands and hand it the
/// host's notifications, with the kernel's receive stamps. It is the race's
/// link 0; the `GATTStation` owns it and feeds it mgmt's notices.
///
/// A link that drops is tried again at once three times, then with a
/// backoff doubling to 30 s, for as long as the session lasts (seed 002
/// section 7.1); the race sends what it kept once the link is back.
struct GATTCentral {
    private enum Phase {
        /// Discovery runs; the first host advertising the service is taken.
        case scanning
        /// connect() is under way since `since`; mgmt's Device Connected ends it.
        case connecting(ATTSocket, since: Int64)
        /// Connected; encryption asked for (pairing, or a bonded host's key)
        /// since `since`: nothing can be sent until it is in force.
        case securing(since: Int64)
        /// Connected: MTU, service, characteristics, CCCDs.
        case discovering
        case ready(GatePeerHandles)
        /// Down: scan again at `at`.
        case waiting(at: Int64)
    }

    private let adapter: BluetoothAddress
    private let service = AdvertisingData.uuid(gateServiceUUIDText)!
    private var phase = Phase.waiting(at: 0)
    private var host: BluetoothAddress?
    /// The host this box is linked to, or last tried.
    var hostAddress: BluetoothAddress? { host }
    private var link: BLELink?
    private var slot = -1
    private var client = GATTClient()
    private var discovery = GatePeerDiscovery()
    /// Reconnects since the link was last ready.
    private var attempts = 0
    private var nextToken = 0
    /// Pairing mode: any host found may be paired with.
    var pairing = false
    /// Hosts bonded with: connected to without a code, over encryption.
    var bondedHosts: [BluetoothAddress] = []
    /// This box has the host's session code: any host found may be joined.
    let hasCode: Bool

    static let connectTimeoutNanos: Int64 = 10_000_000_000
    /// Heard nothing this long (the host heartbeats every 2 s): the link is
    /// dead even if the kernel has not noticed yet (a controller switched
    /// off at the other end waits out the supervision timeout): drop it
    /// and connect again.
    static let silenceNanos: Int64 = 6_000_000_000
    private var lastHeardNanos: Int64 = 0
    /// A host whose link was dropped here: mgmt is asked to disconnect it,
    /// or the kernel keeps a dead link to it that no new connect gets past.
    private var stale: BluetoothAddress?
    /// While connecting or encrypting the socket is looked at this often:
    /// mgmt's Device Connected may come before the socket is ready, and
    /// encryption coming into force raises no event here.
    static let pollNanos: Int64 = 100_000_000
    private var nextPollNanos: Int64 = 0

    init(adapter: BluetoothAddress, hasCode: Bool, bondedHosts: [BluetoothAddress]) {
        self.adapter = adapter
        self.hasCode = hasCode
        self.bondedHosts = bondedHosts
    }

    private func isBonded(_ address: BluetoothAddress) -> Bool { bondedHosts.contains { $0.bytes == address.bytes } }

    /// When the central wants its timer: a connect's timeout, a retry.
    var dueNanos: Int64? {
        switch phase {
        case .connecting(_, let since), .securing(let since): return min(since + GATTCentral.connectTimeoutNanos, nextPollNanos)
        case .waiting(let at): return at
        case .ready: return lastHeardNanos + GATTCentral.silenceNanos
        default: return nil
        }
    }

    var isReady: Bool { if case .ready = phase { return true } else { return false } }

    /// mgmt's notices: a host found, a connection made.
    mutating func notice<P: GatePlatform>(_ notice: BluetoothController.Notice, controller: inout BluetoothController,
                                          platform: inout P, now: Int64, events: inout [LinkEvent], say: (String) -> Void) {
        switch (phase, notice) {
        case (.scanning, .found(let address, let rssi, let data)) where data.advertises(service):
            // Without the code, only a bonded host, or any in pairing mode.
            guard hasCode || pairing || isBonded(address) else { return }
            controller.stopDiscovery()
            say("bluetooth: found host " + address.text + " " + (data.name ?? "") + " rssi " + String(rssi) + "; connecting")
            connect(to: address, platform: &platform, now: now, say: say)
        case (.scanning, .discovering(false)):
            controller.startDiscovery()
        case (.connecting, .connected(let address)) where address.bytes == host?.bytes:
            finishConnect(platform: &platform, now: now, events: &events, say: say)
        case (.connecting, .connectFailed(let address, let status)) where address.bytes == host?.bytes:
            drop("the connection failed (" + status.name + ")", platform: &platform, now: now, events: &events, say: say)
        default:
            break
        }
    }

    /// mgmt refused to scan (the controller is off): try again later.
    mutating func discoveryRefused(_ why: String, now: Int64, say: (String) -> Void) {
        guard case .scanning = phase else { return }
        attempts += 1
        let wait = backoffNanos()
        phase = .waiting(at: now + wait)
        say("bluetooth: " + why + "; looking for the host again in " + DecimalText.fixed(Double(wait) / 1e9, places: 1) + " s")
    }

    /// Timeouts and retries; call when the timer fires or anything is ready.
    mutating func tick<P: GatePlatform>(controller: inout BluetoothController, platform: inout P, now: Int64,
                                        events: inout [LinkEvent], say: (String) -> Void) {
        if let address = stale {
            controller.disconnect(address)
            stale = nil
        }
        nextPollNanos = now + GATTCentral.pollNanos
        switch phase {
        case .waiting(let at) where now >= at:
            phase = .scanning
            controller.startDiscovery()
        case .connecting(_, let since) where now - since >= GATTCentral.connectTimeoutNanos:
            drop("no connection in " + String(GATTCentral.connectTimeoutNanos / 1_000_000_000) + " s", platform: &platform, now: now,
                 events: &events, say: say)
        case .connecting:
            // Device Connected may come before the socket is ready: look again.
            finishConnect(platform: &platform, now: now, events: &events, say: say)
        case .securing(let since) where now - since >= GATTCentral.connectTimeoutNanos:
            drop("not encrypted " + String(GATTCentral.connectTimeoutNanos / 1_000_000_000) + " s after asking", platform: &platform,
                 now: now, events: &events, say: say)
        case .securing:
            checkSecurity(platform: &platform, now: now, events: &events, say: say)
        case .ready where now - lastHeardNanos >= GATTCentral.silenceNanos:
            drop("nothing heard for " + String(GATTCentral.silenceNanos / 1_000_000_000) + " s", platform: &platform, now: now,
                 events: &events, say: say)
        default:
            break
        }
    }

    /// Reads what the host sent: discovery's answers, then notifications.
    mutating func receive<P: GatePlatform>(buffer: UnsafeMutableRawBufferPointer, platform: inout P, now: Int64,
                                           events: inout [LinkEvent], say: (String) -> Void) {
        while let socket = link?.socket {
            let packet: ATTPacket?
            do { packet = try socket.receive(buffer: buffer) } catch {
                return drop(error.message, platform: &platform, now: now, events: &events, say: say)
            }
            guard let packet else { return }
            guard !packet.bytes.isEmpty else { return drop("the host closed the link", platform: &platform, now: now, events: &events, say: say) }
            lastHeardNanos = now
            guard ATTOpcode.route(packet.bytes[0]) != .server else { continue }   // the host asks nothing of its centrals
            var output = client.receive(packet.bytes)
            if case .ready = phase {} else { output = discovery.absorb(output, client: &client) }
            for pdu in output.send { guard sendPDU(pdu) else { return drop("the send queue is full", platform: &platform, now: now, events: &events, say: say) } }
            for event in output.events {
                guard case .ready(let handles) = phase, case .notification(let handle, let value) = event else { continue }
                if handle == handles.timingMessages || handle == handles.clockSync {
                    events.append(.received(peer: 0, channel: handle == handles.clockSync ? .clockSync : .messages, bytes: value,
                                            stampNanos: packet.stampNanos))
                }
            }
            if case .discovering = phase { checkDiscovery(events: &events, platform: &platform, now: now, say: say) }
        }
    }

    /// Clock Sync as a Write Command (its timing is the point; the
    /// characteristic takes them); Timing Messages as Write Requests, which
    /// it requires: one out at a time, the rest queued in the client.
    mutating func send(_ bytes: [UInt8], on channel: LinkChannel) -> Int? {
        guard case .ready(let handles) = phase else { return nil }
        if channel == .clockSync && handles.clockSyncWithoutResponse {
            guard sendPDU(client.writeCommand(handle: handles.clockSync, value: bytes)) else { return nil }
        } else {
            let output = client.start(.write(handle: channel == .clockSync ? handles.clockSync : handles.timingMessages, value: bytes))
            for pdu in output.send { guard sendPDU(pdu) else { return nil } }
        }
        nextToken += 1
        return nextToken
    }

    mutating func close<P: GatePlatform>(platform: inout P) {
        closeSocket(platform: &platform)
        phase = .waiting(at: Int64.max)
    }

    // MARK: - Inside

    /// The link's socket out of the wait and closed: the connected link's,
    /// or the one still connecting (the same descriptor once connected).
    private mutating func closeSocket<P: GatePlatform>(platform: inout P) {
        if let link {
            platform.unwatch(slot)
            link.close()
        } else if case .connecting(let socket, _) = phase {
            platform.unwatch(slot)
            socket.close()
        }
        link = nil
    }

    private mutating func connect<P: GatePlatform>(to address: BluetoothAddress, platform: inout P, now: Int64, say: (String) -> Void) {
        host = address
        let socket: ATTSocket
        do { socket = try ATTSocket.connect(from: adapter, to: address) } catch {
            say("bluetooth: " + error.message)
            phase = .waiting(at: now + backoffNanos())
            return
        }
        guard let watched = platform.watch(socket.descriptor) else {
            socket.close()
            say("bluetooth: no room in the wait for the link to the host")
            phase = .waiting(at: now + backoffNanos())
            return
        }
        slot = watched
        phase = .connecting(socket, since: now)
        nextPollNanos = now + GATTCentral.pollNanos
    }

    private mutating func finishConnect<P: GatePlatform>(platform: inout P, now: Int64, events: inout [LinkEvent], say: (String) -> Void) {
        guard case .connecting(let socket, _) = phase else { return }
        let linked: BLELink
        do {
            guard try socket.finishConnect() else { return }
            linked = try BLELink(socket)
        } catch {
            // Not connected yet (the handle is not known): the timer looks again.
            if error.errno == .notConnected { return }
            return drop(error.message, platform: &platform, now: now, events: &events, say: say)
        }
        link = linked
        let secure = pairing || isBonded(linked.peer)
        say("bluetooth: connected to host " + linked.peer.text + " (handle " + String(linked.handle) + ")"
            + (secure ? "; encrypting (" + (isBonded(linked.peer) ? "bonded" : "pairing") + ")" : "; finding its service"))
        guard secure else { return discover(platform: &platform, now: now, events: &events, say: say) }
        do { try linked.socket.requestSecurity(.medium) } catch {
            return drop(error.message, platform: &platform, now: now, events: &events, say: say)
        }
        phase = .securing(since: now)
        nextPollNanos = now + GATTCentral.pollNanos
    }

    /// Encryption in force: on to the host's GATT service.
    private mutating func checkSecurity<P: GatePlatform>(platform: inout P, now: Int64, events: inout [LinkEvent], say: (String) -> Void) {
        // The level reads as asked at once; a key size says it is in force.
        guard let link, let level = try? link.socket.security(), level.level >= 2, level.keySize > 0 else { return }
        say("bluetooth: link to the host encrypted (security level " + String(level.level) + ", key size " + String(level.keySize)
            + "); finding its service")
        discover(platform: &platform, now: now, events: &events, say: say)
    }

    private mutating func discover<P: GatePlatform>(platform: inout P, now: Int64, events: inout [LinkEvent], say: (String) -> Void) {
        client = GATTClient()
        discovery = GatePeerDiscovery()
        phase = .discovering
        let output = discovery.absorb(discovery.start(&client), client: &client)
        for pdu in output.send { guard sendPDU(pdu) else { return drop("the send queue is full", platform: &platform, now: now, events: &events, say: say) } }
    }

    private mutating func checkDiscovery<P: GatePlatform>(events: inout [LinkEvent], platform: inout P, now: Int64, say: (String) -> Void) {
        switch discovery.state {
        case .ready(let handles):
            phase = .ready(handles)
            attempts = 0
            lastHeardNanos = now
            say("bluetooth: host " + (host?.text ?? "") + " ready: ATT MTU " + String(client.mtu) + ", subscribed to Timing Messages and Clock Sync")
            events.append(.connected(peer: 0, role: .central, intervalNanos: link?.parameters?.intervalNanos ?? 30_000_000,
                                     payloadBytes: client.mtu - 3))
        case .failed(let why):
            drop("the host's GATT service: " + why, platform: &platform, now: now, events: &events, say: say)
        default:
            break
        }
    }

    private mutating func drop<P: GatePlatform>(_ why: String, platform: inout P, now: Int64, events: inout [LinkEvent], say: (String) -> Void) {
        if case .ready = phase { events.append(.disconnected(peer: 0)) }
        closeSocket(platform: &platform)
        stale = host
        attempts += 1
        let wait = backoffNanos()
        phase = .waiting(at: now + wait)
        say("bluetooth: link to the host: " + why + "; trying again in " + DecimalText.fixed(Double(wait) / 1e9, places: 1) + " s")
    }

    /// Three quick tries, then 2 s doubling to 30 s.
    private func backoffNanos() -> Int64 {
        if attempts <= 3 { return 500_000_000 }
        return min(30_000_000_000, 2_000_000_000 << Int64(min(attempts - 4, 4)))
    }

    private func sendPDU(_ pdu: [UInt8]) -> Bool {
        guard let link else { return false }
        return (try? link.socket.send(pdu)) ?? false
    }
}

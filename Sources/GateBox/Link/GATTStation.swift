import GateCore
import GateDevices
import GateProtocol

/// The box's GATT server over Bluetooth LE in `run` (issue 47, point 10):
/// one source of the loop that owns the mgmt socket, the ATT listener and
/// every accepted link, each a descriptor in the platform's one wait
/// (`watch`). Nothing here waits: mgmt commands queue and go out as their
/// answers come back, accept and receive return at once, and a send whose
/// queue is full drops the PDU with a log line (ATT answers are small and
/// one at a time per link, so that would mean the link is dying).
///
/// Start-up, all from the loop: Read Index List picks the controller;
/// power-on through mgmt (SMP needs it); when Read Controller Info says it
/// is powered, the box advertises seed 002's service as `ts-gate-XXXX`
/// (from the controller address) and listens on the ATT channel. A box
/// without a controller says so once and runs without BLE.
///
/// In a race it is the race's `PeerLink` (the host's side): each accepted
/// central holds one of `raceSeats` link numbers; what it writes to Timing
/// Messages and Clock Sync goes to the race with the socket's kernel
/// receive stamp, and what the race sends goes back as notifications.
/// Alone (no race), a session_join is answered NO_SESSION.
struct GATTStation {
    /// Links a host serves: up to three other boxes (seed 000, 9: 2-4 gates).
    static let raceSeats = 3
    private let mgmt: MgmtSocket
    private let mgmtSlot: Int
    let buffer: UnsafeMutableRawBufferPointer
    private let wanted: String?
    private let deviceId: String
    private var controller: BluetoothController?
    private var gatt: GateGATTService?
    private var deviceInfo: [UInt8] = []
    private var listener: ATTListener?
    private var listenerSlot = -1
    private var peers: [GATTPeer] = []
    private var stopped = false
    /// A race listens: messages go to it instead of the NO_SESSION answer.
    private let raceListens: Bool
    /// race = join: this box's one link is to a host, as its central.
    private let joining: Bool
    /// A joiner was given the host's session code (else: bonded hosts only).
    private let hasCode: Bool
    private var central: GATTCentral?
    /// A joiner's raw HCI socket for its links' LE events (GATTStation+Interval).
    var hci: HCIEventSocket?
    var hciSlot = -1
    var leTable = LEConnectionTable()
    /// The bonded peers' file's directory, and the bonds read from it.
    private let dataDirectory: String
    private var bonded: [BondedPeer]
    /// Pairing mode (the button held 5 s) ends at this instant.
    private var pairingUntilNanos: Int64?
    /// What the loop shows for the station (pairing's LED and buzzer).
    var notices: [StationNotice] = []
    /// What the race has not taken yet, in order.
    private var pending: [LinkEvent] = []
    private var nextToken = 0
    /// The race's timer (heartbeats, sync pings, silent links), a one-shot
    /// timerfd in the same wait, armed for the race's next due instant.
    private var timer: TimerDescriptor?
    private var timerSlot = -1
    private var timerDueNanos: Int64?
    /// It fired since the race last looked.
    private(set) var raceTimerFired = false

    /// Opens mgmt and asks for the controllers; nil (with a line said) when
    /// the settings turn Bluetooth off or mgmt cannot be opened.
    static func start<P: GatePlatform>(settings: BoxSettings, deviceId: String, raceListens: Bool, joining: Bool,
                                       dataDirectory: String, platform: inout P, say: (String) -> Void) -> GATTStation? {
        guard !settings.bluetoothOff else { say("bluetooth: off in the settings; no GATT service"); return nil }
        let mgmt: MgmtSocket
        do { mgmt = try MgmtSocket.open() } catch {
            say("bluetooth: " + error.message + "; running without BLE")
            return nil
        }
        guard let slot = platform.watch(mgmt.descriptor) else {
            mgmt.close()
            say("bluetooth: no room in the wait for mgmt; running without BLE")
            return nil
        }
        do { try mgmt.send(.readIndexList()) } catch {
            platform.unwatch(slot)
            mgmt.close()
            say("bluetooth: " + error.message + "; running without BLE")
            return nil
        }
        var station = GATTStation(mgmt: mgmt, mgmtSlot: slot,
                                  buffer: UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8),
                                  wanted: settings.bluetoothController, deviceId: deviceId, raceListens: raceListens,
                                  joining: raceListens && joining, hasCode: settings.raceSession != nil,
                                  dataDirectory: dataDirectory, bonded: [])
        do {
            let loaded = try BondedPeers.load(dataDirectory: dataDirectory)
            station.bonded = loaded.peers
            for problem in loaded.problems { say("bluetooth: " + problem) }
        } catch {
            say("bluetooth: " + error.message + "; no bonded peers")
        }
        do {
            do {
                let timer = try TimerDescriptor.open()
                guard let timerSlot = platform.watch(timer.descriptor) else {
                    timer.close()
                    say("bluetooth: no room in the wait for the race's timer; running without BLE")
                    station.close(platform: &platform)
                    return nil
                }
                station.timer = timer
                station.timerSlot = timerSlot
            } catch {
                say("bluetooth: timerfd: " + error.description + "; running without BLE")
                station.close(platform: &platform)
                return nil
            }
        }
        return station
    }

    /// Handles whatever of its descriptors is ready; each read returns at
    /// once when nothing is waiting. Failures end BLE, not the box.
    mutating func service<P: GatePlatform>(platform: inout P, say: (String) -> Void) {
        guard !stopped else { return }
        if let timer, (try? timer.expirations()).map({ $0 > 0 }) ?? false {
            raceTimerFired = true
            timerDueNanos = nil
        }
        if let until = pairingUntilNanos, MonotonicClock.nowNanos() >= until {
            endPairing()
            say("bluetooth: pairing mode ended without a new bond")
            notices.append(.pairingEnded(bonded: false))
        }
        do {
            try serviceMgmt(platform: &platform, say: say)
            try acceptLinks(platform: &platform, say: say)
            serviceHCI(platform: &platform, say: say)
            if central != nil {
                let now = MonotonicClock.nowNanos()
                central!.tick(controller: &controller!, platform: &platform, now: now, events: &pending, say: say)
                central!.receive(buffer: buffer, platform: &platform, now: now, events: &pending, say: say)
                try controller!.pump(mgmt)
            }
        } catch {
            say("bluetooth: " + error.message + "; BLE stopped, the box runs on without it")
            close(platform: &platform)
            return
        }
        var i = 0
        while i < peers.count {
            if servicePeer(i, platform: &platform, say: say) { i += 1 } else { drop(i, platform: &platform) }
        }
    }

    /// Closes every link, the listener and mgmt (the session ends).
    mutating func close<P: GatePlatform>(platform: inout P) {
        guard !stopped else { return }
        stopped = true
        while !peers.isEmpty { drop(peers.count - 1, platform: &platform) }
        central?.close(platform: &platform)
        central = nil
        closeHCI(platform: &platform)
        if let listener {
            platform.unwatch(listenerSlot)
            listener.close()
        }
        listener = nil
        if let timer {
            platform.unwatch(timerSlot)
            timer.close()
        }
        timer = nil
        platform.unwatch(mgmtSlot)
        mgmt.close()
        buffer.deallocate()
    }

    // MARK: - mgmt

    private mutating func serviceMgmt<P: GatePlatform>(platform: inout P, say: (String) -> Void) throws(GateError) {
        while let event = try mgmt.nextEvent(buffer: buffer) {
            if controller == nil {
                guard case .commandComplete(_, let opcode, let status, let reply) = event,
                      opcode == MgmtOpcode.readIndexList.rawValue else { continue }
                guard status == .success else { throw BluetoothController.error("Bluetooth", .readIndexList, status) }
                try pick(GATTStation.indexes(reply), say: say)
                if stopped { close(platform: &platform); return }
                continue
            }
            guard let notice = controller!.handle(event) else { continue }
            switch notice {
            case .failed(let error, let opcode, _) where central != nil && (opcode == .startDiscovery || opcode == .stopDiscovery):
                // The controller was switched off under the box (hciconfig
                // down, rfkill): the central tries again when it is back.
                central!.discoveryRefused(error.message, now: MonotonicClock.nowNanos(), say: say)
            case .failed(let error, _, _): throw error
            case .removed: throw GateError(controller!.deviceName, "the controller went away")
            case .settingsChanged(let settings) where !settings.contains(.powered):
                // Switched off under the box (hciconfig down, rfkill): every
                // link is gone; serve again once it is powered.
                if listener != nil || !peers.isEmpty { suspend(platform: &platform, say: say) }
            case .settingsChanged(let settings) where settings.contains(.powered) && listener == nil && !joining:
                controller!.readInfo()
            case .info(let info):
                guard info.current.contains(.powered) else { break }
                if joining {
                    // Before the central connects: Connection Complete comes once.
                    if hci == nil { openHCI(info.index, platform: &platform, say: say) }
                    if central == nil {
                        central = GATTCentral(adapter: info.address, hasCode: hasCode, bondedHosts: bonded.map { $0.address })
                        central!.pairing = pairingUntilNanos != nil
                        say("bluetooth: " + info.deviceName + " " + info.address.text + " looking for a host advertising " + gateServiceUUIDText)
                    }
                } else if listener == nil {
                    try startServing(info, platform: &platform, say: say)
                }
            case .pairingConfirmed(let address, _, let accepted):
                say("bluetooth: " + address.text + " asked to pair: " + (accepted ? "accepted (pairing mode)"
                    : "refused (not in pairing mode: hold the button 5 s on both boxes)"))
            case .pairingFailed(let address, let status):
                say("bluetooth: pairing with " + address.text + " failed (" + status.name + ")")
            case .bonded(let key) where key.storeHint:
                try bond(key, say: say)
            default:
                central?.notice(notice, controller: &controller!, platform: &platform, now: MonotonicClock.nowNanos(),
                                events: &pending, say: say)
            }
        }
        try controller?.pump(mgmt)
    }

    private static func indexes(_ reply: [UInt8]) -> [UInt16] {
        guard reply.count >= 2 else { return [] }
        let count = Int(reply[0]) | Int(reply[1]) << 8
        var list: [UInt16] = []
        var i = 2
        while list.count < count && i + 1 < reply.count {
            list.append(UInt16(reply[i]) | UInt16(reply[i + 1]) << 8)
            i += 2
        }
        return list.sorted()
    }

    /// The controller the settings name, or the first; none: one line and no BLE.
    private mutating func pick(_ indexes: [UInt16], say: (String) -> Void) throws(GateError) {
        var index = indexes.first
        if let wanted {
            index = indexes.first { "hci" + String($0) == wanted }
            if index == nil && !indexes.isEmpty {
                throw GateError(wanted, "no such controller (the kernel has " + indexes.map { "hci" + String($0) }.joined(separator: ", ") + ")")
            }
        }
        guard let index else {
            say("bluetooth: no controller; running without BLE")
            stopped = true
            return
        }
        var chosen = BluetoothController(index: index)
        chosen.acceptsPairing = false
        chosen.powerOn()
        let keys = bonded.compactMap { $0.key }
        if !keys.isEmpty {
            chosen.loadKeys(keys)
            say("bluetooth: " + String(keys.count) + " bonded " + (keys.count == 1 ? "peer's key" : "peers' keys") + " given to the kernel")
        }
        controller = chosen
    }

    /// Powered: the table, the advertisement and the listener.
    private mutating func startServing<P: GatePlatform>(_ info: ControllerInfo, platform: inout P,
                                                       say: (String) -> Void) throws(GateError) {
        let name = "ts-gate-" + info.address.shortSuffix
        gatt = GateGATTService(deviceName: name)
        deviceInfo = DeviceInfo(
            deviceId: deviceId, deviceName: name,
            version: PeerVersionInfo(protocolVersion: ProtocolVersion.current.text, appVersion: Version.text, platform: "ts-gate"),
            // Precise sync needs the radio's acknowledgement stamps, which
            // this link does not read yet: seed 002's plain exchange.
            capabilities: Capabilities(highSpeedCamera: true, binaryClockSync: true, multiGate: true, preciseClockSync: false)).encoded()
        let opened = try ATTListener.listen(on: info.address)
        guard let slot = platform.watch(opened.descriptor) else {
            opened.close()
            throw GateError(info.deviceName, "no room in the wait for the ATT listener")
        }
        listener = opened
        listenerSlot = slot
        controller!.advertise(name: name)
        try controller!.pump(mgmt)
        say("bluetooth: " + info.deviceName + " " + info.address.text + " serving seed 002's GATT service as " + name
            + " (" + gateServiceUUIDText + ")")
    }

    /// The controller went off: links and the listener are closed (the
    /// race hears its links drop); the GATT table is built again when
    /// the controller is back.
    private mutating func suspend<P: GatePlatform>(platform: inout P, say: (String) -> Void) {
        while !peers.isEmpty { drop(peers.count - 1, platform: &platform) }
        if let listener {
            platform.unwatch(listenerSlot)
            listener.close()
        }
        listener = nil
        say("bluetooth: the controller was switched off; links closed, serving again when it is back")
    }

    // MARK: - links

    private mutating func acceptLinks<P: GatePlatform>(platform: inout P, say: (String) -> Void) throws(GateError) {
        guard let listener, let gatt else { return }
        while let socket = try listener.accept() {
            let link: BLELink
            do { link = try BLELink(socket) } catch {
                say("bluetooth: " + error.message + "; link from " + socket.peer.text + " dropped")
                socket.close()
                continue
            }
            guard let slot = platform.watch(link.descriptor) else {
                say("bluetooth: too many links; refused " + link.peer.text)
                link.close()
                continue
            }
            guard let seat = freeSeat() else {
                say("bluetooth: " + String(GATTStation.raceSeats) + " links already; refused " + link.peer.text)
                platform.unwatch(slot)
                link.close()
                continue
            }
            let values = GATTPeerValues(timingMessages: gatt.timingMessages, deviceInfoID: gatt.deviceInfo,
                                        clockSync: gatt.clockSync, deviceInfo: deviceInfo)
            peers.append(GATTPeer(link: link, slot: slot, seat: seat, values: values))
            if raceListens {
                pending.append(.connected(peer: seat, role: .peripheral, intervalNanos: link.parameters?.intervalNanos ?? 30_000_000,
                                          payloadBytes: GATTServerLink.defaultMTU - 3))
            }
            // The kernel does not resume advertising after a connection.
            controller?.readvertise()
            try controller?.pump(mgmt)
            say("bluetooth: link from " + link.peer.text + " (handle " + String(link.handle) + "); advertising again")
        }
    }

    /// Reads and answers every waiting PDU; false when the link is gone.
    private mutating func servicePeer<P: GatePlatform>(_ i: Int, platform: inout P, say: (String) -> Void) -> Bool {
        guard let gatt else { return false }
        while true {
            let packet: ATTPacket?
            do { packet = try peers[i].link.socket.receive(buffer: buffer) } catch {
                say("bluetooth: link from " + peers[i].name + ": " + error.message + "; dropped")
                return false
            }
            guard let packet else { return true }
            guard !packet.bytes.isEmpty else {
                say("bluetooth: link from " + peers[i].name + " closed")
                return false
            }
            let pdu = packet.bytes
            guard ATTOpcode.route(pdu[0]) == .server else { continue }   // the box is no client on these links
            // Write Request and Write Command carry the value after the handle:
            // the authorization rule needs it (GATTPeerValues).
            if !peers[i].values.joined && isTrusted(peer: peers[i].seat) {
                peers[i].values.joined = true
                say("bluetooth: " + peers[i].name + " is a bonded box on an encrypted link: it may write")
            }
            var values = peers[i].values
            values.pendingWrite = (pdu[0] == 0x12 || pdu[0] == 0x52) && pdu.count >= 3 ? Array(pdu[3...]) : nil
            let output = gatt.server.handle(pdu, link: &peers[i].server, source: &values)
            values.pendingWrite = nil
            peers[i].values = values
            if let problem = peers[i].values.problem {
                say("bluetooth: " + peers[i].name + " wrote " + problem + (output.response?.first == 0x01 ? ": refused" : ""))
                peers[i].values.problem = nil
            }
            if let response = output.response, !send(response, to: i, say: say) { return false }
            for effect in output.effects {
                switch effect {
                case .written(let id, let value, _) where raceListens && (id == gatt.timingMessages || id == gatt.clockSync):
                    pending.append(.received(peer: peers[i].seat, channel: id == gatt.clockSync ? .clockSync : .messages,
                                             bytes: value, stampNanos: packet.stampNanos))
                case .mtuChanged(let mtu): say("bluetooth: " + peers[i].name + " ATT MTU " + String(mtu))
                case .subscriptionChanged(let id, let s) where id == gatt.timingMessages:
                    say("bluetooth: " + peers[i].name + (s.notify ? " subscribed to" : " unsubscribed from") + " Timing Messages")
                default: break
                }
            }
            while !peers[i].values.completed.isEmpty {
                let message = peers[i].values.completed.removeFirst()
                // A race reassembles the fragments it was handed itself.
                if !raceListens && !received(message, from: i, platform: &platform, say: say) { return false }
            }
        }
    }

    /// A whole message from a peer. This box has no race session in `run`
    /// yet, so a session_join is answered with seed 002's error message.
    private mutating func received<P: GatePlatform>(_ bytes: [UInt8], from i: Int, platform: inout P,
                                                    say: (String) -> Void) -> Bool {
        guard let message = try? TimingMessage.decode(bytes) else {
            say("bluetooth: " + peers[i].name + " sent a message that does not decode; ignored")
            return true
        }
        guard case .sessionJoin = message.payload else {
            say("bluetooth: " + peers[i].name + " sent " + message.type + "; ignored")
            return true
        }
        let answer = TimingMessage(timestamp: platform.wallClockMillis, deviceId: deviceId, payload: .error(ErrorReport(
            code: "NO_SESSION", message: "this box has no race session to join")))
        say("bluetooth: session_join from " + peers[i].name + " (" + message.deviceId + "): no session on this box, answering error NO_SESSION")
        return notify(answer.encoded(), to: i, say: say)
    }

    /// A message as Timing Messages notifications, fragmented to the link's MTU.
    private mutating func notify(_ message: [UInt8], to i: Int, say: (String) -> Void) -> Bool {
        guard let gatt else { return false }
        let fragments: [[UInt8]]
        do { fragments = try peers[i].fragmenter.fragments(of: message, attPayloadSize: peers[i].server.mtu - 3) } catch {
            say("bluetooth: a message of " + String(message.count) + " bytes does not fit the fragment framing at MTU " + String(peers[i].server.mtu))
            return true
        }
        for fragment in fragments {
            guard let pdu = gatt.server.notification(gatt.timingMessages, value: fragment, link: peers[i].server) else {
                say("bluetooth: " + peers[i].name + " has not subscribed to Timing Messages; answer not sent")
                return true
            }
            if !send(pdu, to: i, say: say) { return false }
        }
        say("bluetooth: notified " + peers[i].name + " in " + String(fragments.count) + " fragments")
        return true
    }

    private func send(_ pdu: [UInt8], to i: Int, say: (String) -> Void) -> Bool {
        do {
            if try !peers[i].link.socket.send(pdu) { say("bluetooth: " + peers[i].name + "'s send queue is full; a PDU was dropped") }
            return true
        } catch {
            say("bluetooth: link from " + peers[i].name + ": " + error.message + "; dropped")
            return false
        }
    }

    private mutating func drop<P: GatePlatform>(_ i: Int, platform: inout P) {
        if raceListens && !stopped { pending.append(.disconnected(peer: peers[i].seat)) }
        platform.unwatch(peers[i].slot)
        peers[i].link.close()
        peers.remove(at: i)
    }
}

/// The host's side of the race's link: seats, events, notifications.
extension GATTStation: PeerLink {
    var peerCount: Int { joining ? 1 : GATTStation.raceSeats }

    mutating func nextEvent() throws(GateError) -> LinkEvent? {
        pending.isEmpty ? nil : pending.removeFirst()
    }

    /// A notification on the characteristic; nil when that link is not
    /// up or has not subscribed (the race keeps what matters for later).
    mutating func send(_ bytes: [UInt8], on channel: LinkChannel, to peer: Int) throws(GateError) -> Int? {
        if joining { return peer == 0 ? central?.send(bytes, on: channel) : nil }
        guard let gatt, let i = peers.firstIndex(where: { $0.seat == peer }) else { return nil }
        let id = channel == .clockSync ? gatt.clockSync : gatt.timingMessages
        guard let pdu = gatt.server.notification(id, value: bytes, link: peers[i].server) else { return nil }
        do {
            guard try peers[i].link.socket.send(pdu) else { return nil }
        } catch {
            return nil   // the next receive on the link reports it gone
        }
        nextToken += 1
        return nextToken
    }

    /// Arms the race's timer for `due` (this box's monotonic clock) unless it
    /// already is; takes back a fired timer.
    mutating func wakeRace(atNanos raceDue: Int64?, now: Int64) {
        raceTimerFired = false
        var due = raceDue
        if let c = central?.dueNanos { due = min(due ?? c, c) }
        if let p = pairingUntilNanos { due = min(due ?? p, p) }
        guard let timer, let due, due != timerDueNanos else { return }
        timerDueNanos = due
        try? timer.schedule(firstNanos: max(due - now, 1_000), intervalNanos: 0)
    }

    /// The race accepted this peer's join: it may write from now on. On a
    /// joining box: its host accepted it, and holds the gate `role`.
    mutating func admit(peer: Int, role: String) {
        if joining {
            if peer == 0, let host = central?.hostAddress { keepRole(role, of: host) }
            return
        }
        for i in peers.indices where peers[i].seat == peer {
            peers[i].values.joined = true
            keepRole(role, of: peers[i].link.peer)
        }
    }

    /// A bonded box took a gate: its record gets the role, appended only
    /// when the role changed (the file is never rewritten).
    private mutating func keepRole(_ role: String, of address: BluetoothAddress) {
        guard let known = bonded.firstIndex(where: { $0.address.bytes == address.bytes }), bonded[known].role != role else { return }
        var peer = bonded[known]
        peer.role = role
        // No key in this record: the one before it still holds.
        var record = peer
        record.key = nil
        do { try BondedPeers.append(BondedPeers.bondLine(record), dataDirectory: dataDirectory) } catch {
            notices.append(.problem("bluetooth: " + error.message + "; " + peer.name + "'s role not kept"))
            return
        }
        bonded[known] = peer
    }

    /// A bonded box over an encrypted link (host side; the joiner's host
    /// is trusted by the join it answers).
    func isTrusted(peer: Int) -> Bool {
        guard !joining, let i = peers.firstIndex(where: { $0.seat == peer }) else { return false }
        let address = peers[i].link.peer
        guard bonded.contains(where: { $0.address.bytes == address.bytes }) else { return false }
        guard let security = try? peers[i].link.socket.security() else { return false }
        return security.level >= 2 && security.keySize > 0
    }

    private func freeSeat() -> Int? {
        (0..<GATTStation.raceSeats).first { seat in !peers.contains { $0.seat == seat } }
    }
}

/// What the station asks the loop to show.
enum StationNotice: Equatable {
    /// A pairing ended: bonded with a box, or the 60 s ran out.
    case pairingEnded(bonded: Bool)
    /// A line for the log from where the station has no log at hand.
    case problem(String)
}

/// Pairing (issue 47, point 6): the 5 s hold opens 60 s in which SMP's
/// confirmations are accepted; the first bond ends it and is kept in the
/// bonded peers' file with its key.
extension GATTStation {
    static let pairingNanos: Int64 = 60_000_000_000

    /// false when there is no controller to pair with.
    var canPair: Bool { controller?.info != nil }

    mutating func enterPairing(now: Int64) {
        pairingUntilNanos = now + GATTStation.pairingNanos
        controller?.acceptsPairing = true
        central?.pairing = true
        central?.bondedHosts = bonded.map { $0.address }
    }

    fileprivate mutating func endPairing() {
        pairingUntilNanos = nil
        controller?.acceptsPairing = false
        central?.pairing = false
    }

    fileprivate mutating func bond(_ key: LongTermKey, say: (String) -> Void) throws(GateError) {
        let name = "ts-gate-" + key.address.shortSuffix
        let known = bonded.firstIndex { $0.address.bytes == key.address.bytes }
        let peer = BondedPeer(address: key.address, deviceId: name, name: name, role: known.map { bonded[$0].role } ?? "", key: key)
        try BondedPeers.append(BondedPeers.bondLine(peer), dataDirectory: dataDirectory)
        if let known { bonded[known] = peer } else { bonded.append(peer) }
        central?.bondedHosts = bonded.map { $0.address }
        let wasPairing = pairingUntilNanos != nil
        endPairing()
        say("bluetooth: bonded with " + key.address.text + " (" + name + "), kept in " + BondedPeers.path(dataDirectory: dataDirectory))
        if wasPairing { notices.append(.pairingEnded(bonded: true)) }
    }
}

import GateCore
import GateDevices

/// `ts-gate ble-probe --listen | --connect ADDR|any` (not in --help: a
/// diagnostic the VM rig drives). One ATT link end to end on the real
/// kernel: advertise or discover, listen or connect without blocking,
/// read the handle and interval, ask for 7.5 ms, move bytes with kernel
/// receive stamps, close. Each step prints one line the rig checks.
enum BLEProbeCommand {
    static func run(_ options: BLEProbeOptions, console: Console) -> Int32 {
        var station: BLEStation
        do { station = try BLEStation.open(options.controller) } catch {
            console.problem("ts-gate ble-probe: " + error.message)
            return 1
        }
        defer { station.close() }
        var probe = Probe(console: console, options: options)
        defer { probe.buffer.deallocate() }
        do throws(GateError) {
            station.controller.powerOn()
            _ = try station.settle(timeoutMillis: 5000)
            guard let info = station.controller.info else { throw GateError(station.controller.deviceName, "no controller information") }
            probe.hci = try HCIEventSocket.open(index: info.index)
            defer { probe.hci?.close() }
            if let target = options.connect {
                return try probe.connect(&station, info, target)
            }
            return try probe.listen(&station, info)
        } catch {
            console.problem("ts-gate ble-probe: " + error.message)
            return 1
        }
    }

    static func hex4(_ v: UInt16) -> String {
        "0x" + I2CBus.hex(Int(v >> 8)).dropFirst(2) + I2CBus.hex(Int(v & 0xFF)).dropFirst(2)
    }

    static func millis(_ nanos: Int64) -> String { DecimalText.fixed(Double(nanos) / 1e6, places: 1) + " ms" }
}

struct Probe {
    let console: Console
    let options: BLEProbeOptions
    var hci: HCIEventSocket?
    /// LE parameters by connection handle, as the controller reported them.
    var table = LEConnectionTable()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 2048, alignment: 8)

    init(console: Console, options: BLEProbeOptions) {
        self.console = console
        self.options = options
    }

    func poll(_ poller: inout Poller, _ millis: Int32) throws(GateError) {
        do { _ = try poller.wait(timeoutMillis: millis) } catch { throw GateError("ble-probe", error, doing: "poll") }
    }

    /// Reads the HCI socket's LE events and records each link's parameters.
    mutating func readHCI() throws(GateError) {
        guard let hci else { return }
        while let event = try hci.nextEvent(buffer: buffer) {
            switch event {
            case .connected(let status, let handle, let central, let peer, let p):
                guard table.record(event) else { console.line("LE Connection Complete failed: status " + I2CBus.hex(Int(status))); continue }
                console.line("LE Connection Complete: handle " + BLEProbeCommand.hex4(handle) + " to " + peer.text + " as "
                             + (central ? "central" : "peripheral") + ", " + p.text)
            case .updated(let status, let handle, let p):
                guard table.record(event) else { console.line("LE Connection Update failed: status " + I2CBus.hex(Int(status))); continue }
                console.line("LE Connection Update Complete: handle " + BLEProbeCommand.hex4(handle) + ", " + p.text)
            case .commandStatus(let opcode, let status):
                if opcode == HCIEventSocket.leConnectionUpdateOpcode && status != 0 {
                    console.line("LE Connection Update refused: status " + I2CBus.hex(Int(status)))
                }
            }
        }
    }

    func mgmtNotices(_ station: inout BLEStation) throws(GateError) {
        for notice in try station.drain() {
            switch notice {
            case .failed(let error, _, _): throw error
            case .connected(let a): console.line("mgmt: Device Connected " + a.text)
            case .disconnected(let a, let reason): console.line("mgmt: Device Disconnected " + a.text + " (" + mgmtDisconnectReasonName(reason) + ")")
            case .pairingConfirmed(let a, let value, _): console.line("mgmt: confirmed pairing with " + a.text + " (" + String(value) + ")")
            case .bonded(let key): console.line("mgmt: New Long Term Key for " + key.address.text)
            default: break
            }
        }
    }

    /// Prints a received packet with its stamp's age at the read.
    func report(_ packet: ATTPacket, _ what: String) {
        let age = MonotonicClock.nowNanos() - packet.stampNanos
        console.line(what + " " + String(packet.bytes.count) + " bytes \"" + String(decoding: packet.bytes, as: UTF8.self) + "\", "
                     + (packet.kernelStamp ? "kernel stamp " : "no kernel stamp, read at ") + String(age / 1000) + " us before the read")
    }

    // MARK: peripheral

    mutating func listen(_ station: inout BLEStation, _ info: ControllerInfo) throws(GateError) -> Int32 {
        let name = station.boxName
        station.controller.advertise(name: name)
        _ = try station.settle(timeoutMillis: 2000)
        let listener = try ATTListener.listen(on: info.address)
        defer { listener.close() }
        console.line("listening on " + BLEStation.describe(info) + ", advertising " + name + " with service " + gateServiceUUIDText)
        var poller = Poller(capacity: 4)
        defer { poller.release() }
        _ = poller.register(station.socket.descriptor)
        _ = poller.register(hci!.descriptor)
        let listenSlot = poller.register(listener.descriptor)
        var link: BLELink?
        var linkSlot = -1
        var served = 0
        let deadline = MonotonicClock.nowNanos() + Int64(options.seconds * 1e9)
        while MonotonicClock.nowNanos() < deadline {
            try poll(&poller, 100)
            try mgmtNotices(&station)
            try readHCI()
            if poller.isReadable(listenSlot), let accepted = try listener.accept() {
                if link != nil { console.line("refused a second central " + accepted.peer.text); accepted.close(); continue }
                let new = try BLELink(accepted)
                console.line("accepted " + new.peer.text + " as peripheral: handle " + BLEProbeCommand.hex4(new.handle)
                             + ", L2CAP MTU " + String(new.receiveMTU) + "/" + String(new.sendMTU))
                station.controller.readvertise()
                console.line("advertising again")
                link = new
                if linkSlot < 0 { linkSlot = poller.register(new.descriptor) } else { poller.replace(linkSlot, with: new.descriptor) }
            }
            if let current = link, poller.isReadable(linkSlot) {
                var closed = false
                do {
                    while let packet = try current.socket.receive(buffer: buffer) {
                        if packet.bytes.isEmpty { closed = true; break }
                        report(packet, "received")
                        served += 1
                        _ = try current.socket.send(Array("echo ".utf8) + packet.bytes)
                    }
                } catch {
                    console.line("link: " + error.problem)
                    closed = true
                }
                if closed {
                    console.line("link closed by " + current.peer.text + " after " + String(served) + " packets")
                    current.close()
                    table.forget(current.handle)
                    link = nil
                    poller.setEnabled(linkSlot, false)
                    if options.once { return 0 }
                }
            }
        }
        link?.close()
        return served > 0 || !options.once ? 0 : 1
    }

    // MARK: central

    mutating func discover(_ station: inout BLEStation) throws(GateError) -> BluetoothAddress {
        let service = AdvertisingData.uuid(gateServiceUUIDText)!
        station.controller.startDiscovery()
        var poller = Poller(capacity: 1)
        defer { poller.release() }
        _ = poller.register(station.socket.descriptor)
        let deadline = MonotonicClock.nowNanos() + Int64(options.seconds * 1e9)
        while MonotonicClock.nowNanos() < deadline {
            try poll(&poller, 100)
            for notice in try station.drain() {
                switch notice {
                case .failed(let error, _, _): throw error
                case .found(let address, let rssi, let data) where data.advertises(service):
                    console.line("found " + address.text + " " + (data.name ?? "(no name)") + " rssi " + String(rssi)
                                 + " advertising " + gateServiceUUIDText)
                    station.controller.stopDiscovery()
                    _ = try station.settle(timeoutMillis: 2000)
                    return address
                case .discovering(false): station.controller.startDiscovery()
                default: break
                }
            }
        }
        throw GateError(station.controller.deviceName, "no box advertising " + gateServiceUUIDText + " found in "
                        + String(Int(options.seconds)) + " s")
    }

    mutating func connect(_ station: inout BLEStation, _ info: ControllerInfo, _ target: String) throws(GateError) -> Int32 {
        let peer: BluetoothAddress
        if target == "any" { peer = try discover(&station) } else {
            guard let parsed = BluetoothAddress(text: target) else { throw GateError("--connect", "expects an address like 00:AA:01:01:00:01 or 'any'") }
            peer = parsed
        }
        var poller = Poller(capacity: 3)
        defer { poller.release() }
        _ = poller.register(station.socket.descriptor)
        _ = poller.register(hci!.descriptor)
        let start = MonotonicClock.nowNanos()
        let link = try ATTSocket.connect(from: info.address, to: peer)
        var open = true
        defer { if open { link.close() } }
        let slot = poller.register(link.descriptor)
        poller.setWaitsForOutput(slot, true)
        // The box's own timeout: the kernel would wait ~40 s for a silent peer.
        let connectDeadline = start + Int64(options.connectTimeoutMillis) * 1_000_000
        var connected = false
        while !connected {
            let left = (connectDeadline - MonotonicClock.nowNanos()) / 1_000_000
            if left <= 0 {
                console.line("no connection to " + peer.text + " within " + String(options.connectTimeoutMillis) + " ms: gave up (the loop never waited)")
                return 1
            }
            try poll(&poller, Int32(min(left, 100)))
            try mgmtNotices(&station)
            try readHCI()
            if poller.isWritable(slot) { connected = try link.finishConnect() }
        }
        let connectedAt = MonotonicClock.nowNanos()
        let linked = try BLELink(link)
        let handle = linked.handle
        console.line("connected to " + peer.text + " as central in " + BLEProbeCommand.millis(connectedAt - start) + " (non-blocking connect): handle "
                     + BLEProbeCommand.hex4(handle) + ", L2CAP MTU " + String(linked.receiveMTU) + "/" + String(linked.sendMTU))
        poller.setWaitsForOutput(slot, false)
        // The interval comes with LE Connection Complete on the HCI socket.
        try wait(&poller, &station, millis: 2000) { $0.table[handle] != nil }
        if let p = table[handle] { console.line("link interval read: " + p.text) }
        else { console.line("no LE Connection Complete seen for handle " + BLEProbeCommand.hex4(handle)) }
        let asked = MonotonicClock.nowNanos()
        try hci!.requestConnectionUpdate(handle: handle, .fastest)
        try wait(&poller, &station, millis: 3000) { $0.table.updated.contains(handle) }
        if table.updated.contains(handle), let p = table[handle] {
            console.line("link interval set in " + BLEProbeCommand.millis(MonotonicClock.nowNanos() - asked) + ": " + p.text)
        } else {
            console.line("the connection update to 7.5 ms was not confirmed in 3 s")
        }
        if options.secure {
            // Pairing through the kernel's SMP: both sides' User Confirm
            // Requests are answered by their BluetoothController.
            let asked = MonotonicClock.nowNanos()
            try link.requestSecurity(.medium)
            poller.setWaitsForOutput(slot, true)
            var writable = false
            while !writable && MonotonicClock.nowNanos() < asked + 5_000_000_000 {
                try poll(&poller, 50)
                try mgmtNotices(&station)
                try readHCI()
                writable = poller.isWritable(slot)
            }
            poller.setWaitsForOutput(slot, false)
            let level = try link.security()
            guard writable, level.level >= 2 else { throw GateError("ATT channel to " + peer.text, "not encrypted 5 s after BT_SECURITY medium") }
            console.line("encrypted in " + BLEProbeCommand.millis(MonotonicClock.nowNanos() - asked) + ": security level "
                         + String(level.level) + ", key size " + String(level.keySize))
            // The bond's keys arrive as mgmt events just after.
            try wait(&poller, &station, millis: 500) { _ in false }
        }
        // Bytes both ways: our message, the peer's echo, with kernel stamps.
        let message = Array(options.message.utf8)
        let sent = MonotonicClock.nowNanos()
        guard try link.send(message) else { throw GateError("ATT channel to " + peer.text, "the send queue is full on a new link") }
        console.line("sent " + String(message.count) + " bytes \"" + options.message + "\"")
        var echo: ATTPacket?
        let echoDeadline = sent + 3_000_000_000
        while echo == nil && MonotonicClock.nowNanos() < echoDeadline {
            try poll(&poller, 100)
            try mgmtNotices(&station)
            try readHCI()
            if poller.isReadable(slot) { echo = try link.receive(buffer: buffer) }
        }
        guard let echo, !echo.bytes.isEmpty else { throw GateError("ATT channel to " + peer.text, "no echo within 3 s") }
        report(echo, "received")
        console.line("round trip " + BLEProbeCommand.millis(echo.stampNanos - sent) + " (send to the echo's kernel stamp)")
        if options.holdMillis > 0 {
            console.line("holding the link " + String(options.holdMillis) + " ms")
            try wait(&poller, &station, millis: Int64(options.holdMillis)) { _ in false }
        }
        // Close and see the link go down.
        link.close()
        open = false
        let closedAt = MonotonicClock.nowNanos()
        var down = false
        while !down && MonotonicClock.nowNanos() < closedAt + 6_000_000_000 {
            try poll(&poller, 100)
            for notice in try station.drain() {
                if case .disconnected(let a, let reason) = notice, a.bytes == peer.bytes {
                    console.line("link closed cleanly: Device Disconnected " + a.text + " (" + mgmtDisconnectReasonName(reason) + ") "
                                 + BLEProbeCommand.millis(MonotonicClock.nowNanos() - closedAt) + " after close")
                    down = true
                }
            }
        }
        if !down { console.line("the link to " + peer.text + " was still up 6 s after close") }
        return down ? 0 : 1
    }

    /// Polls the mgmt and HCI sockets until `done` or the time is up.
    mutating func wait(_ poller: inout Poller, _ station: inout BLEStation, millis: Int64, _ done: (Probe) -> Bool) throws(GateError) {
        let deadline = MonotonicClock.nowNanos() + millis * 1_000_000
        while !done(self) && MonotonicClock.nowNanos() < deadline {
            try poll(&poller, 50)
            try mgmtNotices(&station)
            try readHCI()
        }
    }
}

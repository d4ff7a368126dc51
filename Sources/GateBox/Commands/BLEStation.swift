import GateCore
import GateDevices

/// A command-line tool's hold on one Bluetooth controller: the mgmt socket
/// and the controller state over it. The tools (selftest, peers,
/// ble-probe) wait in poll() with deadlines; the box's loop will drive the
/// same BluetoothController from its own poll().
struct BLEStation {
    let socket: MgmtSocket
    var controller: BluetoothController
    let buffer: UnsafeMutableRawBufferPointer

    /// Opens mgmt and picks the controller named "hciN", or the first one.
    static func open(_ name: String?) throws(GateError) -> BLEStation {
        let socket = try MgmtSocket.open()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        do throws(GateError) {
            let indexes = try indexList(socket, buffer)
            guard let first = indexes.first else {
                throw GateError("Bluetooth", "no hci device: the kernel sees no Bluetooth controller (check the adapter and its driver: btusb, hci_uart)")
            }
            var index = first
            if let name {
                guard name.hasPrefix("hci"), let n = UInt16(name.dropFirst(3)), indexes.contains(n) else {
                    throw GateError(name, "no such controller (the kernel has " + indexes.map { "hci" + String($0) }.joined(separator: ", ") + ")")
                }
                index = n
            }
            var station = BLEStation(socket: socket, controller: BluetoothController(index: index), buffer: buffer)
            station.controller.readInfo()
            _ = try station.settle(timeoutMillis: 2000)
            return station
        } catch {
            socket.close()
            buffer.deallocate()
            throw error
        }
    }

    func close() {
        socket.close()
        buffer.deallocate()
    }

    /// Read Index List, answered at once (it is the one command not bound to a controller).
    static func indexList(_ socket: MgmtSocket, _ buffer: UnsafeMutableRawBufferPointer) throws(GateError) -> [UInt16] {
        try socket.send(.readIndexList())
        var poller = Poller(capacity: 1)
        defer { poller.release() }
        let slot = poller.register(socket.descriptor)
        let deadline = MonotonicClock.nowNanos() + 2_000_000_000
        while MonotonicClock.nowNanos() < deadline {
            do { _ = try poller.wait(timeoutMillis: 200) } catch { throw GateError("Bluetooth management socket", error, doing: "poll") }
            guard poller.isReadable(slot) else { continue }
            while let event = try socket.nextEvent(buffer: buffer) {
                guard case .commandComplete(_, let opcode, let status, let reply) = event, opcode == MgmtOpcode.readIndexList.rawValue else { continue }
                guard status == .success else { throw BluetoothController.error("Bluetooth", .readIndexList, status) }
                let r = reply
                guard r.count >= 2 else { return [] }
                let count = Int(r[0]) | Int(r[1]) << 8
                var indexes: [UInt16] = []
                var i = 2
                while indexes.count < count && i + 1 < r.count {
                    indexes.append(UInt16(r[i]) | UInt16(r[i + 1]) << 8)
                    i += 2
                }
                // The kernel lists the newest first; people count from hci0.
                return indexes.sorted()
            }
        }
        throw GateError("Bluetooth management socket", "no answer to Read Index List in 2 s")
    }

    /// Reads every waiting event, sends the next queued command; returns the
    /// notices. Never waits.
    mutating func drain() throws(GateError) -> [BluetoothController.Notice] {
        var notices: [BluetoothController.Notice] = []
        while true {
            try controller.pump(socket)
            guard let event = try socket.nextEvent(buffer: buffer) else { break }
            if let notice = controller.handle(event) { notices.append(notice) }
        }
        try controller.pump(socket)
        return notices
    }

    /// Runs the queued commands to the end (or the deadline); throws the
    /// first refusal. Returns the other notices heard meanwhile.
    mutating func settle(timeoutMillis: Int) throws(GateError) -> [BluetoothController.Notice] {
        var poller = Poller(capacity: 1)
        defer { poller.release() }
        let slot = poller.register(socket.descriptor)
        var heard: [BluetoothController.Notice] = []
        let deadline = MonotonicClock.nowNanos() + Int64(timeoutMillis) * 1_000_000
        while true {
            for notice in try drain() {
                if case .failed(let error, _, _) = notice { throw error }
                heard.append(notice)
            }
            if controller.isIdle { return heard }
            let left = (deadline - MonotonicClock.nowNanos()) / 1_000_000
            guard left > 0 else { throw GateError(controller.deviceName, "mgmt did not answer within " + String(timeoutMillis) + " ms") }
            do { _ = try poller.wait(timeoutMillis: Int32(left)) } catch { throw GateError("Bluetooth management socket", error, doing: "poll") }
            _ = poller.isReadable(slot)
        }
    }

    /// "ts-gate-3F2A": the box's short name from its address.
    var boxName: String { "ts-gate-" + (controller.info?.address.shortSuffix ?? "0000") }

    static func describe(_ info: ControllerInfo) -> String {
        info.deviceName + " " + info.address.text + " LE " + (info.supported.contains(.le) ? "supported" : "NOT supported")
            + (info.current.contains(.powered) ? ", powered" : ", off")
    }
}

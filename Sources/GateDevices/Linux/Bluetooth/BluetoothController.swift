/// Seed 002's service (Appendix B): what every box advertises and looks for.
public let gateServiceUUIDText = "12345678-1234-1000-8000-00805F9B34FB"

/// One controller driven through mgmt, without bluetoothd: it powers the
/// controller on with what SMP needs, advertises the box, discovers other
/// boxes and answers pairing confirmations. It never blocks: commands wait
/// in a queue, `pump` sends the next, `handle` takes each event the loop
/// read from the mgmt socket and says what the owner should know.
public struct BluetoothController {
    public let index: UInt16
    public private(set) var info: ControllerInfo?
    public private(set) var settings = ControllerSettings()
    var queue = MgmtQueue()
    /// The instance re-added after each accepted connection (the kernel does
    /// not resume advertising by itself).
    var advertisement: MgmtCommand?
    public private(set) var discovering = false
    /// SMP's confirmation requests are accepted: always for the command-line
    /// tools; in `run` only in pairing mode (the 5 s hold).
    public var acceptsPairing = true
    public var isIdle: Bool { queue.isIdle }

    public var deviceName: String { "hci" + String(index) }

    public init(index: UInt16) { self.index = index }

    /// What the owner hears from `handle`.
    public enum Notice: Equatable {
        /// Read Controller Info answered (after power-on too).
        case info(ControllerInfo)
        case settingsChanged(ControllerSettings)
        /// A command was refused; the error names the controller, the
        /// command and mgmt's status.
        case failed(GateError, MgmtOpcode, MgmtStatus)
        case found(BluetoothAddress, rssi: Int8, AdvertisingData)
        case connected(BluetoothAddress)
        case disconnected(BluetoothAddress, reason: UInt8)
        case connectFailed(BluetoothAddress, MgmtStatus)
        /// SMP asked to confirm a pairing; it was answered `accepted`.
        case pairingConfirmed(BluetoothAddress, value: UInt32, accepted: Bool)
        case pairingFailed(BluetoothAddress, MgmtStatus)
        /// A long-term key to keep: the peer bonded.
        case bonded(LongTermKey)
        case discovering(Bool)
        /// The controller went away (USB unplugged, driver unloaded).
        case removed
    }

    public mutating func readInfo() { queue.enqueue(.readControllerInfo(index)) }

    /// LE on, bondable, Secure Connections, an IO capability, then power:
    /// powering on through mgmt is what registers SMP in the kernel
    /// (`hciconfig up` does not). DisplayYesNo: numeric comparison where
    /// the peer can, Just Works with a box that has no screen.
    public mutating func powerOn(ioCapability: IOCapability = .displayYesNo) {
        queue.enqueue(.setLE(index, true))
        queue.enqueue(.setBondable(index, true))
        queue.enqueue(.setSecureConnections(index, 1))
        queue.enqueue(.setIOCapability(index, ioCapability))
        queue.enqueue(.setPowered(index, true))
        queue.enqueue(.readControllerInfo(index))
    }

    /// Advertises connectable and discoverable with the service UUID and `name`.
    public mutating func advertise(name: String, instance: UInt8 = 1) {
        let data = AdvertisingData.encode(serviceUUID: AdvertisingData.uuid(gateServiceUUIDText)!, name: name)
        let command = MgmtCommand.addAdvertising(index, instance: instance, flags: [.connectable, .discoverable],
                                                 advertisingData: data.advertising, scanResponse: data.scanResponse)
        advertisement = command
        queue.enqueue(command)
    }

    /// Adds the advertising instance again: after an accepted connection.
    public mutating func readvertise() {
        if let advertisement { queue.enqueue(advertisement) }
    }

    public mutating func stopAdvertising() {
        advertisement = nil
        queue.enqueue(.removeAdvertising(index, instance: 0))
    }

    /// Gives the kernel back the bonds kept on the card.
    public mutating func loadKeys(_ keys: [LongTermKey]) { queue.enqueue(.loadLongTermKeys(index, keys)) }

    public mutating func startDiscovery() { queue.enqueue(.startDiscovery(index)) }
    public mutating func stopDiscovery() { queue.enqueue(.stopDiscovery(index)) }
    public mutating func disconnect(_ peer: BluetoothAddress) { queue.enqueue(.disconnect(index, peer)) }

    public mutating func pump(_ socket: MgmtSocket) throws(GateError) { try queue.pump(socket) }

    /// Takes one event read from the mgmt socket (any controller's: others
    /// are ignored). Pairing confirmations are answered here.
    public mutating func handle(_ event: MgmtEvent) -> Notice? {
        guard event.index == index else { return nil }
        if let done = queue.reply(to: event) {
            return completed(done.command, done.status, done.reply)
        }
        switch event {
        case .newSettings(_, let s):
            settings = s
            return .settingsChanged(s)
        case .deviceFound(_, let address, let rssi, let data):
            return .found(address, rssi: rssi, data)
        case .deviceConnected(_, let address):
            return .connected(address)
        case .deviceDisconnected(_, let address, let reason):
            return .disconnected(address, reason: reason)
        case .connectFailed(_, let address, let status):
            return .connectFailed(address, status)
        case .userConfirmRequest(_, let address, _, let value):
            // Even Just Works asks (the kernel stalls SMP ~31 s without an
            // answer): answered at once, yes only while pairing is allowed.
            queue.enqueue(.userConfirmReply(index, address, accept: acceptsPairing))
            return .pairingConfirmed(address, value: value, accepted: acceptsPairing)
        case .authenticationFailed(_, let address, let status):
            return .pairingFailed(address, status)
        case .newLongTermKey(_, let key):
            return .bonded(key)
        case .discovering(_, let active):
            discovering = active
            return .discovering(active)
        case .indexRemoved:
            return .removed
        default:
            return nil
        }
    }

    mutating func completed(_ command: MgmtCommand, _ status: MgmtStatus, _ reply: [UInt8]) -> Notice? {
        guard status == .success else {
            // Stopping a discovery that already ended is not a failure.
            if command.opcode == .stopDiscovery && status == .rejected { return nil }
            // Nor is a refused disconnect: the box asks only to clear a link
            // it has given up on, and mgmt refuses when that link is already
            // gone (Not Connected, Disconnected) or went with its controller.
            if command.opcode == .disconnect { return nil }
            // A controller without Secure Connections pairs with legacy LE
            // pairing: the link still works, so this is not a failure.
            if command.opcode == .setSecureConnections && status == .notSupported { return nil }
            return .failed(BluetoothController.error(deviceName, command.opcode, status), command.opcode, status)
        }
        switch command.opcode {
        case .readControllerInfo:
            guard let parsed = ControllerInfo(index: index, reply: reply[...]) else { return nil }
            info = parsed
            settings = parsed.current
            return .info(parsed)
        case .setPowered, .setLE, .setBondable, .setSecureConnections:
            if reply.count >= 4 { settings = ControllerSettings(rawValue: LittleEndianBytes(reply).u32(0)) }
            return nil
        case .startDiscovery:
            discovering = true
            return nil
        default:
            return nil
        }
    }

    /// mgmt's refusal as a person can act on it.
    public static func error(_ device: String, _ opcode: MgmtOpcode, _ status: MgmtStatus) -> GateError {
        var problem = opcode.name + " refused: " + status.name
        switch status {
        case .permissionDenied: problem += " (managing Bluetooth needs root or CAP_NET_ADMIN)"
        case .rfkilled: problem += " (the radio is blocked: rfkill unblock bluetooth)"
        case .notSupported: problem += " (the controller cannot do this; LE needs a Bluetooth 4.0 controller)"
        case .invalidIndex: problem += " (no such controller)"
        case .notPowered: problem += " (the controller is off)"
        default: break
        }
        return GateError(device, problem)
    }
}

/// One ATT link as the loop holds it: the per-peer state a BLE PeerLink
/// keeps (house rule: every device is a descriptor in the one wait).
public struct BLELink {
    public let socket: ATTSocket
    /// The link's HCI handle: the key of its LE events and its connection update.
    public let handle: UInt16
    /// L2CAP's MTUs on the channel; the ATT MTU is what ATT's Exchange
    /// MTU settles on, never more than these.
    public let receiveMTU: Int
    public let sendMTU: Int
    /// The interval and the rest, once the controller has reported them.
    public var parameters: LEConnectionParameters?

    public var descriptor: FileDescriptor { socket.descriptor }
    public var peer: BluetoothAddress { socket.peer }
    public var role: LinkRole { socket.role }

    /// A connected socket (accepted, or connect finished): reads the handle
    /// and MTUs and turns kernel receive stamps on.
    public init(_ socket: ATTSocket) throws(GateError) {
        self.socket = socket
        handle = try socket.connectionHandle()
        let mtu = try socket.mtu()
        receiveMTU = mtu.receive
        sendMTU = mtu.send
        try socket.enableReceiveStamps()
    }

    public func close() { socket.close() }
}

/// LE connection parameters by handle, from an HCI event socket. LE
/// Connection Complete may be read before or after accept() or the
/// connect finishes, so parameters wait here for their link.
public struct LEConnectionTable {
    public private(set) var parameters: [UInt16: LEConnectionParameters] = [:]
    /// Handles whose parameters a Connection Update changed.
    public private(set) var updated: Set<UInt16> = []

    public init() {}

    /// Records a successful Connection Complete or Update Complete; false
    /// for anything else.
    public mutating func record(_ event: LEConnectionEvent) -> Bool {
        switch event {
        case .connected(0, let handle, _, _, let p):
            parameters[handle] = p
            updated.remove(handle)
            return true
        case .updated(0, let handle, let p):
            parameters[handle] = p
            updated.insert(handle)
            return true
        default:
            return false
        }
    }

    public subscript(handle: UInt16) -> LEConnectionParameters? { parameters[handle] }

    /// A handle is reused after its link drops.
    public mutating func forget(_ handle: UInt16) {
        parameters[handle] = nil
        updated.remove(handle)
    }
}

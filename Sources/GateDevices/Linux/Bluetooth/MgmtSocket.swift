import CGateShim

/// The kernel's Bluetooth management socket (HCI_CHANNEL_CONTROL): a
/// non-blocking descriptor for the loop's poll(). One socket hears every
/// controller; each event names its controller index.
///
/// Errno table: EAFNOSUPPORT or EPROTONOSUPPORT (the kernel has no
/// Bluetooth), EPERM/EACCES on bind (not allowed to manage controllers).
/// A command the socket may not send (not root, no CAP_NET_ADMIN) is not
/// an errno: it comes back as status Permission Denied.
public struct MgmtSocket {
    public let descriptor: FileDescriptor
    static let subject = "Bluetooth management socket"

    public static func open() throws(GateError) -> MgmtSocket {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_HCI)
        guard fd >= 0 else {
            let errno = Errno.current
            if errno == Errno(EAFNOSUPPORT) || errno == Errno(EPROTONOSUPPORT) {
                throw GateError(subject, "this kernel has no Bluetooth (AF_BLUETOOTH): load the bluetooth module or build it in")
            }
            throw GateError(subject, errno, doing: "socket(AF_BLUETOOTH, BTPROTO_HCI)")
        }
        var address = sockaddr_hci(hci_family: sa_family_t(AF_BLUETOOTH), hci_dev: UInt16(HCI_DEV_NONE), hci_channel: UInt16(HCI_CHANNEL_CONTROL))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }
        guard bound == 0 else {
            let errno = Errno.current
            _ = CGateShim.close(fd)
            throw GateError(subject, errno, doing: "binding to HCI_CHANNEL_CONTROL (mgmt needs kernel 3.4 or later)")
        }
        return MgmtSocket(descriptor: FileDescriptor(rawValue: fd))
    }

    public func close() { descriptor.close() }

    /// Sends one command; its outcome arrives as an event. The kernel takes a
    /// whole command per write or none of it.
    public func send(_ command: MgmtCommand) throws(GateError) {
        let bytes = command.bytes
        do {
            try descriptor.writeAll(bytes)
        } catch {
            throw GateError(MgmtSocket.subject, error, doing: "sending " + command.opcode.name + " to hci" + String(command.index))
        }
    }

    /// The next event, or nil when none is waiting (never blocks).
    public func nextEvent(buffer: UnsafeMutableRawBufferPointer) throws(GateError) -> MgmtEvent? {
        while true {
            let n: Int
            do { n = try descriptor.read(into: buffer) } catch {
                if error == .wouldBlock { return nil }
                throw GateError(MgmtSocket.subject, error, doing: "reading an event")
            }
            let packet = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            // A packet too short for its header is skipped: the next may be whole.
            if let event = MgmtEvent.parse(packet[...]) { return event }
        }
    }
}

/// Sends mgmt commands one at a time, in order, each after the last one's
/// reply: the kernel would take them together, but Set LE must be done
/// before Set Powered, and a reply is matched to its command by opcode.
public struct MgmtQueue {
    public private(set) var waiting: [MgmtCommand] = []
    public private(set) var inFlight: MgmtCommand?

    public init() {}

    public var isIdle: Bool { waiting.isEmpty && inFlight == nil }

    public mutating func enqueue(_ command: MgmtCommand) { waiting.append(command) }

    /// Sends the next command if none is in flight.
    public mutating func pump(_ socket: MgmtSocket) throws(GateError) {
        guard inFlight == nil, !waiting.isEmpty else { return }
        let next = waiting.removeFirst()
        inFlight = next
        try socket.send(next)
    }

    /// The command `event` finishes, with its status and reply; nil if the
    /// event is not the reply to the command in flight.
    public mutating func reply(to event: MgmtEvent) -> (command: MgmtCommand, status: MgmtStatus, reply: [UInt8])? {
        guard let sent = inFlight else { return nil }
        switch event {
        case .commandComplete(let index, let opcode, let status, let reply) where index == sent.index && opcode == sent.opcode.rawValue:
            inFlight = nil
            return (sent, status, reply)
        case .commandStatus(let index, let opcode, let status) where index == sent.index && opcode == sent.opcode.rawValue:
            inFlight = nil
            return (sent, status, [])
        default:
            return nil
        }
    }
}

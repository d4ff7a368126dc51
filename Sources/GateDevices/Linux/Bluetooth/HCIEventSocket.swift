import CGateShim

/// What the controller reports about LE links: the parameters mgmt and
/// L2CAP do not show.
public enum LEConnectionEvent: Equatable, Sendable {
    /// LE (Enhanced) Connection Complete: a link is up, with the interval
    /// the central chose. `central` is this controller's role.
    case connected(status: UInt8, handle: UInt16, central: Bool, peer: BluetoothAddress, parameters: LEConnectionParameters)
    /// LE Connection Update Complete: new parameters are in force.
    case updated(status: UInt8, handle: UInt16, parameters: LEConnectionParameters)
    /// Command Status for a command sent here (LE Connection Update).
    case commandStatus(opcode: UInt16, status: UInt8)
}

/// A raw HCI socket on one controller, filtered to LE meta events and
/// command status: the connection interval is only visible there. Open it
/// before connect() or listen(): the Connection Complete event is sent once.
///
/// Errno table: ENODEV (no such hci index), EPERM on a write (sending HCI
/// commands needs CAP_NET_RAW), ENETDOWN (the controller is powered off).
public struct HCIEventSocket {
    public let descriptor: FileDescriptor
    public let index: UInt16
    var subject: String { "hci" + String(index) + " HCI socket" }

    static let eventPacket: UInt8 = 0x04
    static let commandPacket: UInt8 = 0x01
    static let commandStatusEvent: UInt8 = 0x0F
    static let leMetaEvent: UInt8 = 0x3E
    /// OGF 0x08 (LE), OCF 0x0013.
    public static let leConnectionUpdateOpcode: UInt16 = 0x08 << 10 | 0x0013

    public static func open(index: UInt16) throws(GateError) -> HCIEventSocket {
        let subject = "hci" + String(index) + " HCI socket"
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_HCI)
        guard fd >= 0 else { throw GateError(subject, Errno.current, doing: "socket(AF_BLUETOOTH, BTPROTO_HCI)") }
        // The filter first, so that no other packet is queued in between.
        var filter = hci_filter()
        filter.type_mask = 1 << UInt32(eventPacket)
        filter.event_mask.0 = 1 << UInt32(commandStatusEvent)
        filter.event_mask.1 = 1 << UInt32(leMetaEvent - 32)
        var address = sockaddr_hci(hci_family: sa_family_t(AF_BLUETOOTH), hci_dev: index, hci_channel: UInt16(HCI_CHANNEL_RAW))
        guard setsockopt(fd, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size)) == 0, withUnsafePointer(to: &address, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }) == 0 else {
            let errno = Errno.current
            _ = CGateShim.close(fd)
            throw GateError(subject, errno, doing: "binding a raw socket with an LE event filter")
        }
        return HCIEventSocket(descriptor: FileDescriptor(rawValue: fd), index: index)
    }

    public func close() { descriptor.close() }

    /// The next LE connection event, or nil when none is waiting.
    public func nextEvent(buffer: UnsafeMutableRawBufferPointer) throws(GateError) -> LEConnectionEvent? {
        while true {
            let n: Int
            do { n = try descriptor.read(into: buffer) } catch {
                if error == .wouldBlock { return nil }
                throw GateError(subject, error, doing: "reading events")
            }
            if let event = HCIEventSocket.parse(Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))) { return event }
        }
    }

    /// One raw packet: type, event code, length, parameters. nil for the
    /// events the box does not use.
    public static func parse(_ packet: [UInt8]) -> LEConnectionEvent? {
        guard packet.count >= 3, packet[0] == eventPacket, packet.count >= 3 + Int(packet[2]) else { return nil }
        let p = LittleEndianBytes(packet[3..<(3 + Int(packet[2]))])
        if packet[1] == commandStatusEvent {
            guard p.count >= 4 else { return nil }
            return .commandStatus(opcode: p.u16(2), status: p.u8(0))
        }
        guard packet[1] == leMetaEvent, p.count >= 1 else { return nil }
        switch p.u8(0) {
        case 0x01, 0x0A:   // LE Connection Complete; Enhanced, with two resolvable addresses more
            let enhanced = p.u8(0) == 0x0A
            let at = enhanced ? 24 : 12
            guard p.count >= at + 6 else { return nil }
            let peer = BluetoothAddress(bytes: Array(p.slice(6, 6)), type: p.u8(5) & 1 == 0 ? .lePublic : .leRandom)
            return .connected(status: p.u8(1), handle: p.u16(2) & 0x0FFF, central: p.u8(4) == 0, peer: peer,
                              parameters: LEConnectionParameters(interval: p.u16(at), latency: p.u16(at + 2), supervisionTimeout: p.u16(at + 4)))
        case 0x03:
            guard p.count >= 10 else { return nil }
            return .updated(status: p.u8(1), handle: p.u16(2) & 0x0FFF,
                            parameters: LEConnectionParameters(interval: p.u16(4), latency: p.u16(6), supervisionTimeout: p.u16(8)))
        default:
            return nil
        }
    }

    /// Sends HCI LE Connection Update for `handle` (what libbluetooth's
    /// hci_le_conn_update sends; the kernel has no socket option for it).
    /// The answer is a Command Status, then LE Connection Update Complete
    /// on both sides once the peer took it.
    public func requestConnectionUpdate(handle: UInt16, _ wanted: LEConnectionParameters) throws(GateError) {
        var packet: [UInt8] = [HCIEventSocket.commandPacket]
        LittleEndianBytes.append(HCIEventSocket.leConnectionUpdateOpcode, to: &packet)
        packet.append(14)
        for value in [handle, wanted.interval, wanted.interval, wanted.latency, wanted.supervisionTimeout, UInt16(0), UInt16(0)] {
            LittleEndianBytes.append(value, to: &packet)
        }
        do {
            try descriptor.writeAll(packet)
        } catch {
            throw GateError(subject, error, doing: "sending LE Connection Update (needs CAP_NET_RAW)")
        }
    }
}

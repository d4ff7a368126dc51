import CGateShim
import GateCore

/// LE connection parameters, in the controller's units.
public struct LEConnectionParameters: Equatable, Sendable {
    /// Connection interval in 1.25 ms units (6 = 7.5 ms, the least allowed).
    public var interval: UInt16
    /// Connection events the peripheral may skip.
    public var latency: UInt16
    /// Supervision timeout in 10 ms units.
    public var supervisionTimeout: UInt16

    public init(interval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    public var intervalNanos: Int64 { Int64(interval) * 1_250_000 }
    public var supervisionTimeoutNanos: Int64 { Int64(supervisionTimeout) * 10_000_000 }

    /// What the box asks for: 7.5 ms, no latency, a 2 s supervision timeout.
    public static let fastest = LEConnectionParameters(interval: 6, latency: 0, supervisionTimeout: 200)

    /// As the log says them: "interval 7.50 ms, latency 0, supervision timeout 2000 ms".
    public var text: String {
        "interval " + DecimalText.fixed(Double(intervalNanos) / 1e6, places: 2) + " ms, latency " + String(latency)
            + ", supervision timeout " + String(Int(supervisionTimeoutNanos / 1_000_000)) + " ms"
    }
}

/// One payload read from an ATT socket, with the kernel's receive stamp on
/// CLOCK_MONOTONIC (see SocketStamp).
public struct ATTPacket: Equatable {
    public var bytes: [UInt8]
    public var stampNanos: Int64
    /// false: the kernel gave no stamp (or the wall clock stepped) and
    /// `stampNanos` is when recvmsg() returned.
    public var kernelStamp: Bool
}

/// An L2CAP socket on LE's ATT fixed channel (CID 4) to one peer: the
/// descriptor the loop polls for that link. Non-blocking from the start.
///
/// Errno table: EINVAL on bind (the local side must bind to CID 4 and
/// BDADDR_LE_PUBLIC too), EADDRNOTAVAIL (no controller with that address),
/// EHOSTDOWN / ETIMEDOUT / ECONNREFUSED after connect (the peer is not
/// advertising or went away), ENOTCONN (the link dropped, or SMP is still
/// pairing after BT_SECURITY: wait for POLLOUT), EAGAIN (queue full or
/// nothing to read: back to poll).
public struct ATTSocket {
    public let descriptor: FileDescriptor
    public let local: BluetoothAddress
    public let peer: BluetoothAddress
    public let role: LinkRole

    public static let attCID: UInt16 = 4

    var subject: String { "ATT channel to " + peer.text }

    static func makeSocket(_ what: String) throws(GateError) -> Int32 {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_L2CAP)
        guard fd >= 0 else { throw GateError(what, Errno.current, doing: "socket(AF_BLUETOOTH, BTPROTO_L2CAP)") }
        return fd
    }

    static func address(_ address: BluetoothAddress) -> sockaddr_l2 {
        var a = sockaddr_l2()
        a.l2_family = sa_family_t(AF_BLUETOOTH)
        a.l2_bdaddr = address.bdaddr
        a.l2_cid = attCID.littleEndian
        a.l2_bdaddr_type = address.type.rawValue   // BDADDR_LE_PUBLIC for the box's own controller
        return a
    }

    static func bindATT(_ fd: Int32, to adapter: BluetoothAddress, _ what: String) throws(GateError) {
        var a = address(adapter)
        let result = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
        guard result == 0 else {
            let errno = Errno.current
            _ = CGateShim.close(fd)
            throw GateError(what, errno, doing: "binding to the ATT channel of " + adapter.text)
        }
    }

    /// Starts a connection from the controller at `adapter` to `peer`; it
    /// completes in the background. Poll the descriptor for output, then
    /// call `finishConnect`. The kernel alone would wait ~40 s for a peer
    /// that does not advertise: the caller closes it after its own timeout.
    public static func connect(from adapter: BluetoothAddress, to peer: BluetoothAddress) throws(GateError) -> ATTSocket {
        let what = "ATT channel to " + peer.text
        let fd = try makeSocket(what)
        try bindATT(fd, to: adapter, what)
        var a = address(peer)
        let result = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { CGateShim.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
        if result != 0 {
            let errno = Errno.current
            if errno != Errno(EINPROGRESS) {
                _ = CGateShim.close(fd)
                throw GateError(what, errno, doing: "connecting")
            }
        }
        return ATTSocket(descriptor: FileDescriptor(rawValue: fd), local: adapter, peer: peer, role: .central)
    }

    /// After poll() reported the connecting socket writable (or in error):
    /// true when connected; throws the connection's error.
    public func finishConnect() throws(GateError) -> Bool {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor.rawValue, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            throw GateError(subject, Errno.current, doing: "reading SO_ERROR")
        }
        if error == 0 { return true }
        if error == EINPROGRESS || error == EAGAIN { return false }
        throw GateError(subject, Errno(error), doing: "connecting")
    }

    public func close() { descriptor.close() }

    /// The LE link's HCI handle (L2CAP_CONNINFO): what HCI events and the
    /// connection update name the link by.
    public func connectionHandle() throws(GateError) -> UInt16 {
        var info = l2cap_conninfo()
        var length = socklen_t(MemoryLayout<l2cap_conninfo>.size)
        guard getsockopt(descriptor.rawValue, SOL_L2CAP, L2CAP_CONNINFO, &info, &length) == 0 else {
            throw GateError(subject, Errno.current, doing: "reading L2CAP_CONNINFO")
        }
        return info.hci_handle
    }

    /// The channel's L2CAP MTUs (BT_RCVMTU, BT_SNDMTU): the most one ATT
    /// PDU may carry before ATT's own Exchange MTU lowers it.
    public func mtu() throws(GateError) -> (receive: Int, send: Int) {
        func read(_ option: Int32, _ name: String) throws(GateError) -> Int {
            var value: UInt16 = 0
            var length = socklen_t(2)
            guard getsockopt(descriptor.rawValue, SOL_BLUETOOTH, option, &value, &length) == 0 else {
                throw GateError(subject, Errno.current, doing: "reading " + name)
            }
            return Int(value)
        }
        return (try read(BT_RCVMTU, "BT_RCVMTU"), try read(BT_SNDMTU, "BT_SNDMTU"))
    }

    /// BT_SECURITY levels: medium is encrypted (Just Works with Secure
    /// Connections), high authenticated (numeric comparison).
    public enum SecurityLevel: UInt8, Sendable { case low = 1, medium = 2, high = 3 }

    /// Asks for encryption at `level` (BT_SECURITY): the kernel's SMP pairs,
    /// or re-encrypts with a bonded key. Until it ends the socket is not
    /// writable (sends fail with ENOTCONN): poll for output. EINVAL here
    /// means SMP is not registered: the controller was powered on without
    /// mgmt.
    public func requestSecurity(_ level: SecurityLevel) throws(GateError) {
        var security = bt_security(level: level.rawValue, key_size: 0)
        guard setsockopt(descriptor.rawValue, SOL_BLUETOOTH, BT_SECURITY, &security, socklen_t(MemoryLayout<bt_security>.size)) == 0 else {
            throw GateError(subject, Errno.current, doing: "setting BT_SECURITY")
        }
    }

    /// The link's security level now and the key size.
    public func security() throws(GateError) -> (level: UInt8, keySize: UInt8) {
        var security = bt_security()
        var length = socklen_t(MemoryLayout<bt_security>.size)
        guard getsockopt(descriptor.rawValue, SOL_BLUETOOTH, BT_SECURITY, &security, &length) == 0 else {
            throw GateError(subject, Errno.current, doing: "reading BT_SECURITY")
        }
        return (security.level, security.key_size)
    }

    /// Asks the kernel to stamp each received packet (SO_TIMESTAMPNS).
    public func enableReceiveStamps() throws(GateError) {
        var on: Int32 = 1
        guard setsockopt(descriptor.rawValue, SOL_SOCKET, gate_SO_TIMESTAMPNS(), &on, socklen_t(4)) == 0 else {
            throw GateError(subject, Errno.current, doing: "setting SO_TIMESTAMPNS")
        }
    }

    /// Sends one ATT PDU (one packet). false: the queue is full, poll for output.
    public func send(_ bytes: [UInt8]) throws(GateError) -> Bool {
        let n = bytes.withUnsafeBytes { CGateShim.send(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n >= 0 { return true }
        let errno = Errno.current
        if errno == .wouldBlock || errno == .interrupted { return false }
        throw GateError(subject, errno, doing: "sending")
    }

    /// One received PDU, or nil when none is waiting. A packet with no
    /// bytes means the link closed (end of file, or reset when the peer
    /// disconnected).
    public func receive(buffer: UnsafeMutableRawBufferPointer) throws(GateError) -> ATTPacket? {
        var control = [UInt8](repeating: 0, count: Int(gate_cmsg_space(MemoryLayout<timespec>.size)) + 64)
        var result = 0
        var realtime: Int64?
        let errno: Errno? = control.withUnsafeMutableBytes { controlBytes in
            var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
            return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                var message = msghdr()
                message.msg_iov = vectorPointer
                message.msg_iovlen = 1
                message.msg_control = controlBytes.baseAddress
                message.msg_controllen = controlBytes.count
                while true {
                    let n = recvmsg(descriptor.rawValue, &message, Int32(MSG_DONTWAIT))
                    if n >= 0 { result = n; break }
                    let e = Errno.current
                    if e != .interrupted { return e }
                }
                var header = gate_cmsg_firsthdr(&message)
                while let h = header {
                    if h.pointee.cmsg_level == SOL_SOCKET && h.pointee.cmsg_type == gate_SCM_TIMESTAMPNS() {
                        var t = timespec()
                        memcpy(&t, gate_cmsg_data(h), MemoryLayout<timespec>.size)
                        realtime = SocketStamp.nanos(t)
                    }
                    header = gate_cmsg_nxthdr(&message, h)
                }
                return nil
            }
        }
        if let errno {
            if errno == .wouldBlock { return nil }
            // The link went down under the socket (the peer disconnected):
            // the same as end of file for the caller.
            if errno == Errno(ECONNRESET) || errno == Errno(ENOTCONN) {
                return ATTPacket(bytes: [], stampNanos: MonotonicClock.nowNanos(), kernelStamp: false)
            }
            throw GateError(subject, errno, doing: "receiving")
        }
        var stamp = (nanos: MonotonicClock.nowNanos(), fromKernel: false)
        if let realtime { stamp = SocketStamp.monotonic(realtimeNanos: realtime) }
        return ATTPacket(bytes: Array(UnsafeRawBufferPointer(rebasing: buffer[0..<result])), stampNanos: stamp.nanos,
                         kernelStamp: stamp.fromKernel)
    }
}

/// A listening socket on the ATT channel of one controller: connections
/// from centrals arrive as readable events and `accept` takes them.
public struct ATTListener {
    public let descriptor: FileDescriptor
    public let adapter: BluetoothAddress

    public static func listen(on adapter: BluetoothAddress) throws(GateError) -> ATTListener {
        let what = "ATT channel of " + adapter.text
        let fd = try ATTSocket.makeSocket(what)
        try ATTSocket.bindATT(fd, to: adapter, what)
        guard CGateShim.listen(fd, 4) == 0 else {
            let errno = Errno.current
            _ = CGateShim.close(fd)
            throw GateError(what, errno, doing: "listening")
        }
        return ATTListener(descriptor: FileDescriptor(rawValue: fd), adapter: adapter)
    }

    public func close() { descriptor.close() }

    /// A central's new link, or nil when none is waiting.
    public func accept() throws(GateError) -> ATTSocket? {
        var peer = sockaddr_l2()
        var length = socklen_t(MemoryLayout<sockaddr_l2>.size)
        let fd = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                CGateShim.accept(descriptor.rawValue, $0, &length)
            }
        }
        guard fd >= 0 else {
            let errno = Errno.current
            if errno == .wouldBlock || errno == .interrupted || errno == Errno(ECONNABORTED) { return nil }
            throw GateError("ATT channel of " + adapter.text, errno, doing: "accepting a connection")
        }
        // accept4 is a GNU extension the shim's headers do not declare: set
        // the accepted socket non-blocking and close-on-exec by ioctl.
        var on: Int32 = 1
        guard gate_ioctl_ptr(fd, UInt(FIONBIO), &on) == 0, gate_ioctl_ptr(fd, UInt(FIOCLEX), nil) == 0 else {
            let errno = Errno.current
            _ = CGateShim.close(fd)
            throw GateError("ATT channel of " + adapter.text, errno, doing: "making an accepted socket non-blocking")
        }
        let type = BluetoothAddress.AddressType(rawValue: peer.l2_bdaddr_type) ?? .lePublic
        return ATTSocket(descriptor: FileDescriptor(rawValue: fd), local: adapter, peer: BluetoothAddress(peer.l2_bdaddr, type: type), role: .peripheral)
    }
}

import CGateShim
import GateCore

/// A listening TCP socket for the coach's page, non-blocking from the start
/// so that accept() never waits in the loop.
///
/// Errno table: EADDRINUSE on bind (another server has the port, or this
/// one restarted within TIME_WAIT without SO_REUSEADDR), EACCES (a port
/// below 1024 without CAP_NET_BIND_SERVICE), EADDRNOTAVAIL (no interface
/// has that address), EAGAIN on accept (nobody waiting: back to poll),
/// EMFILE/ENFILE (out of descriptors: the waiting client stays queued),
/// ECONNABORTED (the client gave up while queued: try the next).
public struct TCPListener {
    public let descriptor: FileDescriptor
    public let address: ListenAddress

    public static func listen(_ address: ListenAddress, backlog: Int32 = 64) throws(GateError) -> TCPListener {
        let what = "http " + address.text
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw GateError(what, Errno.current, doing: "socket(AF_INET, SOCK_STREAM)") }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = address.port.bigEndian
        let o = address.octets
        // s_addr is in network order: the first octet is the lowest byte in memory.
        a.sin_addr.s_addr = (UInt32(o.0) | UInt32(o.1) << 8 | UInt32(o.2) << 16 | UInt32(o.3) << 24)
        let bound = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let errno = Errno.current
            _ = CGateShim.close(fd)
            throw GateError(what, errno, doing: "binding (is another server on that port?)")
        }
        guard CGateShim.listen(fd, backlog) == 0 else {
            let errno = Errno.current
            _ = CGateShim.close(fd)
            throw GateError(what, errno, doing: "listening")
        }
        return TCPListener(descriptor: FileDescriptor(rawValue: fd), address: try boundAddress(fd, address))
    }

    /// The address as bound: port 0 asks the kernel for a free one (tests).
    static func boundAddress(_ fd: Int32, _ asked: ListenAddress) throws(GateError) -> ListenAddress {
        var a = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw GateError("http " + asked.text, Errno.current, doing: "reading the bound port") }
        return ListenAddress(octets: asked.octets, port: UInt16(bigEndian: a.sin_port))
    }

    /// The next waiting client, non-blocking; nil when none waits (or the
    /// box is out of descriptors, which leaves the client queued).
    public func accept() throws(GateError) -> FileDescriptor? {
        while true {
            let fd = accept4(descriptor.rawValue, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            if fd >= 0 { return FileDescriptor(rawValue: fd) }
            let errno = Errno.current
            switch errno.rawValue {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EMFILE, ENFILE, ENOBUFS, ENOMEM: return nil
            default: throw GateError("http " + address.text, errno, doing: "accepting a connection")
            }
        }
    }

    public func close() { descriptor.close() }
}

/// Byte-stream I/O on any connected socket (TCP, or a socketpair in tests),
/// never blocking and never raising SIGPIPE.
public enum StreamSocket {
    public enum Received: Equatable {
        case bytes(Int)
        /// Nothing to read now.
        case wouldBlock
        /// The peer closed its side (or reset the connection).
        case closed
    }

    public static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Received {
        while true {
            let n = recv(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { return .bytes(n) }
            if n == 0 { return .closed }
            switch Errno.current.rawValue {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            default: return .closed
            }
        }
    }

    /// Bytes taken by the kernel (0 when its buffer is full); nil when the
    /// connection is gone (EPIPE, ECONNRESET).
    public static func send(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Int? {
        while true {
            let n = CGateShim.send(fd.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            if n >= 0 { return n }
            switch Errno.current.rawValue {
            case EINTR: continue
            case EAGAIN: return 0
            default: return nil
            }
        }
    }
}

/// How many clients the coach's page serves at once: a coach, an assistant
/// and a few athletes' phones. The platform keeps that many watch slots.
public enum HTTPServerLimits {
    public static let connections = 8
}

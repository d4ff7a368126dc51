import CGateShim

/// A C errno value as a typed Swift error (after apple/swift-system).
public struct Errno: Error, Equatable, Hashable, Sendable {
    public var rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The errno of the call that just failed.
    public static var current: Errno { Errno(gate_errno()) }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noEntry = Errno(ENOENT)
    public static let exists = Errno(EEXIST)
    public static let noDevice = Errno(ENODEV)
    public static let notConnected = Errno(ENOTCONN)
    public static let ioError = Errno(EIO)
    public static let brokenPipe = Errno(EPIPE)
    public static let invalidArgument = Errno(EINVAL)
    public static let permissionDenied = Errno(EACCES)
    public static let notPermitted = Errno(EPERM)
    public static let noSpace = Errno(ENOSPC)
    public static let notDirectory = Errno(ENOTDIR)
    public static let badDescriptor = Errno(EBADF)

    /// strerror's text ("No such file or directory").
    public var description: String {
        guard let text = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: text)
    }
}

/// The EINTR policy, in one place: a call interrupted by a signal is
/// retried. Signals are read from a signalfd, so nothing is lost by retrying.
@inline(__always)
func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        let errno = Errno.current
        if errno != .interrupted { throw errno }
    }
}

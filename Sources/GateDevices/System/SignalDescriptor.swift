import CGateShim

/// SIGINT, SIGTERM and SIGHUP delivered as a readable descriptor, so the
/// loop sees them in the same poll() as everything else (house rule 2).
public struct SignalDescriptor {
    public enum Received: Equatable {
        /// SIGINT or SIGTERM: stop streaming, flush and close results, exit.
        case stop(signal: Int32)
        /// SIGHUP: reload the configuration.
        case reload
    }

    public let descriptor: FileDescriptor

    /// Blocks the signals for the process and opens the signalfd.
    public static func open() throws(Errno) -> SignalDescriptor {
        var mask = sigset_t()
        _ = gate_sigemptyset(&mask)
        _ = gate_sigaddset(&mask, SIGINT)
        _ = gate_sigaddset(&mask, SIGTERM)
        _ = gate_sigaddset(&mask, SIGHUP)
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else { throw Errno.current }
        let fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else { throw Errno.current }
        return SignalDescriptor(descriptor: FileDescriptor(rawValue: fd))
    }

    /// The next pending signal, or nil when none is pending.
    public func next() throws(Errno) -> Received? {
        var info = signalfd_siginfo()
        let n = withUnsafeMutableBytes(of: &info) { raw in CGateShim.read(descriptor.rawValue, raw.baseAddress, raw.count) }
        if n < 0 {
            let errno = Errno.current
            if errno == .wouldBlock || errno == .interrupted { return nil }
            throw errno
        }
        guard n == MemoryLayout<signalfd_siginfo>.size else { return nil }
        return Int32(info.ssi_signo) == SIGHUP ? .reload : .stop(signal: Int32(info.ssi_signo))
    }

    public func close() { descriptor.close() }

    /// A closed terminal or peer must not kill the box mid-session: with
    /// SIGPIPE ignored, such writes fail with EPIPE and are handled there.
    public static func ignoreBrokenPipes() {
        gate_ignore_signal(SIGPIPE)
    }
}

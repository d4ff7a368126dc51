import CGateShim

/// A timerfd on CLOCK_MONOTONIC: schedules (IMU sampling, LED patterns)
/// become descriptors in the loop's one poll().
public struct TimerDescriptor {
    public let descriptor: FileDescriptor

    public static func open() throws(Errno) -> TimerDescriptor {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw Errno.current }
        return TimerDescriptor(descriptor: FileDescriptor(rawValue: fd))
    }

    public func close() { descriptor.close() }

    /// Fires every `intervalNanos`, first after `firstNanos` (0 disarms).
    public func schedule(firstNanos: Int64, intervalNanos: Int64) throws(Errno) {
        func spec(_ nanos: Int64) -> timespec { timespec(tv_sec: Int(nanos / 1_000_000_000), tv_nsec: Int(nanos % 1_000_000_000)) }
        var value = itimerspec(it_interval: spec(intervalNanos), it_value: spec(firstNanos))
        guard timerfd_settime(descriptor.rawValue, 0, &value, nil) == 0 else { throw Errno.current }
    }

    /// Expirations since the last read (0 when it has not fired).
    public func expirations() throws(Errno) -> UInt64 {
        var count: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &count) { CGateShim.read(descriptor.rawValue, $0.baseAddress, 8) }
        if n < 0 {
            let errno = Errno.current
            if errno == .wouldBlock || errno == .interrupted { return 0 }
            throw errno
        }
        return count
    }
}

import CGateShim

/// CLOCK_MONOTONIC in nanoseconds: the clock every kernel timestamp of the
/// box is on. Used to schedule, never to stamp an event the kernel stamped.
public enum MonotonicClock {
    public static func nowNanos() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// CPU time this thread has used: what a piece of the loop's work cost,
    /// without the time another process held the core.
    public static func threadCPUNanos() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Wall-clock time in Unix milliseconds, for record keeping only (a box
    /// without a real-time clock may be wrong here; results order by monotonic time).
    public static func unixMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// The kernel's random bits (getrandom): for the coach page's PIN. Early in
/// boot, before the pool is ready, the clock's low bits stand in rather than
/// the loop waiting.
public enum KernelRandom {
    public static func bits32() -> UInt32 {
        var value: UInt32 = 0
        let n = withUnsafeMutableBytes(of: &value) { getrandom($0.baseAddress, 4, UInt32(GRND_NONBLOCK)) }
        if n == 4 { return value }
        return UInt32(truncatingIfNeeded: MonotonicClock.nowNanos() ^ (MonotonicClock.nowNanos() >> 29))
    }
}

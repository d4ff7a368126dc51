import CGateShim

/// Kernel receive stamps of Bluetooth sockets, on CLOCK_MONOTONIC.
///
/// Why a conversion: every other stamp of the box (camera frames, GPIO
/// edges) is CLOCK_MONOTONIC, but a socket's receive stamp (SO_TIMESTAMPNS,
/// and SO_TIMESTAMPING's software stamp alike) is skb->tstamp, which the
/// kernel takes with ktime_get_real(): CLOCK_REALTIME. Bluetooth has no
/// hardware stamps and no per-socket clock choice (SO_TXTIME's clockid is
/// for sending only), and BlueZ itself offers nothing better: btmon shows
/// the same real-time stamps. So the stamp is taken where the HCI driver
/// hands the packet to the stack (hci_recv_frame; the L2CAP frame keeps
/// it when it arrived in one ACL packet) and moved to CLOCK_MONOTONIC with
/// the offset between the two clocks read right after recvmsg().
///
/// The offset is read as monotonic, real-time, monotonic and the real time
/// set against the middle of the two monotonic reads: error under a
/// microsecond. NTP slewing changes the offset by at most 500 ppm of the
/// microseconds between the stamp and the read. A step of the wall clock
/// (settimeofday, an NTP step at boot) between stamp and read would move
/// the converted stamp by the step: a stamp that lands in the future, or
/// more than a second in the past, is replaced by the read time and marked.
public enum SocketStamp {
    /// Converted stamps further back than this are taken as a clock step.
    static let plausibleAgeNanos: Int64 = 1_000_000_000

    public static func monotonic(realtimeNanos: Int64) -> (nanos: Int64, fromKernel: Bool) {
        var a = timespec(), r = timespec(), b = timespec()
        clock_gettime(CLOCK_MONOTONIC, &a)
        clock_gettime(CLOCK_REALTIME, &r)
        clock_gettime(CLOCK_MONOTONIC, &b)
        let monoA = nanos(a), monoB = nanos(b)
        let middle = monoA + (monoB - monoA) / 2
        let converted = realtimeNanos - (nanos(r) - middle)
        if converted > monoB || converted < monoB - plausibleAgeNanos { return (monoB, false) }
        return (converted, true)
    }

    static func nanos(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
}

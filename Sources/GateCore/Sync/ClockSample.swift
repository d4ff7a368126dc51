/// One NTP-style exchange reduced to what the filter needs (seed 002 section
/// 4.1, seed 000 section 10.6).
///
/// Convention: `t_remote = t_local + offset`, so a positive offset means the
/// peer's clock is ahead, and a stamp of the peer's maps to this box's clock
/// as `t_local = t_remote - offset` (the seed's `Tf - O`).
///
/// With one-way delays d1 (out) and d2 (back), both >= 0, the measured offset
/// is the true one plus (d1 - d2) / 2 and the round trip is d1 + d2, so the
/// true offset lies within +-rtt/2 of the measured one. Late software stamps
/// only lengthen d1 or d2; they never move the truth out of that interval.
public struct ClockSample: Equatable, Sendable {
    /// ((t2 - t1) + (t3 - t4)) / 2, rounded toward zero as the phones round it.
    public var offsetNanos: Int64
    /// (t4 - t1) - (t3 - t2): the time on the air and in the stacks, without
    /// the peer's turnaround. Never negative in a kept sample.
    public var rttNanos: Int64
    /// Midpoint of t1 and t4 on this box's clock: the instant the offset is of.
    public var localNanos: Int64
    /// How far each stamp may be off the instant it stands for, when t1 and
    /// t3 are the radio's send instants rather than the host's (precise
    /// sync): the round trip is then the stamps' errors alone, can come out
    /// a little negative, and bounds the offset no longer. 0 for host stamps.
    public var slackNanos: Int64 = 0

    public init(offsetNanos: Int64, rttNanos: Int64, localNanos: Int64, slackNanos: Int64 = 0) {
        self.offsetNanos = offsetNanos
        self.rttNanos = rttNanos
        self.localNanos = localNanos
        self.slackNanos = slackNanos
    }

    /// The sample of one exchange: t1 ping sent (local), t2 ping received
    /// (peer), t3 pong sent (peer), t4 pong received (local). Nil when a
    /// difference overflows Int64 (stamps some 146 years apart: a garbled
    /// packet, never a clock) or the round trip is negative (the peer's
    /// turnaround is longer than the whole exchange: its stamps are wrong).
    public init?(t1: Int64, t2: Int64, t3: Int64, t4: Int64, slackNanos: Int64 = 0) {
        let (out, o1) = t2.subtractingReportingOverflow(t1)
        let (back, o2) = t3.subtractingReportingOverflow(t4)
        let (elapsed, o3) = t4.subtractingReportingOverflow(t1)
        let (turnaround, o4) = t3.subtractingReportingOverflow(t2)
        guard !(o1 || o2 || o3 || o4) else { return nil }
        let (rtt, o5) = elapsed.subtractingReportingOverflow(turnaround)
        guard !o5, rtt >= -2 * slackNanos else { return nil }
        // halfSum never overflows, whatever the two differences are.
        self.init(offsetNanos: TimingMath.halfSum(out, back), rttNanos: rtt,
                  localNanos: t1 + elapsed / 2, slackNanos: slackNanos)
    }

    /// The lowest and highest offset this exchange allows: offset -+ rtt/2,
    /// and a nanosecond more for the half the integer offset may have lost
    /// (with precise stamps: -+ the slack and what is left of the round trip).
    public var offsetRange: (low: Int64, high: Int64) {
        let half = max(rttNanos, 0) / 2 + slackNanos + 1
        return (offsetNanos &- half, offsetNanos &+ half)
    }
}

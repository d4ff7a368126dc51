/// Timing maths of the protocol (seed 002 sections 4 and 6, seed 000 section 11).
public enum TimingMath {
    /// Split in milliseconds between a start and a finish crossing, the finish
    /// stamped on a clock that is `clockOffsetNanos` ahead of the start's.
    public static func splitMs(startNanos: Int64, finishNanos: Int64, clockOffsetNanos: Int64 = 0) -> Double {
        Double(finishNanos - clockOffsetNanos - startNanos) / 1e6
    }

    /// `splitMs` in nanoseconds, nil where a stamp from a peer is so far off
    /// that the difference does not fit in Int64 (a trap in the firmware).
    public static func splitNanos(startNanos: Int64, finishNanos: Int64, clockOffsetNanos: Int64 = 0) -> Int64? {
        let (adjusted, o1) = finishNanos.subtractingReportingOverflow(clockOffsetNanos)
        let (split, o2) = adjusted.subtractingReportingOverflow(startNanos)
        return o1 || o2 ? nil : split
    }

    /// (a + b) / 2 rounded toward zero, as Kotlin's and Swift's `/ 2` round
    /// the sum, for every pair: the sum itself is never formed.
    public static func halfSum(_ a: Int64, _ b: Int64) -> Int64 {
        let floor = (a >> 1) + (b >> 1) + (a & b & 1)
        // An odd negative sum: floor is one below the truncated quotient.
        return (a ^ b) & 1 == 1 && floor < 0 ? floor + 1 : floor
    }

    /// Root-sum-square of independent one-sigma uncertainties.
    public static func combinedUncertaintyMs(_ parts: Double...) -> Double {
        var sum = 0.0
        for p in parts { sum += p * p }
        return sum.squareRoot()
    }

    /// NTP-style offset and round trip from one ping/pong: t1 sent, t2 received
    /// by the peer, t3 sent by the peer, t4 received. Offset > 0: the peer is ahead.
    /// Stamps from a packet go through `ClockSample`, which refuses the ones
    /// whose differences overflow; here they trap, as before.
    public static func clockOffset(t1: Int64, t2: Int64, t3: Int64, t4: Int64) -> (offsetNanos: Int64, rttNanos: Int64) {
        let rtt = (t4 - t1) - (t3 - t2)
        return (halfSum(t2 - t1, t3 - t4), rtt)
    }
}

/// A speed, kept in metres per second, shown in the units coaches use.
public struct Speed: Equatable {
    public var metresPerSecond: Double
    public init(metresPerSecond: Double) { self.metresPerSecond = metresPerSecond }
    public var kilometresPerHour: Double { metresPerSecond * 3.6 }
    /// International mile: 1609.344 m.
    public var milesPerHour: Double { metresPerSecond * 3600 / 1609.344 }
}

/// Timing maths of the protocol (seed 002 sections 4 and 6, seed 000 section 11).
public enum TimingMath {
    /// Split in milliseconds between a start and a finish crossing, the finish
    /// stamped on a clock that is `clockOffsetNanos` ahead of the start's.
    public static func splitMs(startNanos: Int64, finishNanos: Int64, clockOffsetNanos: Int64 = 0) -> Double {
        Double(finishNanos - clockOffsetNanos - startNanos) / 1e6
    }

    /// Root-sum-square of independent one-sigma uncertainties.
    public static func combinedUncertaintyMs(_ parts: Double...) -> Double {
        var sum = 0.0
        for p in parts { sum += p * p }
        return sum.squareRoot()
    }

    /// NTP-style offset and round trip from one ping/pong: t1 sent, t2 received
    /// by the peer, t3 sent by the peer, t4 received. Offset > 0: the peer is ahead.
    public static func clockOffset(t1: Int64, t2: Int64, t3: Int64, t4: Int64) -> (offsetNanos: Int64, rttNanos: Int64) {
        let rtt = (t4 - t1) - (t3 - t2)
        let offset = ((t2 - t1) + (t3 - t4)) / 2
        return (offset, rtt)
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

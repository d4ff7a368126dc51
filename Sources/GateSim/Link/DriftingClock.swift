import GateCore

/// One box's CLOCK_MONOTONIC in a multi-box simulation: the simulator's true
/// time plus an offset (boxes power on seconds apart) and a crystal's drift
/// that wanders slowly (temperature). Sync must find the offset and follow
/// the drift from stamps alone; only the simulator's truth reads this.
///
/// rate(t) = 1 + (base + swing * sin(2 pi t / period + phase)) * 1e-6, so
/// local(t) = t + offset + integral of the drift, in closed form: exact at any
/// instant, and the same on every architecture (PortableMath).
public struct DriftingClock: Equatable, Sendable {
    public var offsetNanos: Int64
    /// The crystal's mean error, parts per million (a clock crystal: +-20 to
    /// +-50 ppm over temperature; the Core Specification allows +-50 ppm for
    /// a controller's active clock).
    public var basePPM: Double
    /// How far the error wanders about its mean, and how slowly: the box
    /// warming in the sun over tens of minutes.
    public var swingPPM: Double
    public var periodNanos: Int64
    public var phase: Double

    public init(offsetNanos: Int64, basePPM: Double, swingPPM: Double = 0, periodNanos: Int64 = 1_800_000_000_000, phase: Double = 0) {
        self.offsetNanos = offsetNanos
        self.basePPM = basePPM
        self.swingPPM = swingPPM
        self.periodNanos = periodNanos
        self.phase = phase
    }

    /// A perfect clock: the simulator's own time.
    public static let truth = DriftingClock(offsetNanos: 0, basePPM: 0)

    /// Drawn from a seed: an offset of up to `maxOffsetSeconds` either way,
    /// a mean error within +-`maxPPM` and a swing of up to a fifth of it.
    public static func drawn(_ random: inout SplitMix64, maxOffsetSeconds: Double, maxPPM: Double) -> DriftingClock {
        let offset = Int64(random.uniform(-maxOffsetSeconds, maxOffsetSeconds) * 1e9)
        let base = random.uniform(-maxPPM, maxPPM)
        let swing = random.uniform(0, maxPPM / 5)
        // Keep the sum within maxPPM, as a crystal's tolerance bounds it.
        let bounded = min(swing, maxPPM - base.magnitude)
        let period = Int64(random.uniform(1200, 3600) * 1e9)
        return DriftingClock(offsetNanos: offset, basePPM: base, swingPPM: bounded, periodNanos: period,
                             phase: random.uniform(0, PortableMath.twoPi))
    }

    /// The drift accumulated from true time 0 to `t`, nanoseconds.
    func driftNanos(atTrue t: Int64) -> Double {
        let seconds = Double(t) / 1e9
        var drift = basePPM * 1e-6 * Double(t)
        if swingPPM != 0 {
            let w = PortableMath.twoPi / (Double(periodNanos) / 1e9)
            // integral of swing * sin(w s + phase) ds from 0 to seconds, in ns.
            drift += swingPPM * 1e-6 * 1e9 / w * (PortableMath.cos(phase) - PortableMath.cos(w * seconds + phase))
        }
        return drift
    }

    /// This box's monotonic reading at true time `t`.
    public func local(atTrue t: Int64) -> Int64 {
        t + offsetNanos + Int64(driftNanos(atTrue: t).rounded())
    }

    /// The true time at which this box reads `local` (two fixed-point steps:
    /// the drift changes by under a nanosecond across the correction).
    public func trueTime(atLocal local: Int64) -> Int64 {
        var t = local - offsetNanos
        for _ in 0..<3 { t = local - offsetNanos - Int64(driftNanos(atTrue: t).rounded()) }
        return t
    }

    /// The rate error at true time `t`, ppm.
    public func ppm(atTrue t: Int64) -> Double {
        guard swingPPM != 0 else { return basePPM }
        let w = PortableMath.twoPi / (Double(periodNanos) / 1e9)
        return basePPM + swingPPM * PortableMath.sin(w * Double(t) / 1e9 + phase)
    }
}

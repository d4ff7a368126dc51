/// The clock a gate's crossing was stamped on, against the reference clock
/// (the box that computes the splits): `t_remote = t_reference + offset`.
public struct GateClock: Equatable, Sendable {
    /// Gates with the same id share a clock (one box, one sync).
    public var id: Int
    public var offsetNanos: Int64
    /// The sync's own bound and the drift since it (`ClockPrediction`).
    public var syncUncertaintyMs: Double
    public var driftUncertaintyMs: Double

    public init(id: Int, offsetNanos: Int64, syncUncertaintyMs: Double, driftUncertaintyMs: Double) {
        self.id = id
        self.offsetNanos = offsetNanos
        self.syncUncertaintyMs = syncUncertaintyMs
        self.driftUncertaintyMs = driftUncertaintyMs
    }

    /// The reference box's own clock: id 0, no offset, nothing uncertain.
    public static let reference = GateClock(id: 0, offsetNanos: 0, syncUncertaintyMs: 0, driftUncertaintyMs: 0)

    /// A peer's clock as its sync predicts it at one instant.
    public init(id: Int, prediction p: ClockPrediction) {
        self.init(id: id, offsetNanos: p.offsetNanos, syncUncertaintyMs: p.syncUncertaintyMs,
                  driftUncertaintyMs: p.driftUncertaintyMs)
    }
}

/// One gate's crossing in a run.
public struct GateCrossing: Equatable, Sendable {
    /// Metres from the start gate (0 for it); nil if not known: no speed then.
    public var distanceMetres: Double?
    /// On the gate's own clock.
    public var crossingNanos: Int64
    /// The detection's own uncertainty (sub-frame interpolation, shutter).
    public var detectionUncertaintyMs: Double
    public var clock: GateClock

    public init(distanceMetres: Double?, crossingNanos: Int64, detectionUncertaintyMs: Double, clock: GateClock = .reference) {
        self.distanceMetres = distanceMetres
        self.crossingNanos = crossingNanos
        self.detectionUncertaintyMs = detectionUncertaintyMs
        self.clock = clock
    }
}

/// The terms of a split's uncertainty, each a +- in milliseconds, and their
/// root-sum-square (seed 002 section 6.2, with drift as a fourth term).
public struct UncertaintyBudget: Equatable, Sendable {
    public var startDetectionMs: Double
    public var finishDetectionMs: Double
    /// Both gates' sync bounds in quadrature; 0 when they share a clock,
    /// whose sync error then cancels in the difference.
    public var syncMs: Double
    /// Both gates' drift since their sync in quadrature; on a shared clock,
    /// the drift across the split alone.
    public var driftMs: Double

    public var totalMs: Double {
        TimingMath.combinedUncertaintyMs(startDetectionMs, finishDetectionMs, syncMs, driftMs)
    }

    public init(startDetectionMs: Double, finishDetectionMs: Double, syncMs: Double, driftMs: Double) {
        self.startDetectionMs = startDetectionMs
        self.finishDetectionMs = finishDetectionMs
        self.syncMs = syncMs
        self.driftMs = driftMs
    }

    /// The budget of the time from crossing `a` to crossing `b`.
    public init(from a: GateCrossing, to b: GateCrossing) {
        let sync: Double, drift: Double
        if a.clock.id == b.clock.id {
            // One clock, one sync: its offset error is the same at both
            // crossings; only the drift between them is not.
            sync = 0
            drift = abs(b.clock.driftUncertaintyMs - a.clock.driftUncertaintyMs)
        } else {
            sync = TimingMath.combinedUncertaintyMs(a.clock.syncUncertaintyMs, b.clock.syncUncertaintyMs)
            drift = TimingMath.combinedUncertaintyMs(a.clock.driftUncertaintyMs, b.clock.driftUncertaintyMs)
        }
        self.init(startDetectionMs: a.detectionUncertaintyMs, finishDetectionMs: b.detectionUncertaintyMs,
                  syncMs: sync, driftMs: drift)
    }
}

/// One segment of a run: from the previous gate to this one, and from the
/// start to this one (seed 000 section 11.5).
public struct SegmentSplit: Equatable, Sendable {
    public var fromGateIndex: Int
    public var toGateIndex: Int
    public var splitNanos: Int64
    public var cumulativeSplitNanos: Int64
    public var segmentMetres: Double?
    public var cumulativeMetres: Double?
    public var segmentBudget: UncertaintyBudget
    public var cumulativeBudget: UncertaintyBudget

    public var splitMs: Double { Double(splitNanos) / 1e6 }
    public var cumulativeSplitMs: Double { Double(cumulativeSplitNanos) / 1e6 }
    /// The segment's mean speed; nil without its distance.
    public var segmentSpeed: Speed? { SegmentSplits.speed(segmentMetres, splitNanos) }
    /// The mean speed from the start.
    public var cumulativeSpeed: Speed? { SegmentSplits.speed(cumulativeMetres, cumulativeSplitNanos) }
}

/// A split that cannot be computed, naming the gate.
public enum SplitError: Error, Equatable {
    /// A start and a finish at least, at most two lap gates between.
    case gateCount(Int)
    /// Gate `index` is not farther from the start than the gate before it.
    case distanceNotIncreasing(index: Int)
    /// Gate `index` was crossed, on the reference clock, no later than the gate before it.
    case notAfterPrevious(index: Int)
    /// Gate `index`'s stamp and offset do not fit in Int64 nanoseconds.
    case overflow(index: Int)

    public var message: String {
        switch self {
        case .gateCount(let n):
            return "splits: " + String(n) + " gates; a run has a start, up to two lap gates and a finish (2 to 4)"
        case .distanceNotIncreasing(let i):
            return "splits: gate " + String(i) + " is not farther from the start than gate " + String(i - 1)
        case .notAfterPrevious(let i):
            return "splits: gate " + String(i) + " was crossed no later than gate " + String(i - 1)
        case .overflow(let i):
            return "splits: gate " + String(i) + "'s time does not fit on the reference clock"
        }
    }
}

/// Splits of one run across up to four gates (seed 002 section 6.1): each
/// stamp is brought to the reference clock as `t - offset`, so the split
/// from a start at Ts to a finish at Tf on a clock O ahead is (Tf - O - Ts).
public enum SegmentSplits {
    public static let maximumGates = 4

    /// One segment per gate after the start, in gate order.
    public static func compute(_ gates: [GateCrossing]) throws(SplitError) -> [SegmentSplit] {
        guard gates.count >= 2 && gates.count <= maximumGates else { throw .gateCount(gates.count) }
        // Every stamp on the reference clock first, so an overflow names its gate.
        var onReference: [Int64] = []
        onReference.reserveCapacity(gates.count)
        for (i, gate) in gates.enumerated() {
            let (value, overflow) = gate.crossingNanos.subtractingReportingOverflow(gate.clock.offsetNanos)
            if overflow { throw .overflow(index: i) }
            onReference.append(value)
        }
        var splits: [SegmentSplit] = []
        splits.reserveCapacity(gates.count - 1)
        let start = gates[0]
        for i in 1..<gates.count {
            let from = gates[i - 1], to = gates[i]
            if let a = from.distanceMetres, let b = to.distanceMetres, b <= a { throw .distanceNotIncreasing(index: i) }
            guard let segment = TimingMath.splitNanos(startNanos: onReference[i - 1], finishNanos: onReference[i]),
                  let cumulative = TimingMath.splitNanos(startNanos: onReference[0], finishNanos: onReference[i])
            else { throw .overflow(index: i) }
            guard segment > 0 else { throw .notAfterPrevious(index: i) }
            splits.append(SegmentSplit(
                fromGateIndex: i - 1, toGateIndex: i, splitNanos: segment, cumulativeSplitNanos: cumulative,
                segmentMetres: difference(to.distanceMetres, from.distanceMetres),
                cumulativeMetres: difference(to.distanceMetres, start.distanceMetres),
                segmentBudget: UncertaintyBudget(from: from, to: to),
                cumulativeBudget: UncertaintyBudget(from: start, to: to)))
        }
        return splits
    }

    private static func difference(_ a: Double?, _ b: Double?) -> Double? {
        guard let a, let b else { return nil }
        return a - b
    }

    static func speed(_ metres: Double?, _ nanos: Int64) -> Speed? {
        guard let metres, metres > 0, nanos > 0 else { return nil }
        return Speed(metresPerSecond: metres / (Double(nanos) / 1e9))
    }
}

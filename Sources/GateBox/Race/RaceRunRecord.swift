import GateCore
import GateProtocol

/// One run of a race of boxes, as every box of the race records it: the
/// results line `{"type":"race_run",...}` (format v1, beside "session",
/// "start", "crossing"). The host computes it; the others rebuild the same
/// record from the host's split_time_calculated and its detail, so every
/// box's results hold every run.
///
/// Flat keys (JSONLineWriter writes flat objects), gates by gate index
/// (0 the start): `gate0Role`, `gate0DistanceM`, `gate0CrossingTimeNanos`
/// (on that gate's own clock), `gate0ClockOffsetNanos` (its clock against the
/// host's: t_gate = t_host + offset), `gate0UncertaintyMs`; segments by the
/// gate they end at: `split1Ms` (gate 0 to 1), `cumulative1Ms` (start to 1),
/// `speed1Mps` (the segment's mean speed). Seed 002's `splitTimeMs`,
/// `startTimeNanos`, `finishTimeNanos` (the host's clock),
/// `totalUncertaintyMs` and `clockOffsetNanos` (the finish gate's), then
/// the split's uncertainty budget.
public struct RaceRunRecord: Equatable, Sendable {
    public var sessionId: String
    /// The box that wrote the record.
    public var deviceId: String
    public var runNumber: Int
    public var runId: String
    public var startType: String
    public var gates: [SplitGate]
    public var segments: [SplitSegment]
    public var splitTimeMs: Double
    public var startTimeNanos: Int64
    public var finishTimeNanos: Int64
    public var totalUncertaintyMs: Double
    public var budget: SplitBudget
    /// In a simulation: the true split, the measured one's error, and the
    /// error of the finish gate's clock offset at the finish (nil on a box).
    public var truthSplitTimeMs: Double?
    public var splitErrorMs: Double?
    public var syncErrorMs: Double?

    /// The record of a split with its detail; nil without one (a phone's).
    public init?(sessionId: String, deviceId: String, split: SplitTimeCalculated) {
        guard let detail = split.detail, detail.gates.count >= 2 else { return nil }
        self.sessionId = sessionId
        self.deviceId = deviceId
        runNumber = detail.runNumber
        runId = split.runId
        startType = detail.startType
        gates = detail.gates
        segments = detail.segments
        splitTimeMs = split.splitTimeMs
        startTimeNanos = split.startTimeNanos
        finishTimeNanos = split.finishTimeNanos
        totalUncertaintyMs = split.totalUncertaintyMs
        budget = detail.budget
    }

    /// The finish gate's clock against the host's (seed 002, 6.1's O).
    public var clockOffsetNanos: Int64 { gates[gates.count - 1].clockOffsetNanos }

    /// Start to finish, metres; nil if a distance is unknown.
    public var distanceMetres: Double? {
        guard let start = gates[0].distanceFromStart, let finish = gates[gates.count - 1].distanceFromStart else { return nil }
        return finish - start
    }

    /// The segment ending at gate `segment.toGateIndex`: its metres.
    public func metres(of segment: SplitSegment) -> Double? {
        guard let from = distance(ofGate: segment.fromGateIndex), let to = distance(ofGate: segment.toGateIndex) else { return nil }
        return to - from
    }

    /// The segment's mean speed, m/s; nil without distances.
    public func speedMps(of segment: SplitSegment) -> Double? {
        guard let metres = metres(of: segment), metres > 0, segment.splitNanos > 0 else { return nil }
        return metres / (Double(segment.splitNanos) / 1e9)
    }

    /// Start to finish mean speed, m/s.
    public var speedMps: Double? {
        guard let metres = distanceMetres, metres > 0, splitTimeMs > 0 else { return nil }
        return metres / (splitTimeMs / 1e3)
    }

    private func distance(ofGate index: Int) -> Double? {
        for gate in gates where gate.gateIndex == index { return gate.distanceFromStart }
        return nil
    }

    public func jsonLine() -> String {
        var w = JSONLineWriter()
        w.string("type", "race_run")
        w.string("sessionId", sessionId)
        w.string("deviceId", deviceId)
        w.string("runId", runId)
        w.int("runNumber", runNumber)
        w.string("startType", startType)
        w.int("gates", gates.count)
        for gate in gates {
            let key = "gate" + String(gate.gateIndex)
            w.string(key + "Role", gate.role.wire)
            if let metres = gate.distanceFromStart { w.number(key + "DistanceM", metres, places: 3) } else { w.null(key + "DistanceM") }
            w.int(key + "CrossingTimeNanos", gate.crossingTimeNanos)
            w.int(key + "ClockOffsetNanos", gate.clockOffsetNanos)
            w.number(key + "UncertaintyMs", gate.uncertaintyMs, places: 3)
        }
        w.number("splitTimeMs", splitTimeMs, places: 3)
        w.int("startTimeNanos", startTimeNanos)
        w.int("finishTimeNanos", finishTimeNanos)
        w.number("totalUncertaintyMs", totalUncertaintyMs, places: 3)
        w.int("clockOffsetNanos", clockOffsetNanos)
        for segment in segments {
            let n = String(segment.toGateIndex)
            w.number("split" + n + "Ms", Double(segment.splitNanos) / 1e6, places: 3)
            w.number("cumulative" + n + "Ms", Double(segment.cumulativeSplitNanos) / 1e6, places: 3)
            if let speed = speedMps(of: segment) { w.number("speed" + n + "Mps", speed, places: 3) } else { w.null("speed" + n + "Mps") }
        }
        w.number("startDetectionMs", budget.startDetectionMs, places: 3)
        w.number("finishDetectionMs", budget.finishDetectionMs, places: 3)
        w.number("syncMs", budget.syncMs, places: 3)
        w.number("driftMs", budget.driftMs, places: 3)
        if let truth = truthSplitTimeMs { w.number("truthSplitTimeMs", truth, places: 3) }
        if let error = splitErrorMs { w.number("splitErrorMs", error, places: 3) }
        if let error = syncErrorMs { w.number("syncErrorMs", error, places: 3) }
        return w.finish()
    }

    /// "race: run 1: 3.482 s (30 m, 8.62 m/s) +-0.6 ms", with the segments
    /// after it when there are lap gates.
    public var summary: String {
        var text = "race: run " + String(runNumber) + ": " + DecimalText.fixed(splitTimeMs / 1e3, places: 3) + " s"
        if let metres = distanceMetres, let speed = speedMps {
            text += " (" + RaceWords.metres(metres) + ", " + DecimalText.fixed(speed, places: 2) + " m/s)"
        }
        text += " +-" + DecimalText.fixed(totalUncertaintyMs, places: 1) + " ms"
        if segments.count > 1 {
            text += "; splits"
            for (i, segment) in segments.enumerated() {
                text += i == 0 ? " " : " / "
                text += DecimalText.fixed(Double(segment.splitNanos) / 1e9, places: 3)
                if let speed = speedMps(of: segment) { text += " (" + DecimalText.fixed(speed, places: 2) + " m/s)" }
            }
        }
        return text
    }
}

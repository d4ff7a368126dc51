import GateCore
/// The box's extension to split_time_calculated, so every box of a race can
/// record the whole run, not only start to finish: each gate's crossing and
/// the segment splits (seed 000, 11.5). Written as optional members beside
/// seed 002's fields, which stay as they are; phones ignore them (seed 002,
/// 9.2). A message without "gates" has no detail.
///
///     "runNumber":1,"startType":"flying",
///     "gates":[{"gateIndex":0,"role":"start","distanceFromStart":0.0,
///               "crossingTimeNanos":...,"clockOffsetNanos":0,"uncertaintyMs":0.4},...],
///     "segments":[{"fromGateIndex":0,"toGateIndex":1,"splitNanos":...,"cumulativeSplitNanos":...},...],
///     "uncertaintyBudget":{"startDetectionMs":0.4,"finishDetectionMs":0.4,"syncMs":0.3,"driftMs":0.1}
public struct SplitDetail: Equatable, Sendable {
    public var runNumber: Int
    /// "flying", "touchRelease", "countdown".
    public var startType: String
    /// In gate order, start first.
    public var gates: [SplitGate]
    /// One per gate after the start.
    public var segments: [SplitSegment]
    /// Of the whole split, start to finish.
    public var budget: SplitBudget

    public init(runNumber: Int, startType: String, gates: [SplitGate], segments: [SplitSegment], budget: SplitBudget) {
        self.runNumber = runNumber
        self.startType = startType
        self.gates = gates
        self.segments = segments
        self.budget = budget
    }

    static func decodeIfPresent(in payload: FieldReader) throws(MessageDecodeError) -> SplitDetail? {
        guard payload.object["gates"] != nil else { return nil }
        var gates: [SplitGate] = []
        for gate in try payload.objects("gates") {
            gates.append(SplitGate(gateIndex: try gate.int("gateIndex"), role: try gate.word("role", as: GateRole.self),
                                   distanceFromStart: try gate.optionalDouble("distanceFromStart"),
                                   crossingTimeNanos: try gate.int64("crossingTimeNanos"),
                                   clockOffsetNanos: try gate.int64("clockOffsetNanos"),
                                   uncertaintyMs: try gate.double("uncertaintyMs")))
        }
        var segments: [SplitSegment] = []
        for segment in try payload.objects("segments") {
            segments.append(SplitSegment(fromGateIndex: try segment.int("fromGateIndex"), toGateIndex: try segment.int("toGateIndex"),
                                         splitNanos: try segment.int64("splitNanos"),
                                         cumulativeSplitNanos: try segment.int64("cumulativeSplitNanos")))
        }
        let budget = try payload.object("uncertaintyBudget")
        return SplitDetail(
            runNumber: try payload.int("runNumber"), startType: try payload.string("startType"), gates: gates, segments: segments,
            budget: SplitBudget(startDetectionMs: try budget.double("startDetectionMs"),
                                finishDetectionMs: try budget.double("finishDetectionMs"),
                                syncMs: try budget.double("syncMs"), driftMs: try budget.double("driftMs")))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("runNumber", .int(runNumber))
        payload.append("startType", .string(startType))
        var gateArray: [JSONValue] = []
        for gate in gates {
            var object = JSONObject()
            object.append("gateIndex", .int(gate.gateIndex))
            object.append("role", .string(gate.role.wire))
            object.append("distanceFromStart", ifPresent: gate.distanceFromStart.map { .double($0) })
            object.append("crossingTimeNanos", .int(gate.crossingTimeNanos))
            object.append("clockOffsetNanos", .int(gate.clockOffsetNanos))
            object.append("uncertaintyMs", .double(gate.uncertaintyMs))
            gateArray.append(.object(object))
        }
        payload.append("gates", .array(gateArray))
        var segmentArray: [JSONValue] = []
        for segment in segments {
            var object = JSONObject()
            object.append("fromGateIndex", .int(segment.fromGateIndex))
            object.append("toGateIndex", .int(segment.toGateIndex))
            object.append("splitNanos", .int(segment.splitNanos))
            object.append("cumulativeSplitNanos", .int(segment.cumulativeSplitNanos))
            segmentArray.append(.object(object))
        }
        payload.append("segments", .array(segmentArray))
        var budgetObject = JSONObject()
        budgetObject.append("startDetectionMs", .double(budget.startDetectionMs))
        budgetObject.append("finishDetectionMs", .double(budget.finishDetectionMs))
        budgetObject.append("syncMs", .double(budget.syncMs))
        budgetObject.append("driftMs", .double(budget.driftMs))
        payload.append("uncertaintyBudget", .object(budgetObject))
    }
}

/// One gate's crossing in a split's detail, on the gate's own clock.
public struct SplitGate: Equatable, Sendable {
    public var gateIndex: Int
    public var role: GateRole
    public var distanceFromStart: Double?
    public var crossingTimeNanos: Int64
    /// `t_gate = t_host + offset`; 0 for the host's own gate.
    public var clockOffsetNanos: Int64
    public var uncertaintyMs: Double

    public init(gateIndex: Int, role: GateRole, distanceFromStart: Double?, crossingTimeNanos: Int64, clockOffsetNanos: Int64,
                uncertaintyMs: Double) {
        self.gateIndex = gateIndex
        self.role = role
        self.distanceFromStart = distanceFromStart
        self.crossingTimeNanos = crossingTimeNanos
        self.clockOffsetNanos = clockOffsetNanos
        self.uncertaintyMs = uncertaintyMs
    }
}

/// One segment (seed 000, 11.5's names).
public struct SplitSegment: Equatable, Sendable {
    public var fromGateIndex: Int
    public var toGateIndex: Int
    public var splitNanos: Int64
    public var cumulativeSplitNanos: Int64

    public init(fromGateIndex: Int, toGateIndex: Int, splitNanos: Int64, cumulativeSplitNanos: Int64) {
        self.fromGateIndex = fromGateIndex
        self.toGateIndex = toGateIndex
        self.splitNanos = splitNanos
        self.cumulativeSplitNanos = cumulativeSplitNanos
    }
}

/// The terms of the split's uncertainty, each +- ms (seed 002, 6.2, with
/// drift): GateCore's own budget, as the host computed it.
public typealias SplitBudget = UncertaintyBudget

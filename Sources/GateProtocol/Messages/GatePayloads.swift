/// gate_calibrating: calibration under way.
public struct GateCalibrating: Equatable, Sendable, MessagePayload {
    public var role: GateRole
    /// 0.0 to 1.0.
    public var progress: Double

    public init(role: GateRole, progress: Double) {
        self.role = role
        self.progress = progress
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> GateCalibrating {
        GateCalibrating(role: try payload.word("role", as: GateRole.self), progress: try payload.double("progress"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("role", .string(role.wire))
        payload.append("progress", .double(progress))
    }
}

/// gate_ready: calibrated and able to time.
public struct GateReady: Equatable, Sendable, MessagePayload {
    public var role: GateRole
    /// The gate line across the image, 0 to 1.
    public var gatePosition: Double
    /// Frames per second the camera delivers; a number, since phones report 29.97.
    public var capturedFps: Double

    public init(role: GateRole, gatePosition: Double, capturedFps: Double) {
        self.role = role
        self.gatePosition = gatePosition
        self.capturedFps = capturedFps
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> GateReady {
        GateReady(role: try payload.word("role", as: GateRole.self), gatePosition: try payload.double("gatePosition"),
                  capturedFps: try payload.double("capturedFps"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("role", .string(role.wire))
        payload.append("gatePosition", .double(gatePosition))
        payload.append("capturedFps", .double(capturedFps))
    }
}

/// gate_not_ready: the gate cannot time, and why ("calibration_failed").
public struct GateNotReady: Equatable, Sendable, MessagePayload {
    public var role: GateRole
    public var reason: String

    public init(role: GateRole, reason: String) {
        self.role = role
        self.reason = reason
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> GateNotReady {
        GateNotReady(role: try payload.word("role", as: GateRole.self), reason: try payload.string("reason"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("role", .string(role.wire))
        payload.append("reason", .string(reason))
    }
}

/// crossing_event: a torso reached the gate line, on the sender's monotonic clock.
public struct CrossingEvent: Equatable, Sendable, MessagePayload {
    public var role: GateRole
    public var crossingTimeNanos: Int64
    public var clockOffsetNanos: Int64
    public var frameIndex: Int64
    public var occupancyAtTrigger: Double
    public var interpolationOffsetMs: Double
    public var uncertaintyMs: Double

    public init(role: GateRole, crossingTimeNanos: Int64, clockOffsetNanos: Int64, frameIndex: Int64,
                occupancyAtTrigger: Double, interpolationOffsetMs: Double, uncertaintyMs: Double) {
        self.role = role
        self.crossingTimeNanos = crossingTimeNanos
        self.clockOffsetNanos = clockOffsetNanos
        self.frameIndex = frameIndex
        self.occupancyAtTrigger = occupancyAtTrigger
        self.interpolationOffsetMs = interpolationOffsetMs
        self.uncertaintyMs = uncertaintyMs
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> CrossingEvent {
        CrossingEvent(role: try payload.word("role", as: GateRole.self), crossingTimeNanos: try payload.int64("crossingTimeNanos"),
                      clockOffsetNanos: try payload.int64("clockOffsetNanos"), frameIndex: try payload.int64("frameIndex"),
                      occupancyAtTrigger: try payload.double("occupancyAtTrigger"),
                      interpolationOffsetMs: try payload.double("interpolationOffsetMs"),
                      uncertaintyMs: try payload.double("uncertaintyMs"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("role", .string(role.wire))
        payload.append("crossingTimeNanos", .int(crossingTimeNanos))
        payload.append("clockOffsetNanos", .int(clockOffsetNanos))
        payload.append("frameIndex", .int(frameIndex))
        payload.append("occupancyAtTrigger", .double(occupancyAtTrigger))
        payload.append("interpolationOffsetMs", .double(interpolationOffsetMs))
        payload.append("uncertaintyMs", .double(uncertaintyMs))
    }
}

/// split_time_calculated: the run's time, start to finish.
public struct SplitTimeCalculated: Equatable, Sendable, MessagePayload {
    public var runId: String
    public var splitTimeMs: Double
    public var startTimeNanos: Int64
    public var finishTimeNanos: Int64
    public var totalUncertaintyMs: Double
    /// The box's extension: every gate and segment of a race's run, so every
    /// box can record it (`SplitDetail`). Optional; phones ignore it.
    public var detail: SplitDetail?

    public init(runId: String, splitTimeMs: Double, startTimeNanos: Int64, finishTimeNanos: Int64, totalUncertaintyMs: Double,
                detail: SplitDetail? = nil) {
        self.runId = runId
        self.splitTimeMs = splitTimeMs
        self.startTimeNanos = startTimeNanos
        self.finishTimeNanos = finishTimeNanos
        self.totalUncertaintyMs = totalUncertaintyMs
        self.detail = detail
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> SplitTimeCalculated {
        SplitTimeCalculated(runId: try payload.string("runId"), splitTimeMs: try payload.double("splitTimeMs"),
                            startTimeNanos: try payload.int64("startTimeNanos"), finishTimeNanos: try payload.int64("finishTimeNanos"),
                            totalUncertaintyMs: try payload.double("totalUncertaintyMs"),
                            detail: try SplitDetail.decodeIfPresent(in: payload))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("runId", .string(runId))
        payload.append("splitTimeMs", .double(splitTimeMs))
        payload.append("startTimeNanos", .int(startTimeNanos))
        payload.append("finishTimeNanos", .int(finishTimeNanos))
        payload.append("totalUncertaintyMs", .double(totalUncertaintyMs))
        detail?.encode(into: &payload)
    }
}

/// heartbeat: periodic keep-alive. The battery level is optional because a
/// box on mains power has none to report.
public struct Heartbeat: Equatable, Sendable, MessagePayload {
    public var state: GateState
    /// 0.0 to 1.0.
    public var batteryLevel: Double?
    public var thermalState: ThermalState

    public init(state: GateState, batteryLevel: Double? = nil, thermalState: ThermalState) {
        self.state = state
        self.batteryLevel = batteryLevel
        self.thermalState = thermalState
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> Heartbeat {
        Heartbeat(state: try payload.word("state", as: GateState.self), batteryLevel: try payload.optionalDouble("batteryLevel"),
                  thermalState: try payload.word("thermalState", as: ThermalState.self))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("state", .string(state.wire))
        payload.append("batteryLevel", ifPresent: batteryLevel.map { .double($0) })
        payload.append("thermalState", .string(thermalState.wire))
    }
}

/// reset_for_next_run.
public struct ResetForNextRun: Equatable, Sendable, MessagePayload {
    public var keepCalibration: Bool

    public init(keepCalibration: Bool) { self.keepCalibration = keepCalibration }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> ResetForNextRun {
        ResetForNextRun(keepCalibration: try payload.bool("keepCalibration"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("keepCalibration", .bool(keepCalibration))
    }
}

/// arm_gates: every gate is ready; start timing run `runNumber`.
public struct ArmGates: Equatable, Sendable, MessagePayload {
    public var runNumber: Int

    public init(runNumber: Int) { self.runNumber = runNumber }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> ArmGates {
        ArmGates(runNumber: try payload.int("runNumber"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("runNumber", .int(runNumber))
    }
}

/// error (seed 002, 7.3): a peer reports a failure. `details` differs by
/// code, so it stays a JSON object for the caller to read.
public struct ErrorReport: Equatable, Sendable, MessagePayload {
    /// "CLOCK_SYNC_FAILED", ...
    public var code: String
    public var message: String
    public var details: JSONObject?

    public init(code: String, message: String, details: JSONObject? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> ErrorReport {
        ErrorReport(code: try payload.string("code"), message: try payload.string("message"),
                    details: try payload.optionalObject("details")?.object)
    }

    func encode(into payload: inout JSONObject) {
        payload.append("code", .string(code))
        payload.append("message", .string(message))
        payload.append("details", ifPresent: details.map { .object($0) })
    }
}

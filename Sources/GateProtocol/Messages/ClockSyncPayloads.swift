/// clock_sync_ping: the initiator's send time t1 (monotonic nanoseconds).
public struct ClockSyncPing: Equatable, Sendable, MessagePayload {
    public var sequence: Int
    public var t1: Int64

    public init(sequence: Int, t1: Int64) {
        self.sequence = sequence
        self.t1 = t1
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> ClockSyncPing {
        ClockSyncPing(sequence: try payload.int("sequence"), t1: try payload.int64("t1"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("sequence", .int(sequence))
        payload.append("t1", .int(t1))
    }
}

/// clock_sync_pong: t1 echoed, the responder's receive time t2 and send time t3.
public struct ClockSyncPong: Equatable, Sendable, MessagePayload {
    public var sequence: Int
    public var t1: Int64
    public var t2: Int64
    public var t3: Int64

    public init(sequence: Int, t1: Int64, t2: Int64, t3: Int64) {
        self.sequence = sequence
        self.t1 = t1
        self.t2 = t2
        self.t3 = t3
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> ClockSyncPong {
        ClockSyncPong(sequence: try payload.int("sequence"), t1: try payload.int64("t1"),
                      t2: try payload.int64("t2"), t3: try payload.int64("t3"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("sequence", .int(sequence))
        payload.append("t1", .int(t1))
        payload.append("t2", .int(t2))
        payload.append("t3", .int(t3))
    }
}

/// clock_sync_result: the sync's outcome (seed 002, 4.3).
public struct ClockSyncResult: Equatable, Sendable, MessagePayload {
    /// Positive when the other device's clock is ahead.
    public var offsetNanos: Int64
    public var rttNanos: Int64
    public var uncertaintyMs: Double
    public var quality: SyncQuality
    public var samplesUsed: Int

    public init(offsetNanos: Int64, rttNanos: Int64, uncertaintyMs: Double, quality: SyncQuality, samplesUsed: Int) {
        self.offsetNanos = offsetNanos
        self.rttNanos = rttNanos
        self.uncertaintyMs = uncertaintyMs
        self.quality = quality
        self.samplesUsed = samplesUsed
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> ClockSyncResult {
        ClockSyncResult(offsetNanos: try payload.int64("offsetNanos"), rttNanos: try payload.int64("rttNanos"),
                        uncertaintyMs: try payload.double("uncertaintyMs"), quality: try payload.word("quality", as: SyncQuality.self),
                        samplesUsed: try payload.int("samplesUsed"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("offsetNanos", .int(offsetNanos))
        payload.append("rttNanos", .int(rttNanos))
        payload.append("uncertaintyMs", .double(uncertaintyMs))
        payload.append("quality", .string(quality.wire))
        payload.append("samplesUsed", .int(samplesUsed))
    }
}

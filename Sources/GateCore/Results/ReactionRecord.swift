/// A called start's watch on the athlete (results "reaction" line): the
/// first movement the camera saw against the GO, written as soon as it is
/// decided, so that a false start is on the card even if its run never
/// finishes. World Athletics counts a reaction under 100 ms as a false start.
public struct ReactionRecord: Equatable {
    public var sessionId: String
    public var runId: String
    public var goTimeNanos: Int64
    /// The first movement; nil when it was not seen (nobody still in view
    /// after "Set", or no movement within the watch after GO).
    public var movementTimeNanos: Int64?
    public var uncertaintyMs: Double?
    public var falseStart: Bool
    /// Why the reaction was not measured, in words; nil when it was.
    public var unseen: String?
    public var timestamp: Int64
    /// The simulator's first movement, only in simulated sessions.
    public var truthMovementTimeNanos: Int64?

    /// Under this, a reaction is a false start (World Athletics rule 16.6).
    public static let falseStartNanos: Int64 = 100_000_000

    public init(sessionId: String, runId: String, goTimeNanos: Int64, movementTimeNanos: Int64?, uncertaintyMs: Double?,
                unseen: String?, timestamp: Int64, truthMovementTimeNanos: Int64? = nil) {
        self.sessionId = sessionId; self.runId = runId; self.goTimeNanos = goTimeNanos
        self.movementTimeNanos = movementTimeNanos; self.uncertaintyMs = uncertaintyMs; self.unseen = unseen
        self.timestamp = timestamp; self.truthMovementTimeNanos = truthMovementTimeNanos
        falseStart = movementTimeNanos.map { $0 - goTimeNanos < ReactionRecord.falseStartNanos } ?? false
    }

    /// GO to the first movement (negative: moved before GO), ms.
    public var reactionMs: Double? { movementTimeNanos.map { Double($0 - goTimeNanos) / 1e6 } }

    /// The measured first movement against the simulator's, ms.
    public var movementErrorMs: Double? {
        guard let movementTimeNanos, let truthMovementTimeNanos else { return nil }
        return Double(movementTimeNanos - truthMovementTimeNanos) / 1e6
    }

    /// "reaction 0.153 s", "FALSE START: moved 0.042 s before GO", ...
    public var text: String {
        guard let reactionMs else { return "reaction not measured: " + (unseen ?? "no movement seen") }
        let seconds = DecimalText.fixed(reactionMs.magnitude / 1000, places: 3) + " s"
        if !falseStart { return "reaction " + seconds }
        return "FALSE START: moved " + seconds + (reactionMs < 0 ? " before GO" : " after GO (under 0.100 s)")
    }

    public func jsonLine() -> String {
        var w = JSONLineWriter()
        w.string("type", "reaction")
        w.string("sessionId", sessionId)
        w.string("runId", runId)
        w.int("goTimeNanos", goTimeNanos)
        if let movementTimeNanos, let reactionMs {
            w.int("movementTimeNanos", movementTimeNanos)
            w.number("reactionMs", reactionMs, places: 3)
        } else {
            w.null("movementTimeNanos")
            w.null("reactionMs")
        }
        if let uncertaintyMs { w.number("uncertaintyMs", uncertaintyMs, places: 3) }
        w.bool("falseStart", falseStart)
        if let unseen { w.string("unseen", unseen) }
        w.int("timestamp", timestamp)
        if let truth = truthMovementTimeNanos {
            w.int("truthMovementTimeNanos", truth)
            if let error = movementErrorMs { w.number("movementErrorMs", error, places: 3) }
        }
        return w.finish()
    }
}

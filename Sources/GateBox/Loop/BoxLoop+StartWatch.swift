import GateCore
import GateDevices

extension BoxLoop {
    /// What the camera's watch on the start decided: an in-frame start's
    /// "ready" and its start, a called start's set athlete and reaction.
    mutating func handle(_ outcome: StartWatchSource.Outcome) throws(GateError) {
        switch outcome {
        case .ready:
            guard session.state == .armed else { return }
            say("in-frame start: athlete still in view: ready; leaving the frame starts the clock")
            try platform.speaker.play(StartCalls.ready(voice: configuration.voice), atNanos: platform.nowNanos)
        case .leftTheFrame(let instant):
            guard session.state == .armed else { return }
            let uncertainty = Double(instant.uncertaintyNanos) / 1e6
            try start(atNanos: instant.nanos, source: "camera-frames",
                      how: "in-frame start: left the frame (±" + DecimalText.fixed(uncertainty, places: 1) + " ms)",
                      uncertaintyMs: uncertainty)
        case .athleteSet:
            say("athlete set and still in view: watching for a false start")
        case .reaction(let go, let movement, let unseen):
            let run = session.runCount
            let record = ReactionRecord(
                sessionId: log.sessionId, runId: BoxLoop.runId(run), goTimeNanos: go, movementTimeNanos: movement?.nanos,
                uncertaintyMs: movement.map { Double($0.uncertaintyNanos) / 1e6 }, unseen: unseen,
                timestamp: platform.wallClockMillis,
                truthMovementTimeNanos: movement.flatMap { platform.truthMovement(nearNanos: $0.nanos) })
            try log.append(record.jsonLine())
            reactions.append(record)
            runReaction = (run, record.reactionMs, record.falseStart)
            if record.falseStart {
                warn("run " + String(run) + ": " + record.text)
                try platform.lights.show(.falseStart, atNanos: platform.nowNanos)
                try platform.speaker.play(StartCalls.falseStart(voice: configuration.voice), atNanos: platform.nowNanos)
            } else {
                say("run " + String(run) + ": " + record.text)
            }
        }
    }
}

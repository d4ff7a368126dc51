/// Results format v1: one JSON object per line, appended and fsync'd per
/// record, in `<data-dir>/<session-id>/results.jsonl`.
///
/// Lines, by "type":
/// - "session": first line of a session, what the box was set up as;
/// - "start": a run's clock started by an event, not a crossing: the touch
///   pad's release edge or the countdown's GO leaving the speaker (written
///   at once, so a run whose finish never comes still shows its start);
/// - "reaction": a called start's first movement against its GO, and
///   whether it was a false start (`ReactionRecord`);
/// - "crossing": one accepted crossing (lap 0 started the clock), with the
///   protocol's crossing_event / split_time_calculated field names where they overlap;
/// - "session_end": the session ended cleanly. Its absence means the box lost
///   power or crashed; every crossing before that point is still there.
public enum ResultsFormat {
    public static let version = 1
    public static let fileName = "results.jsonl"
}

public struct SessionRecord: Equatable {
    public var sessionId: String
    public var deviceId: String
    /// "solo" for solo lap mode.
    public var mode: String
    /// "flying", "touchRelease", "countdown" (seed 002 startType).
    public var startType: String
    public var detection: String
    public var fps: Int
    public var width: Int
    public var height: Int
    public var gatePosition: Double
    /// Width of the camera's view at the lane, metres: turns image speed into m/s.
    public var viewWidthMetres: Double
    /// Wall-clock time the session began (Unix ms); virtual in a simulation.
    public var timestamp: Int64
    public var simulated: Bool
    public var seed: UInt64?
    /// The preset the session was set up from (seed 000 section 4.1), and
    /// the distance it timed in metres; nil in sessions without one and in
    /// files written before presets (both fields are then absent).
    public var preset: String?
    public var distanceMetres: Double?

    public init(sessionId: String, deviceId: String, mode: String, startType: String, detection: String,
                fps: Int, width: Int, height: Int, gatePosition: Double, viewWidthMetres: Double,
                timestamp: Int64, simulated: Bool, seed: UInt64?) {
        self.sessionId = sessionId; self.deviceId = deviceId; self.mode = mode; self.startType = startType
        self.detection = detection; self.fps = fps; self.width = width; self.height = height
        self.gatePosition = gatePosition; self.viewWidthMetres = viewWidthMetres
        self.timestamp = timestamp; self.simulated = simulated; self.seed = seed
    }

    public func jsonLine() -> String {
        var w = JSONLineWriter()
        w.string("type", "session")
        w.int("format", ResultsFormat.version)
        w.string("sessionId", sessionId)
        w.string("deviceId", deviceId)
        w.string("mode", mode)
        w.string("startType", startType)
        w.string("detection", detection)
        w.int("fps", fps)
        w.int("width", width)
        w.int("height", height)
        w.number("gatePosition", gatePosition, places: 4)
        w.number("viewWidthM", viewWidthMetres, places: 3)
        w.int("timestamp", timestamp)
        w.bool("simulated", simulated)
        if let seed { w.string("seed", String(seed)) }
        if let preset { w.string("preset", preset) }
        if let distanceMetres { w.number("distanceM", distanceMetres, places: 3) }
        return w.finish()
    }
}

public struct CrossingRecord: Equatable {
    public var sessionId: String
    public var runId: String
    public var lap: Int
    public var role: String
    public var crossingTimeNanos: Int64
    public var frameIndex: Int64
    public var interpolationOffsetMs: Double
    public var uncertaintyMs: Double
    public var occupancyAtTrigger: Double
    public var direction: CrossingDirection
    public var startTimeNanos: Int64
    public var elapsedMs: Double
    /// Lap time; nil for the crossing that started the clock.
    public var splitTimeMs: Double?
    public var totalUncertaintyMs: Double
    public var speedMps: Double
    public var droppedFrames: Int
    /// False when the tripod moved during this lap.
    public var stable: Bool
    /// Wall-clock time of the record (Unix ms); virtual in a simulation.
    public var timestamp: Int64
    /// The simulator's ground truth, only in simulated sessions.
    public var truthCrossingTimeNanos: Int64?
    /// The file beside the results with the accelerometer around this run.
    public var stabilityTrace: String?
    /// A called start watched by the camera: GO to the first movement, ms
    /// (negative: before GO), and whether the run was a false start.
    public var reactionMs: Double?
    public var falseStart = false
    /// Who ran and whether it was a best, as read back (`RunAthlete`).
    public var runAthlete: RunAthlete?

    public init(sessionId: String, runId: String, lap: Int, role: String, crossingTimeNanos: Int64, frameIndex: Int64,
                interpolationOffsetMs: Double, uncertaintyMs: Double, occupancyAtTrigger: Double,
                direction: CrossingDirection, startTimeNanos: Int64, elapsedMs: Double, splitTimeMs: Double?,
                totalUncertaintyMs: Double, speedMps: Double, droppedFrames: Int, stable: Bool, timestamp: Int64,
                truthCrossingTimeNanos: Int64?) {
        self.sessionId = sessionId; self.runId = runId; self.lap = lap; self.role = role
        self.crossingTimeNanos = crossingTimeNanos; self.frameIndex = frameIndex
        self.interpolationOffsetMs = interpolationOffsetMs; self.uncertaintyMs = uncertaintyMs
        self.occupancyAtTrigger = occupancyAtTrigger; self.direction = direction
        self.startTimeNanos = startTimeNanos; self.elapsedMs = elapsedMs; self.splitTimeMs = splitTimeMs
        self.totalUncertaintyMs = totalUncertaintyMs; self.speedMps = speedMps; self.droppedFrames = droppedFrames
        self.stable = stable; self.timestamp = timestamp; self.truthCrossingTimeNanos = truthCrossingTimeNanos
    }

    /// The number in "run-NNN" (0 if the id is not of that form).
    public var runNumber: Int {
        guard runId.hasPrefix("run-"), let n = DecimalText.parseInt(runId.dropFirst(4)) else { return 0 }
        return Int(n)
    }

    /// Detection error against the simulator's truth, milliseconds.
    public var detectionErrorMs: Double? {
        truthCrossingTimeNanos.map { Double(crossingTimeNanos - $0) / 1e6 }
    }

    public var speed: Speed { Speed(metresPerSecond: speedMps) }

    public func jsonLine() -> String {
        var w = JSONLineWriter()
        w.string("type", "crossing")
        w.string("sessionId", sessionId)
        w.string("runId", runId)
        w.int("lap", lap)
        w.string("role", role)
        w.int("crossingTimeNanos", crossingTimeNanos)
        w.int("frameIndex", frameIndex)
        w.number("interpolationOffsetMs", interpolationOffsetMs, places: 3)
        w.number("uncertaintyMs", uncertaintyMs, places: 3)
        w.number("occupancyAtTrigger", occupancyAtTrigger, places: 3)
        w.string("direction", direction.code)
        w.int("startTimeNanos", startTimeNanos)
        w.int("finishTimeNanos", crossingTimeNanos)
        w.number("elapsedMs", elapsedMs, places: 3)
        if let splitTimeMs { w.number("splitTimeMs", splitTimeMs, places: 3) } else { w.null("splitTimeMs") }
        w.number("totalUncertaintyMs", totalUncertaintyMs, places: 3)
        w.number("speedMps", speedMps, places: 3)
        w.int("droppedFrames", droppedFrames)
        w.bool("stable", stable)
        w.int("timestamp", timestamp)
        if let stabilityTrace { w.string("stabilityTrace", stabilityTrace) }
        if let reactionMs { w.number("reactionMs", reactionMs, places: 3) }
        if falseStart { w.bool("falseStart", true) }
        if let truth = truthCrossingTimeNanos {
            w.int("truthCrossingTimeNanos", truth)
            w.number("detectionErrorMs", Double(crossingTimeNanos - truth) / 1e6, places: 3)
        }
        return w.finish()
    }
}

public struct StartRecord: Equatable {
    public var sessionId: String
    public var runId: String
    /// "touchRelease" or "countdown".
    public var startType: String
    /// The start instant on the box's monotonic clock (the crossings' time base).
    public var startTimeNanos: Int64
    /// Where the instant came from: "gpio-edge" (the kernel's stamp of the
    /// release), "pcm-status" (the speaker's status timestamp and delay) or
    /// "virtual-clock" (a simulation), "camera-frames" (an in-frame start:
    /// the frames in which the athlete left the view).
    public var source: String
    public var timestamp: Int64
    /// How well the instant is known, when that is not the source's usual
    /// sub-millisecond (an in-frame start's, from the frames).
    public var uncertaintyMs: Double?

    public init(sessionId: String, runId: String, startType: String, startTimeNanos: Int64, source: String, timestamp: Int64) {
        self.sessionId = sessionId; self.runId = runId; self.startType = startType
        self.startTimeNanos = startTimeNanos; self.source = source; self.timestamp = timestamp
    }

    public func jsonLine() -> String {
        var w = JSONLineWriter()
        w.string("type", "start")
        w.string("sessionId", sessionId)
        w.string("runId", runId)
        w.string("startType", startType)
        w.int("startTimeNanos", startTimeNanos)
        w.string("source", source)
        if let uncertaintyMs { w.number("uncertaintyMs", uncertaintyMs, places: 3) }
        w.int("timestamp", timestamp)
        return w.finish()
    }
}

public struct SessionEndRecord: Equatable {
    public var sessionId: String
    public var laps: Int
    /// "completed", "stopped" (signal or button) or "error".
    public var reason: String
    public var timestamp: Int64

    public init(sessionId: String, laps: Int, reason: String, timestamp: Int64) {
        self.sessionId = sessionId; self.laps = laps; self.reason = reason; self.timestamp = timestamp
    }

    public func jsonLine() -> String {
        var w = JSONLineWriter()
        w.string("type", "session_end")
        w.string("sessionId", sessionId)
        w.int("laps", laps)
        w.string("reason", reason)
        w.int("timestamp", timestamp)
        return w.finish()
    }
}

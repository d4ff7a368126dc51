import GateCore
import GateDevices
import GateProtocol

/// The loop's side of a race: it hands the race source what happened and
/// shows, says and records what comes back. The race's logic is in
/// `RaceSource` and `RaceCoordinator`; this is dispatch only.
extension BoxLoop {
    /// What the loop asks of the race; `raceStep` hands it the race's link.
    enum RaceCall {
        case link, tick
        case crossing(LocalCrossing)
        case start(nanos: Int64, source: String)
        case ready(Bool, reason: String, gatePosition: Double, fps: Int)

        func run<L: PeerLink>(_ race: inout RaceSource, _ link: inout L, now: Int64, wallMillis: Int64) throws(GateError) -> [RaceEffect] {
            switch self {
            case .link: return try race.handleLink(&link, now: now, wallMillis: wallMillis)
            case .tick: return try race.tick(&link, now: now, wallMillis: wallMillis)
            case .crossing(let c): return try race.localCrossing(c, &link, now: now, wallMillis: wallMillis)
            case .start(let nanos, let source): return try race.localStart(atNanos: nanos, source: source, &link, now: now, wallMillis: wallMillis)
            case .ready(let ready, let reason, let position, let fps):
                return try race.gateReady(ready, reason: reason, gatePosition: position, fps: fps, &link, now: now, wallMillis: wallMillis)
            }
        }
    }

    /// Runs `call` over the race's link: the GATT station's BLE links in
    /// `run`, the platform's link (the simulated air) otherwise.
    mutating func raceStep(_ call: RaceCall) throws(GateError) {
        guard race != nil else { return }
        let now = platform.nowNanos
        let wall = platform.wallClockMillis
        if station != nil {
            try apply(call.run(&race!, &station!, now: now, wallMillis: wall))
            station!.wakeRace(atNanos: race!.nextDueNanos, now: platform.nowNanos)
        } else {
            try apply(call.run(&race!, &platform.link, now: now, wallMillis: wall))
        }
    }

    mutating func handleLink() throws(GateError) {
        guard race != nil else {
            // No race configured: drain the link, nothing listens.
            while try platform.link.nextEvent() != nil {}
            return
        }
        try raceStep(.link)
    }

    mutating func handleRaceTimer() throws(GateError) {
        try raceStep(.tick)
    }

    /// A crossing at this gate: recorded here at once (nothing recorded is
    /// lost, whatever becomes of the link), then handed to the race.
    mutating func raceCrossing(_ crossing: DetectedCrossing) throws(GateError) {
        guard session.state == .armed || session.state == .running else { return }
        let speed = crossing.velocityWidthsPerSecond.magnitude * configuration.viewWidthMetres
        let role = race!.coordinator.role?.wire ?? "gate"
        let record = CrossingRecord(
            sessionId: log.sessionId, runId: BoxLoop.runId(max(1, race!.coordinator.runNumber)), lap: 0, role: role,
            crossingTimeNanos: crossing.timeNanos, frameIndex: Int64(crossing.frameIndex),
            interpolationOffsetMs: crossing.interpolationOffsetMs, uncertaintyMs: crossing.uncertaintyMs,
            occupancyAtTrigger: crossing.occupancyAtTrigger, direction: crossing.direction,
            startTimeNanos: crossing.timeNanos, elapsedMs: 0, splitTimeMs: nil, totalUncertaintyMs: crossing.uncertaintyMs,
            speedMps: speed, droppedFrames: platform.camera.droppedFrames, stable: true,
            timestamp: platform.wallClockMillis, truthCrossingTimeNanos: platform.truthCrossing(nearNanos: crossing.timeNanos))
        try log.append(record.jsonLine())
        records.append(record)
        try platform.lights.show(.crossing, atNanos: platform.nowNanos)
        try platform.speaker.play(.single(.tone(.beep), voice: configuration.voice), atNanos: platform.nowNanos)
        say("crossing at the " + role + " gate: " + String(crossing.timeNanos) + " ns, +-"
            + DecimalText.fixed(crossing.uncertaintyMs, places: 2) + " ms, " + DecimalText.fixed(speed, places: 2) + " m/s")
        let local = LocalCrossing(timeNanos: crossing.timeNanos, frameIndex: Int64(crossing.frameIndex),
                                  interpolationOffsetMs: crossing.interpolationOffsetMs, uncertaintyMs: crossing.uncertaintyMs,
                                  occupancyAtTrigger: crossing.occupancyAtTrigger, speedMps: speed)
        try raceStep(.crossing(local))
    }

    /// The finish gate says each run's time where the athlete stops: "four
    /// point eight two", with "best run" when it beats the session's others.
    mutating func speakRaceTime(_ record: RaceRunRecord) throws(GateError) {
        guard race?.coordinator.role == .finish else { return }
        let best = raceRecords.count >= 2 && raceRecords.allSatisfy { $0.splitTimeMs >= record.splitTimeMs }
        let said = voice.raceTime(nanos: Int64((record.splitTimeMs * 1e6).rounded()), remark: best ? .bestRun : nil)
        if let program = said.program { try platform.speaker.play(program, atNanos: platform.nowNanos) }
        if let note = said.note { say(note) }
    }

    /// What the race asks the loop to do: record, say, show.
    mutating func apply(_ effects: [RaceEffect]) throws(GateError) {
        for effect in effects {
            switch effect {
            case .send:
                break   // the race source sends its own
            case .record(let record):
                let saved = raceTruth.map { $0(record) } ?? record
                let line = saved.jsonLine()
                try log.append(line)
                raceRecords.append(saved)
                coachFeed?.run(line)
                try speakRaceTime(saved)
            case .say(let text):
                say(text)
            case .indicate(let indication):
                switch indication {
                case .ready: try platform.lights.show(.armed, atNanos: platform.nowNanos)
                case .running: break
                case .runFinished: try platform.lights.show(.crossing, atNanos: platform.nowNanos)
                case .peerLost, .syncTooPoor: try platform.lights.show(.error, atNanos: platform.nowNanos)
                }
            }
        }
    }
}

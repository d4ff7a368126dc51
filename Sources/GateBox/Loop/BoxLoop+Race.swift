import GateCore
import GateDevices
import GateProtocol

/// The loop's side of a race: it hands the race source what happened and
/// shows, says and records what comes back. The race's logic is in
/// `RaceSource` and `RaceCoordinator`; this is dispatch only.
extension BoxLoop {
    mutating func handleLink() throws(GateError) {
        guard race != nil else {
            // No race configured: drain the link, nothing listens.
            while try platform.link.nextEvent() != nil {}
            return
        }
        try apply(race!.handleLink(&platform.link, now: platform.nowNanos, wallMillis: platform.wallClockMillis))
    }

    mutating func handleRaceTimer() throws(GateError) {
        guard race != nil else { return }
        try apply(race!.tick(&platform.link, now: platform.nowNanos, wallMillis: platform.wallClockMillis))
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
        try platform.speaker.play(.beep, atNanos: platform.nowNanos)
        say("crossing at the " + role + " gate: " + String(crossing.timeNanos) + " ns, +-"
            + DecimalText.fixed(crossing.uncertaintyMs, places: 2) + " ms, " + DecimalText.fixed(speed, places: 2) + " m/s")
        let local = LocalCrossing(timeNanos: crossing.timeNanos, frameIndex: Int64(crossing.frameIndex),
                                  interpolationOffsetMs: crossing.interpolationOffsetMs, uncertaintyMs: crossing.uncertaintyMs,
                                  occupancyAtTrigger: crossing.occupancyAtTrigger, speedMps: speed)
        try apply(race!.localCrossing(local, &platform.link, now: platform.nowNanos, wallMillis: platform.wallClockMillis))
    }

    /// What the race asks the loop to do: record, say, show.
    mutating func apply(_ effects: [RaceEffect]) throws(GateError) {
        for effect in effects {
            switch effect {
            case .send:
                break   // the race source sends its own
            case .record(let record):
                let saved = raceTruth.map { $0(record) } ?? record
                try log.append(saved.jsonLine())
                raceRecords.append(saved)
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

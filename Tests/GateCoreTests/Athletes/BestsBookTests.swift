import Testing
@testable import GateCore

@Suite struct BestsBookTests {
    static let key = "touchRelease_36.58m"

    @Test func keysAreStartTypeAndMetresAsPresetsShowThem() {
        #expect(BestsBook.key(startType: "touchRelease", metres: 40 * Preset.metresPerYard) == "touchRelease_36.58m")
        #expect(BestsBook.key(startType: "flying", metres: 30) == "flying_30m")
        #expect(BestsBook.key(startType: "countdown", metres: 100) == "countdown_100m")
    }

    @Test func theFirstRunIsABestAndLaterOnesOnlyWhenFaster() {
        var book = BestsBook()
        let first = book.record(athleteId: "a", key: Self.key, ms: 5200, timestamp: 1)
        #expect(first.personalBest && first.seasonBest && first.previousBestMs == nil && first.improvementMs == nil)
        let slower = book.record(athleteId: "a", key: Self.key, ms: 5300, timestamp: 2)
        #expect(!slower.personalBest && !slower.seasonBest && slower.previousBestMs == nil)
        let faster = book.record(athleteId: "a", key: Self.key, ms: 5050, timestamp: 3)
        #expect(faster.personalBest && faster.seasonBest)
        #expect(faster.previousBestMs == 5200 && faster.improvementMs == 150)
        let equal = book.record(athleteId: "a", key: Self.key, ms: 5050, timestamp: 4)
        #expect(!equal.personalBest, "equalling a best is not a new one")
        // Another athlete and another test keep their own.
        #expect(book.record(athleteId: "b", key: Self.key, ms: 6000, timestamp: 5).personalBest)
        #expect(book.record(athleteId: "a", key: "countdown_30m", ms: 9000, timestamp: 6).personalBest)
        #expect(book.entry(athleteId: "a", key: Self.key)?.runs.map(\.ms) == [5200, 5300, 5050, 5050])
        #expect(book.keys(athleteId: "a") == ["countdown_30m", Self.key])
    }

    @Test func aNewSeasonStartsSeasonBestsAfreshAndKeepsPersonalBests() {
        var book = BestsBook(seasonStartMillis: 100)
        _ = book.record(athleteId: "a", key: Self.key, ms: 5000, timestamp: 10)   // last season
        let firstOfSeason = book.record(athleteId: "a", key: Self.key, ms: 5400, timestamp: 200)
        #expect(!firstOfSeason.personalBest && firstOfSeason.seasonBest && firstOfSeason.previousBestMs == nil)
        let better = book.record(athleteId: "a", key: Self.key, ms: 5250, timestamp: 300)
        #expect(!better.personalBest && better.seasonBest)
        #expect(better.previousBestMs == 5400 && better.improvementMs == 150, "a season best's previous is the season's")
        let pb = book.record(athleteId: "a", key: Self.key, ms: 4900, timestamp: 400)
        #expect(pb.personalBest && pb.seasonBest && pb.previousBestMs == 5000 && pb.improvementMs == 100)
        let entry = book.entry(athleteId: "a", key: Self.key)
        #expect(entry?.personalMs == 4900 && entry?.seasonMs == 4900)
    }

    func header(_ startType: String, metres: Double?) -> ResultsReader.Record {
        var h = SessionRecord(sessionId: "s", deviceId: "d", mode: "solo", startType: startType, detection: "photo-finish", fps: 120,
                              width: 320, height: 240, gatePosition: 0.5, viewWidthMetres: 4, timestamp: 0, simulated: true, seed: 1)
        h.distanceMetres = metres
        h.preset = metres == nil ? nil : "40yd"
        return .session(h)
    }

    func run(_ athlete: String?, ms: Double, lap: Int = 1, timestamp: Int64, stable: Bool = true, falseStart: Bool = false) -> ResultsReader.Record {
        var c = CrossingRecord(sessionId: "s", runId: "run-001", lap: lap, role: "solo", crossingTimeNanos: 0, frameIndex: 0,
                               interpolationOffsetMs: 0, uncertaintyMs: 0.4, occupancyAtTrigger: 0.5, direction: .leftToRight,
                               startTimeNanos: 0, elapsedMs: ms, splitTimeMs: ms, totalUncertaintyMs: 0.4, speedMps: 8,
                               droppedFrames: 0, stable: stable, timestamp: timestamp, truthCrossingTimeNanos: nil)
        c.athleteId = athlete
        c.falseStart = falseStart
        return .crossing(c)
    }

    @Test func theResultsAreTheSourceAndOnlyCleanTimedRunsCount() {
        let metres = 40 * Preset.metresPerYard
        let sessions: [[ResultsReader.Record]] = [
            // Read out of order on purpose: the book sorts by time.
            [header("touchRelease", metres: metres), run("a", ms: 5100, timestamp: 30)],
            [header("touchRelease", metres: metres), run("a", ms: 5300, timestamp: 10),
             run("a", ms: 4000, timestamp: 11, stable: false),      // the tripod moved
             run("a", ms: 4100, timestamp: 12, falseStart: true),   // went early
             run(nil, ms: 3000, timestamp: 13),                     // nobody picked
             run("b", ms: 6000, timestamp: 14)],
            [header("flying", metres: 30), run("a", ms: 3000, lap: 1, timestamp: 20)],      // flying laps: no start event
            [header("countdown", metres: nil), run("a", ms: 3000, timestamp: 21)],          // no preset's distance
        ]
        let book = BestsBook.from(sessions: sessions, seasonStartMillis: nil)
        #expect(book.keys(athleteId: "a") == [Self.key])
        let entry = book.entry(athleteId: "a", key: Self.key)
        #expect(entry?.runs.map(\.ms) == [5300, 5100] && entry?.personalMs == 5100)
        #expect(book.entry(athleteId: "b", key: Self.key)?.personalMs == 6000)
        #expect(BestsBook.countedRun({ if case .crossing(let c) = run("a", ms: 1, lap: 0, timestamp: 0) { return c }; fatalError() }()) == nil)
    }
}

@Suite struct AthleteRecordFieldsTests {
    @Test func aCrossingCarriesItsAthleteAndBestsAndReadsBack() throws {
        var c = CrossingRecord(sessionId: "session-0001", runId: "run-002", lap: 1, role: "solo", crossingTimeNanos: 9_000_000_000,
                               frameIndex: 1080, interpolationOffsetMs: 0.1, uncertaintyMs: 0.4, occupancyAtTrigger: 0.5,
                               direction: .leftToRight, startTimeNanos: 4_000_000_000, elapsedMs: 5000, splitTimeMs: 5000,
                               totalUncertaintyMs: 0.4, speedMps: 8, droppedFrames: 0, stable: true, timestamp: 1, truthCrossingTimeNanos: nil)
        c.athleteId = "athlete-0002"
        c.athlete = "Ben \"the Bolt\" Swift"
        c.athleteColour = "orange"
        var best = BestsBook.Outcome()
        best.personalBest = true
        best.seasonBest = true
        best.previousBestMs = 5120.5
        best.improvementMs = 120.5
        c.best = best
        let line = c.jsonLine()
        #expect(line.contains("\"athleteId\":\"athlete-0002\",\"athlete\":\"Ben \\\"the Bolt\\\" Swift\",\"athleteColour\":\"orange\""))
        #expect(line.contains("\"pb\":true,\"sb\":true,\"previousBestMs\":5120.500,\"improvementMs\":120.500"))
        guard case .crossing(let back)? = ResultsReader.parse(line + "\n").records.first else { Issue.record("not read back"); return }
        #expect(back == c)
    }

    @Test func aCrossingWrittenBeforeAthletesStillReads() {
        let old = "{\"type\":\"crossing\",\"sessionId\":\"session-0001\",\"runId\":\"run-001\",\"lap\":1,\"role\":\"solo\",\"crossingTimeNanos\":7682346264,\"frameIndex\":922,\"interpolationOffsetMs\":-1.487,\"uncertaintyMs\":0.370,\"occupancyAtTrigger\":0.575,\"direction\":\"ltr\",\"startTimeNanos\":3172406387,\"finishTimeNanos\":7682346264,\"elapsedMs\":4509.940,\"splitTimeMs\":4509.940,\"totalUncertaintyMs\":0.370,\"speedMps\":10.138,\"droppedFrames\":0,\"stable\":true,\"timestamp\":1767225607842}\n"
        let parsed = ResultsReader.parse(old)
        #expect(parsed.warnings.isEmpty)
        guard case .crossing(let c)? = parsed.records.first else { Issue.record("not read"); return }
        #expect(c.athleteId == nil && c.athlete == nil && c.athleteColour == nil && c.best == nil)
        #expect(!c.jsonLine().contains("athlete") && !c.jsonLine().contains("\"pb\""))
    }
}

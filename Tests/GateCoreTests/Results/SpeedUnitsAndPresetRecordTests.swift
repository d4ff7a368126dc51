import Testing
@testable import GateCore

@Suite struct SpeedUnitTests {
    @Test func conversions() {
        let v = Speed(metresPerSecond: 10)
        #expect(SpeedUnit.metresPerSecond.value(v) == 10)
        #expect((SpeedUnit.kilometresPerHour.value(v) - 36).magnitude < 1e-12)
        #expect((SpeedUnit.milesPerHour.value(v) - 22.369362920544).magnitude < 1e-9)
        #expect((SpeedUnit.knots.value(v) - 19.438444924406).magnitude < 1e-9)
        #expect(SpeedUnit.knots.text(v) == "19.4 kn" && SpeedUnit.metresPerSecond.text(v) == "10.00 m/s")
    }

    @Test func listsParseAndRefuse() {
        #expect(SpeedUnit.list("m/s") == [.metresPerSecond])
        #expect(SpeedUnit.list(" knots , kmh,km/h") == [.knots, .kilometresPerHour])
        #expect(SpeedUnit.list("mph, furlongs") == nil && SpeedUnit.list(",") == nil)
    }
}

@Suite struct PresetRecordTests {
    func session() -> SessionRecord {
        SessionRecord(sessionId: "session-0001", deviceId: "d", mode: "solo", startType: "touchRelease", detection: "photo-finish",
                      fps: 120, width: 640, height: 480, gatePosition: 0.5, viewWidthMetres: 4, timestamp: 1, simulated: false, seed: nil)
    }

    @Test func thePresetAndItsDistanceRoundTrip() throws {
        var s = session()
        s.preset = "40yd"
        s.distanceMetres = 36.576
        let line = s.jsonLine()
        #expect(line.contains("\"preset\":\"40yd\",\"distanceM\":36.576"))
        guard case .session(let back) = try ResultsReader.record(from: line) else { Issue.record("not a session"); return }
        #expect(back == s)
    }

    @Test func filesWrittenBeforePresetsStillRead() throws {
        let old = session().jsonLine()
        #expect(!old.contains("preset"))
        guard case .session(let back) = try ResultsReader.record(from: old) else { Issue.record("not a session"); return }
        #expect(back.preset == nil && back.distanceMetres == nil)
    }

    @Test func theTableNamesThePresetAndShowsTheUnitsAsked() {
        var s = session()
        s.preset = "40yd"
        s.distanceMetres = 36.576
        let r = CrossingRecord(sessionId: "session-0001", runId: "run-001", lap: 1, role: "solo", crossingTimeNanos: 5_000_000_000,
                               frameIndex: 1, interpolationOffsetMs: 0, uncertaintyMs: 1, occupancyAtTrigger: 0.5, direction: .leftToRight,
                               startTimeNanos: 0, elapsedMs: 5000, splitTimeMs: 5000, totalUncertaintyMs: 1, speedMps: 10,
                               droppedFrames: 0, stable: true, timestamp: 1, truthCrossingTimeNanos: nil)
        let table = ResultsTable.render(session: s, crossings: [r], ended: nil, units: [.knots])
        #expect(table.contains("preset 40yd: 40 Yard Dash, 40 yd (36.58 m)\n"))
        #expect(table.contains("     kn   ±ms") && table.contains("   19.4") && !table.contains("m/s"))
        #expect(ResultsTable.liveLine(r, runs: true, units: [.kilometresPerHour, .knots]).hasSuffix("5.000 s  36.0 km/h 19.4 kn"))
        #expect(ResultsTable.liveLine(r, runs: true).hasSuffix("5.000 s  10.00 m/s 36.0 km/h 22.4 mph"), "the standard units as before")
    }
}

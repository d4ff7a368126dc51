import Foundation
import Testing
@testable import GateCore

@Suite struct ResultRecordsTests {
    static var session: SessionRecord { SessionRecord(sessionId: "session-0001", deviceId: "ts-gate-sim", mode: "solo", startType: "flying",
                                       detection: "photo-finish", fps: 120, width: 320, height: 240, gatePosition: 0.5,
                                       viewWidthMetres: 4, timestamp: 1_767_225_600_000, simulated: true, seed: 7) }

    static func crossing(lap: Int, split: Double?) -> CrossingRecord {
        CrossingRecord(sessionId: "session-0001", runId: "run-00\(lap)", lap: lap, role: "solo",
                       crossingTimeNanos: 4_684_000_000 + Int64(lap) * 3_000_000_000, frameIndex: 560 + Int64(lap) * 360,
                       interpolationOffsetMs: -2.125, uncertaintyMs: 0.4, occupancyAtTrigger: 0.61, direction: .leftToRight,
                       startTimeNanos: 4_684_000_000, elapsedMs: Double(lap) * 3000, splitTimeMs: split,
                       totalUncertaintyMs: 0.566, speedMps: 10.36, droppedFrames: 0, stable: lap != 2,
                       timestamp: 1_767_225_604_684, truthCrossingTimeNanos: 4_683_061_000 + Int64(lap) * 3_000_000_000)
    }

    @Test func crossingLinesUseTheProtocolsFieldNames() {
        let line = Self.crossing(lap: 1, split: 3000).jsonLine()
        for field in ["\"crossingTimeNanos\":7684000000", "\"frameIndex\":920", "\"interpolationOffsetMs\":-2.125",
                      "\"uncertaintyMs\":0.400", "\"runId\":\"run-001\"", "\"splitTimeMs\":3000.000",
                      "\"startTimeNanos\":4684000000", "\"finishTimeNanos\":7684000000", "\"totalUncertaintyMs\":0.566",
                      "\"occupancyAtTrigger\":0.610", "\"detectionErrorMs\":0.939"] {
            #expect(line.contains(field), "\(field) in \(line)")
        }
        #expect(!line.contains("\n"))
    }

    @Test func everyRecordReadsBackAsWritten() {
        let end = SessionEndRecord(sessionId: "session-0001", laps: 2, reason: "completed", timestamp: 1_767_225_620_000)
        let text = [Self.session.jsonLine(), Self.crossing(lap: 0, split: nil).jsonLine(),
                    Self.crossing(lap: 1, split: 3000).jsonLine(), end.jsonLine()].joined(separator: "\n") + "\n"
        let parsed = ResultsReader.parse(text)
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.records == [.session(Self.session), .crossing(Self.crossing(lap: 0, split: nil)),
                                   .crossing(Self.crossing(lap: 1, split: 3000)), .end(end)])
    }

    @Test func aStartRecordReadsBackAndTheTableCountsRuns() {
        let start = StartRecord(sessionId: "session-0001", runId: "run-002", startType: "touchRelease",
                                startTimeNanos: 1_684_000_123, source: "gpio-edge", timestamp: 1_767_225_601_684)
        #expect(start.jsonLine() == #"{"type":"start","sessionId":"session-0001","runId":"run-002","startType":"touchRelease","startTimeNanos":1684000123,"source":"gpio-edge","timestamp":1767225601684}"#)
        let parsed = ResultsReader.parse(start.jsonLine() + "\n")
        #expect(parsed.records == [.start(start)] && parsed.warnings.isEmpty)

        var session = Self.session
        session.startType = "touchRelease"
        var run = Self.crossing(lap: 1, split: 3000)
        run.runId = "run-002"
        #expect(run.runNumber == 2)
        let table = ResultsTable.render(session: session, crossings: [run], ended: nil)
        #expect(table.contains("solo runs, touchRelease start"))
        #expect(table.contains("  run    time s"))
        #expect(table.contains("best run: 2 in 3.000 s"))
        #expect(ResultsTable.liveLine(run, runs: true).hasPrefix("run 2     3.000 s  10.36 m/s"))
    }

    @Test func aTornLastLineIsReportedAndEverythingBeforeItKept() {
        let full = Self.crossing(lap: 1, split: 3000).jsonLine()
        let text = Self.session.jsonLine() + "\n" + Self.crossing(lap: 0, split: nil).jsonLine() + "\n" + full.prefix(57)
        let parsed = ResultsReader.parse(text)
        #expect(parsed.records.count == 2)
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.hasPrefix("line 3: torn last line (57 bytes") == true)
    }

    @Test func aDamagedLineInTheMiddleIsNamedAndSkipped() {
        let text = Self.session.jsonLine() + "\n{\"type\":\"crossing\",\"lap\":\"x\"}\n"
            + "{\"type\":\"penalty\"}\n" + Self.crossing(lap: 0, split: nil).jsonLine() + "\n"
        let parsed = ResultsReader.parse(text)
        #expect(parsed.records.count == 2)
        #expect(parsed.warnings == [
            "line 2: field \"direction\" is missing (expected a string); line skipped",
            "line 3: unknown record type \"penalty\" (expected session, start, reaction, crossing, race_run, session_note or session_end); line skipped",
        ])
    }

    @Test func aNewerFormatIsRefusedByName() {
        let text = Self.session.jsonLine().replacingOccurrences(of: "\"format\":1", with: "\"format\":2") + "\n"
        let parsed = ResultsReader.parse(text)
        #expect(parsed.records.isEmpty)
        #expect(parsed.warnings.first?.contains("results format 2 is not supported") == true)
    }

    @Test func tableAndCSVShowTheLaps() {
        let crossings = [Self.crossing(lap: 0, split: nil), Self.crossing(lap: 1, split: 3000), Self.crossing(lap: 2, split: 2900)]
        let table = ResultsTable.render(session: Self.session, crossings: crossings, ended: nil)
        #expect(table.contains("session-0001: simulated solo laps, flying start, photo-finish, 120 fps, seed 7"))
        #expect(table.contains("start     0.000        -  10.36   37.3   23.2  0.57    +0.939"))
        #expect(table.contains("    2     6.000    2.900"))
        #expect(table.contains("tripod moved"))
        #expect(table.contains("best lap: 2 in 2.900 s"))
        #expect(table.contains("no end record"))
        let row = ResultsTable.csvRow(crossings[1])
        #expect(row == "session-0001,1,run-001,7684000000,3.000000,3.000000,10.360,37.30,23.17,0.566,ltr,true,0.939,,,,,")
        #expect(ResultsTable.csvHeader.split(separator: ",").count == row.split(separator: ",", omittingEmptySubsequences: false).count)
    }

    @Test func aRaceBoxShowsItsGateAndItsRunsInTableAndCSV() {
        var session = Self.session
        session.mode = "race"
        var crossing = Self.crossing(lap: 0, split: nil)
        crossing.role = "finish"
        let table = ResultsTable.render(session: session, crossings: [crossing], ended: nil)
        #expect(table.contains("session-0001: simulated race (finish gate), flying start"), "\(table)")
        #expect(table.contains("   gate    time s"))
        #expect(table.contains(" finish     4.684"))
        let run = RaceRunLine(runId: "run-002", runNumber: 2, gates: 3, splitTimeMs: 4000, totalUncertaintyMs: 1.25, syncMs: 0.9,
                              distanceMetres: 40,
                              segments: [.init(toGate: 1, splitMs: 2100, cumulativeMs: 2100, speedMps: 9.524),
                                         .init(toGate: 2, splitMs: 1900, cumulativeMs: 4000, speedMps: 10.526)],
                              splitErrorMs: -0.125, finishTimeNanos: 81_000_000_123, syncErrorMs: 0.05)
        let row = ResultsTable.csvRow(run, sessionId: "session-0001")
        #expect(row == "session-0001,race,run-002,81000000123,4.000000,4.000000,10.000,36.00,22.37,1.250,,,-0.125,"
                + "2.100000;1.900000,9.524;10.526,2.100000;4.000000,0.900,0.050")
        #expect(ResultsTable.csvHeader.split(separator: ",").count == row.split(separator: ",", omittingEmptySubsequences: false).count)
    }
}

import Testing
import GateCore
@testable import GateBox

@Suite struct HistoryArgumentTests {
    @Test func everyHistoryOptionOnResults() throws {
        let command = try ArgumentParser.parse(["results", "--from", "2026-11-01", "--to=2026-11-30", "--distance", "40yd",
                                                "--start", "touch-release", "--athlete", "Ana", "--preset", "flying-30m",
                                                "--boxes", "2", "--sort", "most-runs", "--search", "wet track"])
        guard case .results(let r) = command else { Issue.record("not results: \(command)"); return }
        let q = r.query
        #expect(q.from == CalendarDate(year: 2026, month: 11, day: 1) && q.to == CalendarDate(year: 2026, month: 11, day: 30))
        #expect((q.distanceMetres! - 36.576).magnitude < 1e-9 && q.startType == .touchRelease)
        #expect(q.athlete == "Ana" && q.preset == "flying-30m" && q.boxes == 2 && q.sort == .mostRuns && q.search == "wet track")
        guard case .results(let plain) = try ArgumentParser.parse(["results", "--distance", "30m"]) else { Issue.record("not results"); return }
        #expect(plain.query.distanceMetres == 30 && plain.query.sort == nil)
    }

    @Test func sessionNameAndNote() throws {
        #expect(try ArgumentParser.parse(["session", "name", "session-0003", "Tuesday flying 30s", "--data-dir", "d"])
                == .session({ var o = SessionNoteOptions(field: .name, session: "session-0003", text: "Tuesday flying 30s"); o.dataDirectory = "d"; return o }()))
        #expect(try ArgumentParser.parse(["session", "note", "session-0003", ""]) == .session(SessionNoteOptions(field: .note, session: "session-0003", text: "")))
        #expect(try ArgumentParser.parse(["session", "note", "session-0003", "-2 C, wet"])
                == .session(SessionNoteOptions(field: .note, session: "session-0003", text: "-2 C, wet")), "a note may start with a minus")
    }

    @Test func exports() throws {
        guard case .export(let csv) = try ArgumentParser.parse(["export", "csv", "--athlete", "bo", "--session", "session-0002", "--output", "x.csv"])
        else { Issue.record("not export"); return }
        #expect(csv.format == .csv && csv.query.athlete == "bo" && csv.session == "session-0002" && csv.output == "x.csv")
        guard case .export(let html) = try ArgumentParser.parse(["export", "html", "session-0004", "--units", "km/h,kn", "-o", "r.html"])
        else { Issue.record("not export"); return }
        #expect(html.format == .html && html.session == "session-0004" && html.speedUnits == [.kilometresPerHour, .knots] && html.output == "r.html")
    }

    @Test(arguments: [
        (["results", "--from", "2026-02-30"], "--from expects a day as YYYY-MM-DD (UTC), such as 2026-11-01, got '2026-02-30'"),
        (["results", "--to", "yesterday"], "--to expects a day as YYYY-MM-DD (UTC), such as 2026-11-01, got 'yesterday'"),
        (["results", "--from", "2026-11-05", "--to", "2026-11-01"], "--to 2026-11-01 is before --from 2026-11-05: expected --from on or before --to"),
        (["results", "--distance", "far"], "--distance expects a distance in metres from 1 to 1000, or yards with yd: 30, 30m, 40yd, got 'far'"),
        (["results", "--distance", "0"], "--distance expects a distance in metres from 1 to 1000, or yards with yd: 30, 30m, 40yd, got '0'"),
        (["results", "--start", "blocks"], "--start expects flying, touch-release, countdown, voice or in-frame, got 'blocks'"),
        (["results", "--preset", "50m"], "--preset: no preset '50m'; expected one of 10m, 20m, 30m, 60m, 100m, practice, flying-10m, flying-30m, flying, takeoff-velocity, 5-10-5, l-drill, 40yd (ts-gate presets lists them)"),
        (["results", "--boxes", "5"], "--boxes expects 1 (a box alone) or 2 to 4 (races of that many boxes), got '5'"),
        (["results", "--sort", "best"], "--sort expects newest, oldest, fastest or most-runs, got 'best'"),
        (["results", "--search", ""], "--search expects text to find in session names, notes and athletes' names, got nothing"),
        (["results", "--athlete"], "--athlete needs a value: an athlete's name, first name or id, any case"),
        (["session", "rename", "session-0001", "x"], "session: unknown 'rename'; expected session name SESSION-ID \"TEXT\" or session note SESSION-ID \"TEXT\" (\"\" clears it)"),
        (["session", "name", "session-0001"], "session name takes a session id and one text (quote it), got 1 arguments: session name SESSION-ID \"TEXT\" or session note SESSION-ID \"TEXT\" (\"\" clears it)"),
        (["session", "note", "session-0001", "wet", "track"], "session note takes a session id and one text (quote it), got 3 arguments: session name SESSION-ID \"TEXT\" or session note SESSION-ID \"TEXT\" (\"\" clears it)"),
        (["export"], "export needs a format: csv (every run of the sessions chosen) or html (one session's report)"),
        (["export", "pdf"], "export: unknown format 'pdf' (formats: csv, html)"),
        (["export", "html"], "export html needs a session id, such as session-0001 (ts-gate results lists them)"),
        (["export", "html", "session-0001", "--athlete", "x"], "unknown option '--athlete' (accepted here: SESSION-ID, --data-dir, --units, --output)"),
        (["export", "csv", "--units", "mph"], "unknown option '--units' (accepted here: --data-dir, --session, --output, --from, --to, --distance, --start, --athlete, --preset, --boxes, --sort, --search)"),
    ])
    func badValuesSayWhatIsAccepted(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments) }
    }
}

import Testing
@testable import GateCore

@Suite struct RunAthleteReaderTests {
    @Test func athleteFieldsAreReadFromCrossingsAndRaceRuns() throws {
        let line = HistoryFixtures.crossing("s", run: 1, lap: 1, splitMs: 4100, athlete: "Ana Silva", colour: "red", athleteId: "a1", pb: true, sb: true)
        guard case .crossing(let c) = try ResultsReader.record(from: line) else { Issue.record("not a crossing"); return }
        var expected = RunAthlete(name: "Ana Silva", colour: "red", id: "a1")
        expected.personalBest = true
        expected.seasonBest = true
        expected.previousBestMs = 4200
        expected.improvementMs = 120
        #expect(c.runAthlete == expected)
        guard case .raceRun(let r) = try ResultsReader.record(from: HistoryFixtures.raceRun(run: 1, gates: 2, splitMs: 3300, athlete: "Bo"))
        else { Issue.record("not a race run"); return }
        #expect(r.runAthlete == RunAthlete(name: "Bo"))
    }

    @Test func linesWithoutAthletesReadAsBefore() throws {
        guard case .crossing(let c) = try ResultsReader.record(from: HistoryFixtures.crossing("s", run: 1, lap: 1, splitMs: 4100))
        else { Issue.record("not a crossing"); return }
        #expect(c.runAthlete == nil)
    }

    @Test func aNumericIdIsKeptAsTextAndAWrongBestIsNamed() throws {
        let numeric = HistoryFixtures.crossing("s", run: 1, lap: 1, splitMs: 4100, athlete: "Ana").replacingOccurrences(of: #""athleteId":"a1""#, with: #""athleteId":17"#)
        guard case .crossing(let c) = try ResultsReader.record(from: numeric) else { Issue.record("not a crossing"); return }
        #expect(c.runAthlete?.id == "17")
        let wrong = HistoryFixtures.crossing("s", run: 1, lap: 1, splitMs: 4100, athlete: "Ana").replacingOccurrences(of: "}", with: #","pb":"yes"}"#)
        #expect(throws: ResultsReader.ResultsLineError.self) { try ResultsReader.record(from: wrong) }
        #expect(ResultsReader.parse(wrong + "\n").warnings == [#"line 1: field "pb": expected true, false or null; line skipped"#])
    }

    @Test func theTableNamesTheAthleteAndTheirBests() {
        let s = HistoryFixtures.sessions[0]
        let table = ResultsTable.render(s)
        #expect(table.contains("  Ana Silva PB -0.120 s\n"))
        #expect(table.contains("  Bo Lind\n"))
        #expect(ResultsTable.render(HistoryFixtures.sessions[2]).contains("  Bo Lind\n"), "race runs too")
    }
}

@Suite struct SessionNoteTests {
    static let header = HistoryFixtures.session("session-0001", timestamp: HistoryFixtures.november1)

    static func note(name: String? = nil, note: String? = nil) -> String {
        SessionNoteRecord(sessionId: "session-0001", name: name, note: note, timestamp: 1).jsonLine()
    }

    @Test func theLastNameAndNoteWinAndEmptyClears() {
        let text = [Self.header, Self.note(name: "first"), Self.note(note: "wet"), Self.note(name: "Tuesday flying 30s"),
                    Self.note(note: "")].joined(separator: "\n") + "\n"
        let s = RecordedSession(id: "session-0001", text: text)
        #expect(s.warnings.isEmpty)
        #expect(s.name == "Tuesday flying 30s")
        #expect(s.note == nil)
    }

    @Test func aNoteRoundTripsWithQuotesAndLineBreaks() throws {
        let line = Self.note(name: "A \"quoted\", name", note: "line one\nline two")
        #expect(line == #"{"type":"session_note","sessionId":"session-0001","name":"A \"quoted\", name","note":"line one\nline two","timestamp":1}"#)
        guard case .note(let back) = try ResultsReader.record(from: line) else { Issue.record("not a note"); return }
        #expect(back.name == "A \"quoted\", name" && back.note == "line one\nline two")
    }

    @Test func aTornLastNoteIsSkippedAndTheOneBeforeKept() {
        let torn = String(Self.note(name: "never finished").dropLast(9))
        let s = RecordedSession(id: "session-0001", text: Self.header + "\n" + Self.note(name: "kept") + "\n" + torn)
        #expect(s.name == "kept")
        #expect(s.warnings.count == 1 && s.warnings[0].hasPrefix("line 3: torn last line"))
    }

    @Test func aNoteAfterATornBoxLineIsRead() {
        // What `session name` leaves after a power cut tore the box's last line: the torn line ended, the note after it.
        let torn = String(HistoryFixtures.crossing("session-0001", run: 1, lap: 1, splitMs: 4000).prefix(60))
        let s = RecordedSession(id: "session-0001", text: Self.header + "\n" + torn + "\n" + Self.note(name: "after the cut") + "\n")
        #expect(s.name == "after the cut")
        #expect(s.warnings.count == 1 && s.warnings[0].hasPrefix("line 2: not a JSON object"))
    }

    @Test func aNoteWithNeitherFieldIsRefused() {
        let parsed = ResultsReader.parse(#"{"type":"session_note","sessionId":"s","timestamp":1}"# + "\n")
        #expect(parsed.records.isEmpty && parsed.warnings == [#"line 1: a session_note line needs "name" or "note"; line skipped"#])
    }

    @Test func theTableShowsTheNameNoteAndDate() {
        let text = [Self.header, Self.note(name: "Tuesday flying 30s", note: "wet track\nhead wind")].joined(separator: "\n") + "\n"
        let table = ResultsTable.render(RecordedSession(id: "session-0001", text: text))
        #expect(table.hasPrefix("session-0001: solo laps, flying start, photo-finish, 120 fps\nname: Tuesday flying 30s\nnote: wet track\n      head wind\nrecorded 2026-11-01 00:00 UTC\n"))
    }
}

@Suite struct HistoryFilterTests {
    func ids(_ configure: (inout HistoryQuery) -> Void) -> [String] {
        var query = HistoryQuery()
        configure(&query)
        return HistoryFixtures.ids(query.apply(HistoryFixtures.sessions))
    }

    @Test func noFilterKeepsEverySessionInTheOrderFound() {
        #expect(ids { _ in } == ["session-0001", "session-0002", "session-0003", "session-0004", "session-0005"])
    }

    @Test func byDateBothDaysIncluded() {
        #expect(ids { $0.from = CalendarDate(year: 2026, month: 11, day: 1) } == ["session-0001", "session-0002", "session-0003", "session-0004"])
        #expect(ids { $0.to = CalendarDate(year: 2026, month: 11, day: 3) } == ["session-0001", "session-0002", "session-0005"])
        #expect(ids { $0.from = CalendarDate(year: 2026, month: 11, day: 3); $0.to = CalendarDate(year: 2026, month: 11, day: 6) }
                == ["session-0002", "session-0003"])
        #expect(ids { $0.from = CalendarDate(year: 2026, month: 10, day: 31); $0.to = CalendarDate(year: 2026, month: 10, day: 31) } == ["session-0005"])
    }

    @Test func byDistanceInMetresOrYards() {
        #expect(ids { $0.distanceMetres = 36.576 } == ["session-0002"])
        #expect(ids { $0.distanceMetres = 30 } == ["session-0003"], "the 2-box race's 30 m runs")
        #expect(ids { $0.distanceMetres = 60 } == ["session-0004"])
        #expect(ids { $0.distanceMetres = 100 } == [])
    }

    @Test func byStartType() {
        #expect(ids { $0.startType = .touchRelease } == ["session-0002"])
        #expect(ids { $0.startType = .flying } == ["session-0001", "session-0003", "session-0004", "session-0005"])
        #expect(ids { $0.startType = .voice } == [])
    }

    @Test func byAthleteNarrowsTheRuns() {
        let query = { (name: String) -> [RecordedSession] in
            var q = HistoryQuery()
            q.athlete = name
            return q.apply(HistoryFixtures.sessions)
        }
        let ana = query("ana")
        #expect(HistoryFixtures.ids(ana) == ["session-0001", "session-0003"], "first name, any case")
        #expect(ana[0].crossings.count == 1 && ana[0].crossings[0].runAthlete?.name == "Ana Silva")
        #expect(ana[1].raceRuns.map { $0.runNumber } == [1])
        #expect(HistoryFixtures.ids(query("BO LIND")) == ["session-0001", "session-0002", "session-0003", "session-0004"])
        #expect(HistoryFixtures.ids(query("a3")) == ["session-0002"], "by id")
        #expect(HistoryFixtures.ids(query("anaïs")) == ["session-0002"], "non-ASCII case")
        #expect(HistoryFixtures.ids(query("An")) == [], "a name is not a substring search")
    }

    @Test func byPreset() {
        #expect(ids { $0.preset = "40yd" } == ["session-0002"])
        #expect(ids { $0.preset = "flying-30m" } == [])
    }

    @Test func byBoxesSoloOrRacesOfThatSize() {
        #expect(ids { $0.boxes = 1 } == ["session-0001", "session-0002", "session-0005"])
        #expect(ids { $0.boxes = 2 } == ["session-0003"])
        #expect(ids { $0.boxes = 3 } == ["session-0004"])
        #expect(ids { $0.boxes = 4 } == [])
    }

    @Test func searchLooksInNamesNotesAndAthletesAnyCase() {
        #expect(ids { $0.search = "TUESDAY" } == ["session-0001"], "session name")
        #expect(ids { $0.search = "head wind" } == ["session-0002"], "note")
        #expect(ids { $0.search = "lind" } == ["session-0001", "session-0002", "session-0003", "session-0004"], "athletes")
        #expect(ids { $0.search = "AnaÏs" } == ["session-0002"])
        #expect(ids { $0.search = "sprint" } == [])
    }

    @Test func filtersCombine() {
        #expect(ids { $0.athlete = "bo"; $0.boxes = 1; $0.search = "wet" } == ["session-0002"])
    }
}

@Suite struct HistorySortTests {
    func ids(_ sort: HistorySort, athlete: String? = nil) -> [String] {
        var query = HistoryQuery()
        query.sort = sort
        query.athlete = athlete
        return HistoryFixtures.ids(query.apply(HistoryFixtures.sessions))
    }

    @Test func newestAndOldest() {
        #expect(ids(.newest) == ["session-0004", "session-0003", "session-0002", "session-0001", "session-0005"])
        #expect(ids(.oldest) == ["session-0005", "session-0001", "session-0002", "session-0003", "session-0004"])
    }

    @Test func newestPutsTheLaterRecordedFirstWhenTheyBeganTogether() {
        let a = RecordedSession(id: "session-0001", text: HistoryFixtures.session("session-0001", timestamp: 5) + "\n")
        let b = RecordedSession(id: "session-0002", text: HistoryFixtures.session("session-0002", timestamp: 5) + "\n")
        var query = HistoryQuery()
        query.sort = .newest
        #expect(HistoryFixtures.ids(query.apply([a, b])) == ["session-0002", "session-0001"])
    }

    @Test func fastestByEachSessionsBestRunAFalseStartNotCounted() {
        // Bests: 0001 4.1, 0002 4.9, 0003 3.25, 0004 6.4, 0005 4.4 (its 3.9 was a false start).
        #expect(ids(.fastest) == ["session-0003", "session-0001", "session-0005", "session-0002", "session-0004"])
        // Bo's bests alone: 0001 4.3, 0002 5.0, 0003 3.25, 0004 6.4.
        #expect(ids(.fastest, athlete: "bo") == ["session-0003", "session-0001", "session-0002", "session-0004"])
    }

    @Test func mostRunsCountsTimedRunsOnly() {
        // Runs: 0001 2 (its clock's start is none), 0002 3, 0003 2, 0004 1, 0005 4.
        #expect(ids(.mostRuns) == ["session-0005", "session-0002", "session-0001", "session-0003", "session-0004"])
    }

    @Test func namesParse() {
        #expect(HistorySort(name: "most-runs") == .mostRuns && HistorySort(name: "fastest") == .fastest && HistorySort(name: "best") == nil)
    }
}

@Suite struct CalendarDateTests {
    @Test func knownDays() {
        #expect(CalendarDate(year: 1970, month: 1, day: 1)!.startMillis == 0)
        #expect(CalendarDate(year: 2026, month: 1, day: 1)!.startMillis == 1_767_225_600_000)
        #expect(CalendarDate(year: 2026, month: 11, day: 1)!.startMillis == HistoryFixtures.november1)
        #expect(CalendarDate(unixMillis: -1) == CalendarDate(year: 1969, month: 12, day: 31))
        #expect(CalendarDate.timeText(unixMillis: 1_767_225_600_000 + 17 * 3_600_000 + 42 * 60_000 + 59_999) == "2026-01-01 17:42 UTC")
        #expect(CalendarDate.isoText(unixMillis: HistoryFixtures.november1 + 3_723_000) == "2026-11-01T01:02:03Z")
    }

    @Test func everyDayOfFourHundredYearsRoundTrips() {
        var previous = CalendarDate(year: 1999, month: 12, day: 31)!
        for day in Int64(10_957)..<Int64(10_957 + 146_097) {   // 2000-01-01 for one Gregorian cycle
            let date = CalendarDate(unixMillis: day * CalendarDate.millisPerDay + 43_200_000)
            #expect(date.daysSinceEpoch == day && previous < date)
            #expect(CalendarDate(Substring(date.text)) == date)
            previous = date
            if date.daysSinceEpoch != day { break }
        }
    }

    @Test func textThatIsNoDayIsRefused() {
        #expect(CalendarDate("2024-02-29") == CalendarDate(year: 2024, month: 2, day: 29))
        for bad in ["2026-02-29", "2026-13-01", "2026-11-31", "2026-1-01", "26-11-01", "2026/11/01", "2026-11-01x", "+026-11-01", ""] {
            #expect(CalendarDate(Substring(bad)) == nil, "\(bad)")
        }
    }
}

@Suite struct TextSearchTests {
    @Test func caseInsensitiveSubstrings() {
        #expect(TextSearch.contains("Tuesday Flying 30s", "flying 3"))
        #expect(TextSearch.contains("ÉLODIE", "élo") && TextSearch.contains("x", ""))
        #expect(!TextSearch.contains("Ana", "anas") && !TextSearch.contains("", "a"))
        #expect(TextSearch.equal("Åsa", "åSA") && !TextSearch.equal("Asa", "Åsa"))
        #expect(TextSearch.contains("ΑΛΕΞΑΝΔΡΟΣ", "ξανδρος") && TextSearch.contains("ИВАН ЁЛКИН", "ёлкин"))
        #expect(TextSearch.equal("ŁUKASZ ŻÓŁW", "łukasz żółw") && TextSearch.equal("ĽUBOŠ", "ľuboš") && TextSearch.equal("İPEK", "ipek"))
    }

    /// The hand-written fold agrees with Unicode's lower case over every letter it handles.
    @Test func theFoldAgreesWithUnicode() {
        for v in UInt32(0x20)...UInt32(0x4FF) {
            // İ lower-cases to i with a combining dot, and ς is folded into σ on purpose.
            guard let scalar = Unicode.Scalar(v), v != 0x130, v != 0x3C2 else { continue }
            let mine = TextSearch.lowercase(scalar)
            guard mine != scalar else { continue }
            #expect(String(scalar).lowercased() == String(mine), "U+\(String(v, radix: 16))")
        }
    }
}

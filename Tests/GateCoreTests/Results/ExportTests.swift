import Testing
@testable import GateCore

/// An RFC 4180 reader written apart from the writer, to read the export back.
enum CSVReaderForTests {
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = ""
        var quoted = false, afterQuote = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.unicodeScalars.append("\""); chars.removeFirst() } else { quoted = false; afterQuote = true }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty && !afterQuote: quoted = true
            case ",": record.append(field); field = ""; afterQuote = false
            case "\r":
                guard chars.first == "\n" else { field.unicodeScalars.append(c); continue }
                chars.removeFirst()
                record.append(field); records.append(record); record = []; field = ""; afterQuote = false
            default: field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }
}

@Suite struct CSVTextTests {
    @Test func quotesOnlyWhatNeedsIt() {
        #expect(CSVText.quoted("Ana Silva") == "Ana Silva")
        #expect(CSVText.quoted("Silva, Ana") == "\"Silva, Ana\"")
        #expect(CSVText.quoted("the \"rocket\"") == "\"the \"\"rocket\"\"\"")
        #expect(CSVText.quoted("wet\ntrack") == "\"wet\ntrack\"")
        #expect(CSVText.quoted("cr\r\nlf") == "\"cr\r\nlf\"")
        #expect(CSVText.record(["a", "b,c", ""]) == "a,\"b,c\",\r\n")
    }
}

@Suite struct CSVExportTests {
    static func rows(_ session: RecordedSession) -> [[String: String]] {
        let records = CSVReaderForTests.records(CSVExport.text([session]))
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(records[0], $0)) }
    }

    @Test func everyRowHasEveryColumn() {
        let text = CSVExport.text(HistoryFixtures.sessions)
        let records = CSVReaderForTests.records(text)
        #expect(records[0] == CSVExport.columns)
        #expect(records.count == 1 + 3 + 3 + 2 + (1 + 2) + 5)
        #expect(records.allSatisfy { $0.count == CSVExport.columns.count })
        #expect(text.hasSuffix("\r\n") && !text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        // Every column is filled by some row, but those the fixtures have no value for.
        let empty = CSVExport.columns.indices.filter { i in records.dropFirst().allSatisfy { $0[i].isEmpty } }.map { CSVExport.columns[$0] }
        #expect(empty == ["stability_trace", "error_ms", "sync_error_ms"])
    }

    @Test func aFlyingSessionHasItsStartAndItsLaps() {
        let rows = Self.rows(HistoryFixtures.sessions[0])
        #expect(rows.map { $0["row"]! } == ["start", "lap", "lap"])
        let lap = rows[1]
        #expect(lap["session_name"] == "Tuesday flying 30s" && lap["session_date_utc"] == "2026-11-01T09:00:00Z")
        #expect(lap["athlete"] == "Ana Silva" && lap["athlete_id"] == "a1" && lap["athlete_colour"] == "blue")
        #expect(lap["split_s"] == "4.100000" && lap["speed_mps"] == "9.000" && lap["speed_kmh"] == "32.400" && lap["speed_kn"] == "17.495")
        #expect(lap["pb"] == "true" && lap["sb"] == "false" && lap["previous_best_s"] == "4.200000" && lap["improvement_s"] == "0.120000")
        #expect(rows[0]["split_s"] == "" && rows[0]["pb"] == "", "the clock's start: no time, no athlete")
        #expect(lap["boxes"] == "1" && lap["mode"] == "solo" && lap["start_type"] == "flying")
    }

    @Test func runsFromAStartAndTheirPreset() {
        let rows = Self.rows(HistoryFixtures.sessions[1])
        #expect(rows.map { $0["row"]! } == ["run", "run", "run"])
        #expect(rows.map { $0["run"]! } == ["1", "2", "3"])
        #expect(rows[0]["preset"] == "40yd" && rows[0]["distance_m"] == "36.576" && rows[0]["session_note"] == "Wet track, head wind")
        #expect(rows[1]["sb"] == "true" && rows[2]["athlete"] == "ANAÏS Roy")
    }

    @Test func aRaceRunWithLapGatesHasARowPerSegment() {
        let two = Self.rows(HistoryFixtures.sessions[2])
        #expect(two.map { $0["row"]! } == ["race", "race"], "a run between two gates is its one segment")
        #expect(two[1]["time_s"] == "3.250000" && two[1]["speed_mps"] == "9.231" && two[1]["to_gate"] == "1")
        let three = Self.rows(HistoryFixtures.sessions[3])
        #expect(three.map { $0["row"]! } == ["race", "segment", "segment"])
        #expect(three.map { $0["segment"]! } == ["", "1", "2"])
        #expect(three[2]["from_gate"] == "1" && three[2]["to_gate"] == "2")
        #expect(three[2]["split_s"] == "3.200000" && three[2]["time_s"] == "6.400000" && three[2]["speed_mps"] == "9.375")
        #expect(three.allSatisfy { $0["athlete"] == "Bo Lind" && $0["run_id"] == "run-001" })
        #expect(three[0]["sync_ms"] == "0.500" && three[0]["crossing_time_ns"] == "9000000000" && three[0]["boxes"] == "3")
    }

    @Test func trickyNamesAndNotesSurviveTheTrip() {
        let names = ["Silva, Ana", "Ana \"the rocket\" Silva", "Zoë\nO'Brien", "=1+1", "  spaced  "]
        var lines = [HistoryFixtures.session("session-0009", timestamp: 0)]
        for (i, name) in names.enumerated() {
            var json = ""
            JSONLineWriter.appendQuoted(name, to: &json)
            lines.append(HistoryFixtures.crossing("session-0009", run: i + 1, lap: i + 1, splitMs: 4000, athlete: "X")
                .replacingOccurrences(of: #""athlete":"X""#, with: #""athlete":"# + json))
        }
        lines.append(SessionNoteRecord(sessionId: "session-0009", name: "Tue, \"fast\"", note: "wet,\r\ncold", timestamp: 1).jsonLine())
        let rows = Self.rows(RecordedSession(id: "session-0009", text: lines.joined(separator: "\n") + "\n"))
        #expect(rows.map { $0["athlete"]! } == names)
        #expect(rows.allSatisfy { $0["session_name"] == "Tue, \"fast\"" && $0["session_note"] == "wet,\r\ncold" })
    }

    @Test func theQueryChoosesTheRows() {
        var query = HistoryQuery()
        query.athlete = "bo"
        let records = CSVReaderForTests.records(CSVExport.text(query.apply(HistoryFixtures.sessions)))
        let athlete = records[0].firstIndex(of: "athlete")!
        #expect(records.count == 1 + 1 + 2 + 1 + 3)
        #expect(records.dropFirst().allSatisfy { $0[athlete] == "Bo Lind" })
    }
}

@Suite struct Base64Tests {
    @Test func theVectorsOfRFC4648() {
        let cases = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in cases { #expect(Base64.encode(Array(plain.utf8)) == encoded) }
        #expect(Base64.encode([0xFF, 0xEF, 0x00]) == "/+8A")
    }
}

@Suite struct SessionReportTests {
    static func page(_ session: RecordedSession, units: [SpeedUnit] = [.kilometresPerHour], photos: [SessionReport.Photo] = []) -> String {
        String(decoding: SessionReport.html(session, units: units, photos: photos), as: UTF8.self)
    }

    @Test func aPageForAPhoneThatNeedsNothingElse() {
        let html = Self.page(HistoryFixtures.sessions[0])
        #expect(html.hasPrefix("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"))
        #expect(html.hasSuffix("</body></html>\n"))
        for external in ["http:", "https:", "<link", "<script", "@import", "url("] { #expect(!html.contains(external), "\(external)") }
    }

    @Test func theNameNoteRunsSpeedsAndBests() {
        let html = Self.page(HistoryFixtures.sessions[1], units: [.kilometresPerHour, .knots])
        #expect(html.contains("<title>session-0002</title>"))
        #expect(html.contains("<p class=\"m\">session-0002 · 2026-11-03 00:00 UTC · 40 Yard Dash, 40 yd (36.58 m) · touch-release start · 1 box</p>"))
        #expect(html.contains("<p class=\"n\">Wet track, head wind</p>"))
        #expect(html.contains("<th>Run</th><th class=\"l\">Athlete</th><th>Time s</th><th>km/h</th><th>kn</th><th>±ms</th></tr>"))
        #expect(html.contains("<tr><td>2</td><td class=\"l\"><i style=\"color:blue\">●</i> Bo Lind<div class=\"k\"><b class=\"b sb\">SB</b></div></td><td>5.000</td><td>32.4</td><td>17.5</td><td>0.60</td></tr>"))
        #expect(html.contains("<tr class=\"best\"><td>3</td>"), "the fastest run stands out")
        let pb = Self.page(HistoryFixtures.sessions[0])
        #expect(pb.contains("<h1>Tuesday flying 30s</h1>"))
        #expect(pb.contains("<b class=\"b pb\">PB</b> −0.120 s"))
        #expect(!pb.contains("<td>0.000</td>"), "the clock's start is no row")
    }

    @Test func aRaceWithLapGatesShowsItsSplits() {
        let html = Self.page(HistoryFixtures.sessions[3])
        #expect(html.contains("<th>Time s</th><th>Split s</th>"))
        #expect(html.contains("<td>6.400</td><td>3.200 · 3.200</td><td>33.8</td>"))
    }

    @Test func textFromTheRecordsIsEscaped() {
        let text = [HistoryFixtures.session("session-0009", timestamp: 0),
                    HistoryFixtures.crossing("session-0009", run: 1, lap: 1, splitMs: 4000, athlete: "<b>Ana & 'Bo'</b>",
                                             colour: "red;background:url(x)"),
                    SessionNoteRecord(sessionId: "session-0009", name: "<script>alert(1)</script>", note: "a \"quote\" & <i>", timestamp: 1).jsonLine()]
        let html = Self.page(RecordedSession(id: "session-0009", text: text.joined(separator: "\n") + "\n"))
        #expect(!html.contains("<script>") && !html.contains("<b>Ana") && !html.contains("url(x)"))
        #expect(html.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        #expect(html.contains("&lt;b&gt;Ana &amp; &#39;Bo&#39;&lt;/b&gt;"))
        #expect(html.contains("<p class=\"n\">a &quot;quote&quot; &amp; &lt;i&gt;</p>"))
        #expect(!html.contains("style=\"color:red"), "a colour that is none of the eight stays out of the style")
    }

    @Test func photosAreInlineWhereTheyExist() {
        let session = HistoryFixtures.sessions[0]
        let paths = SessionReport.photoPaths(session).map { $0.path }
        #expect(paths == ["photos/run-000-0-strip.png", "photos/run-000-0-frame.png", "photos/run-001-1-strip.png",
                          "photos/run-001-1-frame.png", "photos/run-002-2-strip.png", "photos/run-002-2-frame.png"])
        let strip: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3], frame: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 9]
        let html = Self.page(session, photos: [SessionReport.Photo(runId: "run-002", lap: 2, kind: .strip, png: strip),
                                               SessionReport.Photo(runId: "run-002", lap: 2, kind: .frame, png: frame)])
        #expect(html.contains("<figure id=\"p-run-002-2\"><figcaption>Lap 2 · Bo Lind · 4.300 s</figcaption>"
                              + "<img alt=\"photo-finish strip\" src=\"data:image/png;base64," + Base64.encode(strip) + "\">"
                              + "<img alt=\"crossing frame\" src=\"data:image/png;base64," + Base64.encode(frame) + "\"></figure>"))
        #expect(html.contains("<a href=\"#p-run-002-2\">photo</a>"))
        #expect(html.components(separatedBy: "<figure").count == 2, "lap 1 has no photos: no figure, no link")
        #expect(!html.contains("#p-run-001-1"))
        #expect(!Self.page(session).contains("<img"))
    }

    @Test func aFalseStartAndAMovedTripodAreMarked() {
        let html = Self.page(HistoryFixtures.sessions[4])
        #expect(html.contains("<th>Lap</th><th class=\"l\"></th><th>Time s</th>"), "no athletes: the column holds the marks alone")
        #expect(html.contains("<tr><td>1</td><td class=\"l\"><div class=\"k\"><b class=\"b fs\">false start</b></div></td><td>3.900</td>"))
        #expect(html.contains("<tr class=\"best\"><td>3</td>"), "a false start is no one's best")
        let plain = Self.page(HistoryFixtures.sessions[0].withoutAthletes)
        #expect(plain.contains("<th>Lap</th><th>Time s</th>"), "nothing to say: no text column")
    }

    @Test func aSessionWithoutRunsSaysSo() {
        let html = Self.page(RecordedSession(id: "session-0009", text: HistoryFixtures.session("session-0009", timestamp: 0) + "\n"))
        #expect(html.contains("<p>No timed runs.</p>") && !html.contains("<table"))
    }
}

extension RecordedSession {
    var withoutAthletes: RecordedSession {
        var copy = self
        for i in copy.crossings.indices { copy.crossings[i].runAthlete = nil }
        return copy
    }
}

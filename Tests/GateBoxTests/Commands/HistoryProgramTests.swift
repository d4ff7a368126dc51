import Foundation
import Testing
@testable import GateCore

/// `ts-gate results` with history's options, `session name|note` and
/// `export csv|html`, run as a coach runs them on sessions written by hand.
@Suite struct HistoryProgramTests {
    static func header(_ id: String, start: String = "flying", day: Int) -> String {
        #"{"type":"session","format":1,"sessionId":""# + id + #"","deviceId":"box","mode":"solo","startType":""# + start
            + #"","detection":"photo-finish","fps":120,"width":320,"height":240,"gatePosition":0.5000,"viewWidthM":4.000,"timestamp":"#
            + String(1_793_491_200_000 + Int64(day) * 86_400_000) + #","simulated":false}"#
    }

    static func lap(_ id: String, _ lap: Int, ms: Double?, athlete: String? = nil, pb: Bool = false) -> String {
        var line = #"{"type":"crossing","sessionId":""# + id + #"","runId":"run-00"# + String(lap) + #"","lap":"# + String(lap)
            + #","role":"solo","crossingTimeNanos":9000000000,"frameIndex":600,"interpolationOffsetMs":-1.000,"uncertaintyMs":0.400,"occupancyAtTrigger":0.500,"direction":"ltr","startTimeNanos":5000000000,"elapsedMs":"#
            + String(ms ?? 0) + #","splitTimeMs":"# + (ms.map { String($0) } ?? "null")
            + #","totalUncertaintyMs":0.600,"speedMps":9.000,"droppedFrames":0,"stable":true,"timestamp":1793491205000"#
        if let athlete {
            var quoted = ""
            JSONLineWriter.appendQuoted(athlete, to: &quoted)
            line += #","athlete":"# + quoted + #","athleteColour":"green","athleteId":"a-"# + String(lap) + "\""
            if pb { line += #","pb":true,"sb":true,"previousBestMs":4300.000,"improvementMs":200.000"# }
        }
        return line + "}"
    }

    /// Two sessions: laps by Ana and by a name a CSV must quote, then a
    /// touch-release session of Bo's a day later.
    static func dataDirectory() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        let sessions = [
            ("session-0001", [header("session-0001", day: 0), lap("session-0001", 0, ms: nil), lap("session-0001", 1, ms: 4100, athlete: "Ana Silva", pb: true),
                              lap("session-0001", 2, ms: 4000, athlete: "Silva, \"Zé\"\nJr")]),
            ("session-0002", [header("session-0002", start: "touchRelease", day: 1), lap("session-0002", 1, ms: 3900, athlete: "Bo Lind")]),
        ]
        for (id, lines) in sessions {
            try FileManager.default.createDirectory(atPath: dir.path + "/" + id, withIntermediateDirectories: true)
            try (lines.joined(separator: "\n") + "\n").write(toFile: dir.path + "/" + id + "/results.jsonl", atomically: false, encoding: .utf8)
        }
        return dir
    }

    @Test func filtersSortsAndSearchAsACoachTypesThem() throws {
        let dir = try Self.dataDirectory()
        defer { dir.remove() }
        let ana = try ProgramTests.run(["results", "--data-dir", dir.path, "--athlete", "ana"])
        #expect(ana.status == 0 && ana.errors.isEmpty)
        #expect(ana.output.contains("session-0001: solo laps") && !ana.output.contains("session-0002"))
        #expect(ana.output.contains("4.100  ") && ana.output.contains("Ana Silva PB SB -0.200 s") && !ana.output.contains("Zé"))
        let newest = try ProgramTests.run(["results", "--data-dir", dir.path, "--sort", "newest"])
        let first = try #require(newest.output.range(of: "session-0002:")), second = try #require(newest.output.range(of: "session-0001:"))
        #expect(first.lowerBound < second.lowerBound)
        let fastest = try ProgramTests.run(["results", "--data-dir", dir.path, "--sort", "fastest", "--start", "flying"])
        #expect(fastest.output.contains("session-0001") && !fastest.output.contains("session-0002"))
        let search = try ProgramTests.run(["results", "--data-dir", dir.path, "--search", "LIND", "--from", "2026-11-02", "--to", "2026-11-02"])
        #expect(search.output.hasPrefix("session-0002: solo runs") && !search.output.contains("session-0001"))
        let none = try ProgramTests.run(["results", "--data-dir", dir.path, "--boxes", "3"])
        #expect(none.status == 0 && none.output == "no sessions match (2 sessions in " + dir.path + ")\n")
        let bad = try ProgramTests.run(["results", "--data-dir", dir.path, "--sort", "best"])
        #expect(bad.status == 2 && bad.output.isEmpty && bad.errors == "ts-gate: --sort expects newest, oldest, fastest or most-runs, got 'best'\n")
    }

    @Test func aNameAndANoteAreAppendedNeverRewritten() throws {
        let dir = try Self.dataDirectory()
        defer { dir.remove() }
        let path = dir.path + "/session-0001/results.jsonl"
        // A power cut tore the box's last line.
        var before = try Data(contentsOf: URL(fileURLWithPath: path))
        before.removeLast(25)
        try before.write(to: URL(fileURLWithPath: path))
        let name = try ProgramTests.run(["session", "name", "session-0001", "Tuesday flying 30s", "--data-dir", dir.path])
        #expect(name.status == 0 && name.output == "session-0001: name set to \"Tuesday flying 30s\"\n")
        let note = try ProgramTests.run(["session", "note", "session-0001", "wet track, head wind", "--data-dir", dir.path])
        #expect(note.status == 0)
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after.prefix(before.count) == before, "what the box wrote is untouched")
        let added = String(decoding: after.dropFirst(before.count), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(added.count == 4 && added[0].isEmpty && added[3].isEmpty, "the torn line ended, then one line each")
        #expect(added[1].hasPrefix(#"{"type":"session_note","sessionId":"session-0001","name":"Tuesday flying 30s","timestamp":"#))
        #expect(added[2].hasPrefix(#"{"type":"session_note","sessionId":"session-0001","note":"wet track, head wind","timestamp":"#))

        let table = try ProgramTests.run(["results", "--data-dir", dir.path, "--session", "session-0001"])
        #expect(table.output.contains("session-0001: solo laps, flying start, photo-finish, 120 fps\nname: Tuesday flying 30s\nnote: wet track, head wind\n"))
        #expect(table.errors.contains("results.jsonl line 4: not a JSON object"), "the torn line is named and skipped")
        #expect(try ProgramTests.run(["results", "--data-dir", dir.path, "--search", "HEAD WIND"]).output.contains("session-0001"))

        let cleared = try ProgramTests.run(["session", "name", "session-0001", "", "--data-dir", dir.path])
        #expect(cleared.output == "session-0001: name cleared\n")
        #expect(!(try ProgramTests.run(["results", "--data-dir", dir.path]).output.contains("name: ")))

        let missing = try ProgramTests.run(["session", "note", "session-0009", "x", "--data-dir", dir.path])
        #expect(missing.status == 1 && missing.errors == "ts-gate: session-0009: no such session in " + dir.path + " (it holds session-0001, session-0002)\n")
    }

    @Test func theCSVReadsBackInPythonsCSVModule() throws {
        let dir = try Self.dataDirectory()
        defer { dir.remove() }
        let csvPath = dir.path + "/all.csv"
        let export = try ProgramTests.run(["export", "csv", "--data-dir", dir.path, "--output", csvPath])
        #expect(export.status == 0, "\(export.errors)")
        let again = try ProgramTests.run(["export", "csv", "--data-dir", dir.path, "--output", csvPath])
        #expect(again.status == 1 && again.errors == "ts-gate: " + csvPath + ": already exists; export writes a new file (remove it or give another --output)\n")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import csv, json, sys
            with open(sys.argv[1], newline='', encoding='utf-8') as f:
                rows = list(csv.DictReader(f))
            print(json.dumps([[r['session'], r['row'], r['athlete'], r['split_s'], r['pb']] for r in rows]))
            """, csvPath]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        let rows = try JSONSerialization.jsonObject(with: data) as? [[String]]
        #expect(rows == [["session-0001", "start", "", "", ""], ["session-0001", "lap", "Ana Silva", "4.100000", "true"],
                         ["session-0001", "lap", "Silva, \"Zé\"\nJr", "4.000000", "false"], ["session-0002", "run", "Bo Lind", "3.900000", "false"]])
        let stdout = try ProgramTests.run(["export", "csv", "--data-dir", dir.path, "--athlete", "bo"])
        #expect(stdout.output.hasPrefix("session,session_name,") && stdout.output.components(separatedBy: "\r\n").count == 3)
    }

    @Test func theHTMLReportInlinesThePhotosThatExist() throws {
        let dir = try Self.dataDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/session-0001/photos", withIntermediateDirectories: true)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<300).map { UInt8($0 % 256) })
        try png.write(to: URL(fileURLWithPath: dir.path + "/session-0001/photos/run-001-1-frame.png"))
        let report = try ProgramTests.run(["export", "html", "session-0001", "--data-dir", dir.path, "--units", "km/h"])
        #expect(report.status == 0 && report.errors.isEmpty)
        let html = report.output
        #expect(html.contains("<th>km/h</th>") && html.contains("<b class=\"b pb\">PB</b>") && html.contains("Silva, &quot;Zé&quot;\nJr"))
        let images = html.components(separatedBy: "src=\"data:image/png;base64,").dropFirst()
        #expect(images.count == 1, "only run 1's frame is on the card")
        let encoded = try #require(images.first?.components(separatedBy: "\"").first)
        #expect(Data(base64Encoded: encoded) == png)
        let absent = try ProgramTests.run(["export", "html", "session-0009", "--data-dir", dir.path])
        #expect(absent.status == 1 && absent.errors.hasPrefix("ts-gate: session-0009: no such session in "))
    }
}

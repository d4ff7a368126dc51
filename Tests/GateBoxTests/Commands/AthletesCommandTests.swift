import Foundation
import Testing
import GateCore
import GateDevices
@testable import GateBox

/// `ts-gate athletes` as a coach types it, judged from what it prints and
/// the athletes file it leaves.
@Suite struct AthletesCommandTests {
    func athletes(_ arguments: [String], _ dir: TemporaryDirectory) throws -> CapturedRun {
        try CapturedRun(["athletes"] + arguments + ["--data-dir", dir.path + "/data"], in: dir)
    }

    @Test func addListEditRemoveAppendOnly() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let add = try athletes(["add", "Ada Quick", "--colour", "blue", "--birthdate", "2009-04-17", "--gender", "f", "--no-voice"], dir)
        #expect(add.status == 0 && add.errors.isEmpty)
        #expect(add.output.hasPrefix("added Ada Quick (athlete-0001, blue) to " + dir.path + "/data/athletes.jsonl"))
        #expect(try athletes(["add", "Ben Swift", "--nickname", "Benny", "--no-voice"], dir).status == 0)
        let list = try athletes(["list"], dir)
        #expect(list.output.split(separator: "\n").count == 3)
        #expect(list.output.contains("athlete-0002  Ben Swift") && list.output.contains("Benny") && list.output.contains("2009-04-17"))

        let edit = try athletes(["edit", "ada", "--name", "Ada Quicker", "--birthdate", "", "--no-voice"], dir)
        #expect(edit.status == 0 && edit.output == "edited Ada Quicker, blue, female [athlete-0001]\n", "\(edit.output)\(edit.errors)")
        #expect(try athletes(["remove", "Benny"], dir).status == 0)
        let file = try String(contentsOfFile: dir.path + "/data/athletes.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(file.count == 4, "add, add, edit, remove: nothing rewritten")
        #expect(file[3].hasPrefix("{\"type\":\"athlete_removed\",\"id\":\"athlete-0002\""))
        let after = try athletes(["list"], dir)
        #expect(after.output.contains("Ada Quicker") && !after.output.contains("Ben Swift"))
        #expect(try athletes(["add", "Cy Dash", "--no-voice"], dir).output.contains("athlete-0003"), "Ben's id is not given again")
    }

    @Test func badInputIsNamedWithWhatWasExpectedAndExitsTwo() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let colour = try athletes(["add", "Ada", "--colour", "teal"], dir)
        #expect(colour.status == 2 && colour.errors == "ts-gate: --colour expects red, orange, yellow, green, blue, purple, pink or gray, got 'teal'\n")
        let date = try athletes(["add", "Ada", "--birthdate", "17.4.2009"], dir)
        #expect(date.status == 2 && date.errors.contains("--birthdate: birthdate '17.4.2009': expected a date as YYYY-MM-DD"))
        let empty = try athletes(["add", ""], dir)
        #expect(empty.status == 2 && empty.errors.contains("name is empty"))
        let verb = try athletes(["rename", "Ada"], dir)
        #expect(verb.status == 2 && verb.errors.contains("unknown action 'rename'"))
        let option = try athletes(["list", "--colour", "red"], dir)
        #expect(option.status == 2 && option.errors == "ts-gate: unknown option '--colour' (accepted here: --data-dir)\n")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/data/athletes.jsonl"), "nothing written")

        #expect(try athletes(["add", "Ada Quick", "--no-voice"], dir).status == 0)
        let twice = try athletes(["add", "ada quick", "--no-voice"], dir)
        #expect(twice.status == 2 && twice.errors.contains("already called 'ada quick'"))
        let nobody = try athletes(["show", "Zed"], dir)
        #expect(nobody.status == 2 && nobody.errors == "ts-gate: athletes: no athlete 'Zed'; expected a name, nickname or id: Ada Quick\n")
        let nothing = try athletes(["edit", "Ada Quick"], dir)
        #expect(nothing.status == 2 && nothing.errors.contains("nothing to change"))
    }

    @Test func aNewSeasonIsAppendedAndShowSaysSo() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try athletes(["add", "Ada Quick", "--no-voice"], dir).status == 0)
        let season = try athletes(["new-season", "--name", "2027 indoor"], dir)
        #expect(season.status == 0 && season.output.contains("a new season (2027 indoor) starts now"))
        let roster = AthletesFile.parse(try String(contentsOfFile: dir.path + "/data/athletes.jsonl", encoding: .utf8)).roster
        #expect(roster.seasonName == "2027 indoor" && roster.seasonStartMillis != nil && roster.athletes.count == 1)
        let show = try athletes(["show", "Ada Quick"], dir)
        #expect(show.status == 0 && show.output.contains("no timed runs yet"))
    }

    @Test func theTrendComparesTheNewestRunWithTheOnesBefore() {
        #expect(AthletesCommand.trend([5200]) == "-")
        #expect(AthletesCommand.trend([5200, 5300, 5000]) == "faster by 0.25 s than the 2 before")
        #expect(AthletesCommand.trend([5000, 5100]) == "slower by 0.10 s than the 1 before")
        #expect(AthletesCommand.trend([5000, 5002]) == "steady")
    }
}

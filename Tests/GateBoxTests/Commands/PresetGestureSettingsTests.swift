import Foundation
import Testing
import GateCore
import GateDevices
@testable import GateBox

/// What `run` does with the preset the button's triple tap picked: the
/// files' settings with that preset, or the next preset they take.
@Suite struct PresetGestureSettingsTests {
    static let board = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("board/vm-rig/board.conf").path

    func sources(config: String, in dir: TemporaryDirectory) throws -> SettingsSources {
        let path = dir.path + "/ts-gate.conf"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        var sources = SettingsSources()
        sources.boardFile = Self.board
        sources.configFile = path
        return sources
    }

    @Test func thePickedPresetOverridesTheFilesOne() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sources = try sources(config: "preset = 30m\n", in: dir)
        let sink = try FileDescriptor.open(dir.path + "/console.txt", [.writeOnly, .create, .truncate])
        defer { sink.close() }
        let picked = try #require(RunCommand.pickedPreset("60m", over: sources, console: Console(output: sink, errors: sink)))
        #expect(picked.settings.preset?.id == "60m" && picked.sources.preset == "60m")
        #expect(picked.settings.presetDistanceMetres == 60)
    }

    /// start.type = touch-release in the file: the agility drills (in-frame
    /// only) are refused, and the 40 yd after them is taken.
    @Test func aPresetTheFilesRefuseIsSkippedForTheNextTheyTake() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sources = try sources(config: "start.type = touch-release\n", in: dir)
        let sink = try FileDescriptor.open(dir.path + "/console.txt", [.writeOnly, .create, .truncate])
        defer { sink.close() }
        let picked = try #require(RunCommand.pickedPreset("5-10-5", over: sources, console: Console(output: sink, errors: sink)))
        #expect(picked.settings.preset?.id == "40yd")
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(text.contains("preset 5-10-5 from the button skipped") && text.contains("preset l-drill from the button skipped"))
        #expect(text.contains("ts-gate: preset 40yd from the button\n"))
    }
}

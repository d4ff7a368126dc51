import Testing
@testable import GateCore

@Suite struct BoxSettingsPresetTests {
    func settings(_ text: String, board: String = "gpio.touch = 5") throws(ConfigError) -> BoxSettings {
        var s = BoxSettings()
        try s.apply(try KeyValueFile.parse(board, file: "board.conf"), file: "board.conf")
        try s.apply(try KeyValueFile.parse(text, file: "t.conf"), file: "t.conf")
        try s.validate()
        return s
    }

    @Test func aPresetSetsItsStartTypeAndDistance() throws {
        let s = try settings("preset = 40yd")
        #expect(s.preset?.id == "40yd" && s.startType == .touchRelease)
        #expect((s.presetDistanceMetres! - 36.576).magnitude < 1e-9)
        #expect(try settings("preset = 5-10-5").startType == .inFrame)
        #expect(try settings("preset = practice").startType == .flying)
    }

    @Test func withoutATouchPadTheBoxCallsTheStart() throws {
        #expect(try settings("preset = 30m", board: "gpio.touch = none").startType == .voice)
    }

    @Test func startTypeOverridesThePresetInEitherOrder() throws {
        #expect(try settings("preset = 100m\nstart.type = countdown").startType == .countdown)
        #expect(try settings("start.type = countdown\npreset = 100m").startType == .countdown)
    }

    @Test func anUnknownPresetNamesTheKeyTheValueAndTheIds() {
        #expect(throws: ConfigError(file: "t.conf", line: 2, problem: "preset = flying-40m: no such preset; expected one of "
                                    + "10m, 20m, 30m, 60m, 100m, practice, flying-10m, flying-30m, flying, takeoff-velocity, 5-10-5, l-drill, 40yd"
                                    + " (ts-gate presets lists them)")) {
            try settings("announce = on\npreset = flying-40m")
        }
    }

    @Test func aStartTypeThePresetDoesNotTakeIsRefusedAtThePresetsLine() {
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: "preset = 5-10-5 with start.type = voice: the preset takes in-frame")) {
            try settings("preset = 5-10-5\nstart.type = voice")
        }
    }

    @Test func aBoxAloneRefusesAFlyingPresetWithTheReason() throws {
        do {
            _ = try settings("preset = flying-30m")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 1 && error.problem.hasPrefix("preset flying-30m times the 30 m between two gates and needs 2 boxes"))
        }
        let host = try settings("preset = flying-30m\nrace = host")
        #expect(host.raceGatesMetres == [0, 30] && host.startType == .flying)
    }

    @Test func aHostTakesThePresetsGatesUnlessRaceGatesAddSplits() throws {
        #expect(try settings("preset = 100m\nrace = host").raceGatesMetres == [0, 100])
        #expect(try settings("race.gates = 0, 30, 60, 100\npreset = 100m\nrace = host").raceGatesMetres == [0, 30, 60, 100])
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: "preset = 40yd finishes at 40 yd (36.58 m) but race.gates ends at 40.00 m")) {
            try settings("preset = 40yd\nrace = host\nrace.gates = 0, 40")
        }
    }

    @Test func aSelectableDistanceIsChosenAmongItsChoices() throws {
        let s = try settings("preset = flying\npreset.distance_m = 20\nrace = host")
        #expect(s.presetDistanceMetres == 20 && s.raceGatesMetres == [0, 20])
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: "preset.distance_m = 25.0: preset flying offers 10/20/30 m")) {
            try settings("preset = flying\npreset.distance_m = 25\nrace = host")
        }
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: "preset.distance_m = 20.0: preset 30m has a set distance (30 m)")) {
            try settings("preset = 30m\npreset.distance_m = 20")
        }
    }

    @Test func speedUnits() throws {
        #expect(BoxSettings().speedUnits == [.metresPerSecond, .kilometresPerHour, .milesPerHour])
        #expect(try settings("speed.units = knots").speedUnits == [.knots])
        #expect(try settings("speed.units = km/h, mph").speedUnits == [.kilometresPerHour, .milesPerHour])
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: "speed.units = furlongs: expected " + SpeedUnit.names)) {
            try settings("speed.units = furlongs")
        }
    }
}

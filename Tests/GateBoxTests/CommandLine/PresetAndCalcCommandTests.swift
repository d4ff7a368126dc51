import Testing
import GateCore
import GateSim
@testable import GateBox

@Suite struct PresetArgumentTests {
    @Test func runTakesAPreset() throws {
        guard case .run(let o) = try ArgumentParser.parse(["run", "--preset", "40yd", "--config", "c.conf"]) else { Issue.record("not run"); return }
        #expect(o.sources.preset == "40yd" && o.sources.configFile == "c.conf")
        #expect(throws: UsageError("--preset: no preset '41yd'; expected one of " + Preset.ids + " (ts-gate presets lists them)")) {
            try ArgumentParser.parse(["run", "--preset", "41yd"])
        }
    }

    @Test func aStartEventPresetIsOneBoxWithItsStartType() throws {
        guard case .simulate(let o) = try ArgumentParser.parse(["--simulate", "--preset", "40yd"]) else { Issue.record("not simulate"); return }
        #expect(o.preset?.id == "40yd" && o.simulation.startType == .touchRelease && o.race == nil)
        guard case .simulate(let c) = try ArgumentParser.parse(["--simulate", "--start", "countdown", "--preset=30m"]) else { Issue.record("not simulate"); return }
        #expect(c.simulation.startType == .countdown)
    }

    @Test func aFlyingPresetIsARaceOfItsGates() throws {
        guard case .simulate(let o) = try ArgumentParser.parse(["--simulate", "--preset", "flying-30m"]) else { Issue.record("not simulate"); return }
        #expect(o.race?.boxes == 2 && o.race?.distances == [30] && o.simulation.startType == .flying)
        guard case .simulate(let h) = try ArgumentParser.parse(["--simulate", "--preset", "100m", "--boxes", "4"]) else { Issue.record("not simulate"); return }
        #expect(h.race?.distances == [30, 60, 100])
        guard case .simulate(let d) = try ArgumentParser.parse(["--simulate", "--preset", "100m", "--boxes", "3", "--distances", "50,100"])
        else { Issue.record("not simulate"); return }
        #expect(d.race?.distances == [50, 100], "explicit distances win")
    }

    @Test func whatAPresetCannotTakeIsRefused() {
        #expect(throws: UsageError("--preset 5-10-5 with --start voice: the preset takes in-frame")) {
            try ArgumentParser.parse(["--simulate", "--preset", "5-10-5", "--start", "voice"])
        }
        #expect(throws: UsageError("--preset 40yd with --boxes 3: the preset takes 2 boxes")) {
            try ArgumentParser.parse(["--simulate", "--preset", "40yd", "--boxes", "3"])
        }
        #expect(throws: UsageError("--preset l-drill with --boxes 2: the preset is one box's (L-Drill (3-Cone))")) {
            try ArgumentParser.parse(["--simulate", "--preset", "l-drill", "--boxes", "2"])
        }
    }

    @Test func resultsTakeUnits() throws {
        guard case .results(let r) = try ArgumentParser.parse(["results", "--units", "knots,mph"]) else { Issue.record("not results"); return }
        #expect(r.speedUnits == [.knots, .milesPerHour])
        #expect(throws: UsageError("--units expects " + SpeedUnit.names + ", got 'm/h'")) { try ArgumentParser.parse(["results", "--units", "m/h"]) }
    }
}

@Suite struct CalcArgumentTests {
    @Test func parsesBothCalculators() throws {
        #expect(try ArgumentParser.parse(["calc", "wind", "--event", "100m", "--time", "10.00", "--wind", "-1.2"])
                == .calc(.wind(event: .m100, seconds: 10, wind: -1.2)))
        #expect(try ArgumentParser.parse(["calc", "convert", "--from", "60m", "--time", "7.19", "--women"])
                == .calc(.convert(from: .m60, seconds: 7.19, sex: .women)))
    }

    @Test func badInputNamesWhatWasExpected() {
        #expect(throws: UsageError("calc wind needs --event 100m or 200m, got '400m'")) {
            try ArgumentParser.parse(["calc", "wind", "--event", "400m", "--time", "45", "--wind", "1"])
        }
        #expect(throws: UsageError("calc wind needs --wind, the wind in m/s (+ tailwind, - headwind), such as 1.8")) {
            try ArgumentParser.parse(["calc", "wind", "--event", "200m", "--time", "21"])
        }
        #expect(throws: UsageError("--wind expects the wind in m/s from -10 to 10, + for a tailwind, such as 1.8 or -0.6, got '12'")) {
            try ArgumentParser.parse(["calc", "wind", "--event", "200m", "--time", "21", "--wind", "12"])
        }
        #expect(throws: UsageError("calc: unknown calculator 'pace' (calculators: wind, convert)")) { try ArgumentParser.parse(["calc", "pace"]) }
        #expect(throws: UsageError("calc convert: 18.00 s over 100m is beyond the World Athletics tables (they score times up to 17.00 s for men)")) {
            try ArgumentParser.parse(["calc", "convert", "--from", "100m", "--time", "18"])
        }
    }
}

@Suite struct PresetAndCalcCommandTests {
    @Test func presetsListsEveryPreset() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let run = try CapturedRun(["presets"], in: dir, missingCPUFeatures: "")
        #expect(run.status == 0 && run.errors.isEmpty)
        for p in Preset.all { #expect(run.output.contains("\n" + p.id + " "), "\(p.id) listed") }
        #expect(run.output.contains("40 Yard Dash          40 yd (36.58 m)"))
    }

    @Test func calcPrintsThePublishedFigures() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let wind = try CapturedRun(["calc", "wind", "--event", "200m", "--time", "20.00", "--wind", "2.0"], in: dir, missingCPUFeatures: "")
        #expect(wind.status == 0)
        #expect(wind.output.contains("still air: 20.14 s (the wind gave 0.140 s)") && wind.output.contains("Moinat"))
        let convert = try CapturedRun(["calc", "convert", "--from", "100m", "--time", "11.15"], in: dir, missingCPUFeatures: "")
        #expect(convert.output == "100m in 11.15 s (men): 842 points\n  60m  7.19 s\n  200m 22.62 s\n"
                + "model: World Athletics Scoring Tables, 2022 edition (equal points; 60 m indoor, 100 m and 200 m outdoor)\n")
    }

    @Test func aFlyingPresetOnABoxAloneIsRefusedByRun() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let board = dir.path + "/board.conf"
        try "board = t\n".write(toFile: board, atomically: true, encoding: .utf8)
        let run = try CapturedRun(["run", "--board", board, "--preset", "flying-30m", "--data-dir", dir.path + "/d"], in: dir, missingCPUFeatures: "")
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("ts-gate: --preset flying-30m: preset flying-30m times the 30 m between two gates and needs 2 boxes"))
    }
}

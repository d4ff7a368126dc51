import Foundation
import Testing
import GateCore
import GateDevices
import GateSim
@testable import GateBox

/// `ts-gate --simulate --preset 40yd --athletes 3`, as a coach would try
/// it: three athletes take turns (the coach double-taps between runs),
/// each run is theirs in the results, bests are marked, and a second
/// session starts from the bests the first left on the card.
@Suite struct AthletesSimulateEndToEndTests {
    static func crossings(_ path: String) throws -> [CrossingRecord] {
        let parsed = ResultsReader.parse(try String(contentsOfFile: path, encoding: .utf8))
        #expect(parsed.warnings.isEmpty)
        return parsed.records.compactMap { if case .crossing(let c) = $0 { return c } else { return nil } }
    }

    @Test func threeAthletesTakeTurnsAndTheirBestsAreMarked() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let data = dir.path + "/data"
        let first = try CapturedRun(["--simulate", "--fast", "--preset", "40yd", "--athletes", "3", "--runs", "6", "--seed", "1",
                                     "--data-dir", data], in: dir)
        #expect(first.status == 0, "\(first.errors)")
        let roster = AthletesFile.parse(try String(contentsOfFile: data + "/athletes.jsonl", encoding: .utf8)).roster
        #expect(roster.athletes.map(\.name) == ["Ada Quick", "Ben Swift", "Cleo Dash"])

        let runs = try Self.crossings(data + "/session-0001/results.jsonl")
        #expect(runs.map(\.lap) == [1, 1, 1, 1, 1, 1])
        #expect(runs.compactMap(\.athlete) == ["Ada Quick", "Ben Swift", "Cleo Dash", "Ada Quick", "Ben Swift", "Cleo Dash"])
        #expect(runs.compactMap(\.athleteId) == ["athlete-0001", "athlete-0002", "athlete-0003", "athlete-0001", "athlete-0002", "athlete-0003"])
        #expect(runs.compactMap(\.athleteColour) == ["red", "orange", "yellow", "red", "orange", "yellow"])

        // The 40 yd is run: from a standing start at 0.8 of the speed at
        // the line on average (the scenario's model), 36.58 m.
        for run in runs {
            let expected = 40 * Preset.metresPerYard / (0.8 * run.speedMps) * 1000
            #expect(abs(run.elapsedMs - expected) / expected < 0.02, "\(run.runId): \(run.elapsedMs) ms for 36.58 m at \(run.speedMps) m/s")
        }
        // Each athlete's first run is their first best; a later one is a
        // best exactly when it beats every earlier one, by the difference.
        var best: [String: Double] = [:]
        for run in runs {
            let id = try #require(run.athleteId)
            let outcome = try #require(run.best, "\(run.runId) has no pb/sb fields")
            let previous = best[id]
            let isBest = previous.map { run.elapsedMs < $0 } ?? true
            #expect(outcome.personalBest == isBest && outcome.seasonBest == isBest, "\(run.runId)")
            if isBest, let previous {
                #expect(outcome.previousBestMs == previous)
                #expect(abs(try #require(outcome.improvementMs) - (previous - run.elapsedMs)) < 0.002)
            } else {
                #expect(outcome.previousBestMs == nil && outcome.improvementMs == nil)
            }
            if isBest { best[id] = run.elapsedMs }
        }
        #expect(runs.filter { $0.best?.personalBest == true }.count >= 3)
        #expect(first.output.contains("button (double tap): next run: Ben Swift (orange)"))
        #expect(first.output.contains("Ada Quick: new personal best at touchRelease_36.58m (first timed run)"))

        // A second session: the bests come from the first one's results.
        let second = try CapturedRun(["--simulate", "--fast", "--preset", "40yd", "--athletes", "3", "--runs", "3", "--seed", "2",
                                      "--data-dir", data], in: dir)
        #expect(second.status == 0 && !second.output.contains("simulated athlete"), "the squad is the file's now")
        for run in try Self.crossings(data + "/session-0002/results.jsonl") {
            let id = try #require(run.athleteId)
            let previous = try #require(best[id])
            #expect(run.best?.personalBest == (run.elapsedMs < previous), "\(run.runId) against \(previous) ms")
            if run.best?.personalBest == true { #expect(run.best?.previousBestMs == previous) }
            best[id] = min(previous, run.elapsedMs)
        }

        let show = try CapturedRun(["athletes", "show", "Ada Quick", "--data-dir", data], in: dir)
        #expect(show.status == 0)
        let row = try #require(show.output.split(separator: "\n").first { $0.hasPrefix("touchRelease_36.58m") })
        let fields = row.split(separator: " ")
        #expect(fields[1] == "3", "two runs in the first session, one in the second: \(row)")
        #expect(fields[2] == Substring(DecimalText.fixed(best["athlete-0001"]! / 1000, places: 2)), "\(row)")
    }

    /// Three taps while disarmed pick the next preset this box can run
    /// alone (40 yd wraps to 10 m): the session closes to start with it.
    /// Armed, the same taps change nothing.
    @Test func aTripleTapWhileDisarmedPicksTheNextPreset() throws {
        var options = SimulationOptions()
        options.seed = 3; options.runs = 1; options.startType = .touchRelease
        var scenario = Scenario(options: options)
        // The arming tap becomes the first of three.
        let arming = scenario.buttonReleaseNanos
        scenario.presses.insert(contentsOf: [
            Scenario.Press(control: .button, pressNanos: arming + 150_000_000, releaseNanos: arming + 250_000_000),
            Scenario.Press(control: .button, pressNanos: arming + 400_000_000, releaseNanos: arming + 500_000_000),
        ], at: 0)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var configuration = BoxConfiguration(detector: DetectorSettings(), viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        configuration.startType = .touchRelease
        configuration.preset = Preset.named("40yd")
        configuration.distanceMetres = configuration.preset?.metres
        var (loop, log, sink) = try BoxLoopTests.loop(scenario, configuration, in: dir)
        defer { loop.platform.release(); log.close(); sink.close() }
        #expect(try loop.run() == .preset("10m"))
        #expect(loop.endRecord?.reason == "preset")
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(text.contains("button (triple tap): preset 10m: 10m Acceleration, 10 m"))
        #expect(!text.contains("button: arming"), "the three taps were one gesture, not an arming tap")
    }

    @Test func aTripleTapWhileArmedIsRefusedWithWhy() throws {
        var options = SimulationOptions()
        options.seed = 3; options.runs = 1; options.startType = .touchRelease
        var scenario = Scenario(options: options)
        // After the run, the box armed for the next start: three taps.
        let finish = try #require(scenario.truthNanos.first)
        scenario.presses += (0..<3).map { k in
            Scenario.Press(control: .button, pressNanos: finish + 200_000_000 + Int64(k) * 250_000_000,
                           releaseNanos: finish + 300_000_000 + Int64(k) * 250_000_000)
        }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var configuration = BoxConfiguration(detector: DetectorSettings(), viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        configuration.startType = .touchRelease
        var (loop, log, sink) = try BoxLoopTests.loop(scenario, configuration, in: dir)
        defer { loop.platform.release(); log.close(); sink.close() }
        #expect(try loop.run() == .completed)
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(text.contains("button (triple tap): disarm first (hold 2-5 s) to change the preset; the gate is armed"), "\(text)")
        #expect(loop.records.count == 1, "the run is still timed")
    }

    /// A coach's double tap while a voice start is being called calls it
    /// off, as one tap does, and does not call a new one.
    @Test func aDoubleTapDuringACallOnlyCallsItOff() throws {
        var options = SimulationOptions()
        options.seed = 5; options.runs = 1; options.startType = .voice
        var scenario = Scenario(options: options)
        let call = try #require(scenario.presses.first).releaseNanos
        let called = call + TapSequence.gapNanos
        scenario.presses.insert(contentsOf: [
            Scenario.Press(control: .button, pressNanos: called + 1_000_000_000, releaseNanos: called + 1_100_000_000),
            Scenario.Press(control: .button, pressNanos: called + 1_250_000_000, releaseNanos: called + 1_350_000_000),
        ], at: 1)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var configuration = BoxConfiguration(detector: DetectorSettings(), viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        configuration.startType = .voice
        var (loop, log, sink) = try BoxLoopTests.loop(scenario, configuration, in: dir)
        defer { loop.platform.release(); log.close(); sink.close() }
        #expect(try loop.run() == .completed)
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(text.contains("button: start called off before GO"))
        #expect(text.components(separatedBy: "button: voice start:").count == 2, "one call, not a second one: \(text)")
        #expect(!text.contains("(GO)") && loop.records.isEmpty)
    }
}

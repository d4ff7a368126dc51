import Foundation
import Testing
import GateCore
import GateDevices
import GateSim
@testable import GateBox

/// Whole sessions through the program's entry point, judged from the
/// results file it leaves: every simulated crossing found, within a bound.
@Suite struct SimulateEndToEndTests {
    /// The skeleton's stated detection bound (issue 2), from a sweep of 30
    /// seeds x 5 crossings: max 0.90 ms at 120 fps, 4.7 ms at 60 fps (see the
    /// issue note). Issue 3's targets are tighter: 1 ms p95 at 120, 2 ms at 60.
    static let boundMs: [Int: Double] = [120: 1.5, 60: 5.0]

    struct Outcome {
        var status: Int32
        var records: [ResultsReader.Record]
        var warnings: [String]
        /// The side files the crossings name (stability traces), by name.
        var sideFiles: [String: String] = [:]
        /// What the box said.
        var console = ""
    }

    static func simulate(_ extra: [String], fps: Int, seed: Int, runs: Int) throws -> Outcome {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sink = try FileDescriptor.open(dir.path + "/console.txt", [.writeOnly, .create, .truncate])
        defer { sink.close() }
        let status = TSGate.main(arguments: ["--simulate", "--fast", "--seed", String(seed), "--runs", String(runs),
                                             "--fps", String(fps), "--data-dir", dir.path] + extra,
                                 console: Console(output: sink, errors: .standardError))
        let text = try String(contentsOfFile: dir.path + "/session-0001/results.jsonl", encoding: .utf8)
        let parsed = ResultsReader.parse(text)
        var outcome = Outcome(status: status, records: parsed.records, warnings: parsed.warnings)
        outcome.console = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        for case .crossing(let c) in parsed.records {
            guard let name = c.stabilityTrace else { continue }
            outcome.sideFiles[name] = try? String(contentsOfFile: dir.path + "/session-0001/" + name, encoding: .utf8)
        }
        return outcome
    }

    @Test(arguments: [(120, 1), (120, 2), (60, 3)])
    func everySimulatedCrossingIsDetectedWithinTheBound(fps: Int, seed: Int) throws {
        let runs = 3
        let outcome = try Self.simulate([], fps: fps, seed: seed, runs: runs)
        #expect(outcome.status == 0)
        #expect(outcome.warnings.isEmpty)
        var options = SimulationOptions()
        options.seed = UInt64(seed); options.runs = runs; options.fps = fps
        let truth = Scenario(options: options).truthNanos

        guard case .session(let header)? = outcome.records.first else { Issue.record("no session record first"); return }
        #expect(header.fps == fps && header.simulated && header.seed == UInt64(seed) && header.mode == "solo")
        guard case .end(let end)? = outcome.records.last else { Issue.record("no session_end record last"); return }
        #expect(end.reason == "completed" && end.laps == runs)

        let crossings = Self.crossings(outcome)
        #expect(crossings.map(\.lap) == Array(0...runs))
        #expect(crossings.compactMap(\.truthCrossingTimeNanos) == truth)
        let bound = try #require(Self.boundMs[fps])
        for c in crossings {
            let error = try #require(c.detectionErrorMs)
            #expect(abs(error) <= bound, "lap \(c.lap): error \(error) ms over the \(bound) ms bound at \(fps) fps")
            #expect(c.speedMps > 2.5 && c.speedMps < 12)
            #expect(c.stable)
        }
        // Each lap's tripod motion is saved beside it: 100 Hz samples from
        // before the lap to when it was recorded, just after the crossing.
        for c in crossings {
            let name = try #require(c.stabilityTrace)
            let lines = try #require(outcome.sideFiles[name]).split(separator: "\n")
            #expect(lines.first == "t_ms,x_g,y_g,z_g" && lines.count > 100, "\(name): \(lines.count) lines")
            let times = lines.dropFirst().compactMap { Double($0.split(separator: ",")[0]) }
            #expect(times.first! < -1000 && times.last! > -20 && times.last! < 500, "\(name): \(times.first!) to \(times.last!) ms")
        }
        // Laps chain: each split is the difference of consecutive crossings.
        for (previous, next) in zip(crossings, crossings.dropFirst()) {
            let split = try #require(next.splitTimeMs)
            #expect(abs(split - Double(next.crossingTimeNanos - previous.crossingTimeNanos) / 1e6) < 0.001)
        }
    }

    /// Touch-release and countdown: each run's start record carries the
    /// scenario's start instant (the release edge; the GO leaving the
    /// speaker), and the run is timed from it to its crossing.
    @Test(arguments: [("touch-release", "touchRelease", "gpio-edge"), ("countdown", "countdown", "virtual-clock")])
    func startEventsStartEachRun(start: String, code: String, source: String) throws {
        let runs = 2
        let outcome = try Self.simulate(["--start", start], fps: 120, seed: 4, runs: runs)
        #expect(outcome.status == 0 && outcome.warnings.isEmpty)
        var options = SimulationOptions()
        options.seed = 4; options.runs = runs; options.startType = StartType(name: start)!
        let scenario = Scenario(options: options)
        #expect(scenario.startNanos.count == runs)

        guard case .session(let header)? = outcome.records.first else { Issue.record("no session record first"); return }
        #expect(header.startType == code)
        let starts = outcome.records.compactMap { record -> StartRecord? in
            if case .start(let s) = record { return s } else { return nil }
        }
        let crossings = Self.crossings(outcome)
        #expect(starts.map(\.startTimeNanos) == scenario.startNanos)
        #expect(starts.map(\.runId) == ["run-001", "run-002"] && starts.allSatisfy { $0.source == source })
        #expect(crossings.map(\.runId) == ["run-001", "run-002"] && crossings.allSatisfy { $0.lap == 1 })
        for (s, c) in zip(starts, crossings) {
            #expect(c.startTimeNanos == s.startTimeNanos)
            #expect(abs(c.elapsedMs - Double(c.crossingTimeNanos - s.startTimeNanos) / 1e6) < 0.001)
            #expect(abs(try #require(c.detectionErrorMs)) <= Self.boundMs[120]!)
        }
        guard case .end(let end)? = outcome.records.last else { Issue.record("no session_end record last"); return }
        #expect(end.laps == runs)
    }

    /// A directory of voice clips as `make voice` writes them: every phrase
    /// a 350 ms tone between silences (lengths the test knows, no espeak).
    static func voiceDirectory(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path + "/voice"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let word = [Int16](repeating: 0, count: 1100) + (0..<7718).map { Int16(8000 * sin(Double($0) * 0.3)) } + [Int16](repeating: 0, count: 1100)
        for file in Phrase.files {
            try Data(WAVFile.encode(word, rate: 22050)).write(to: URL(fileURLWithPath: path + "/" + file + ".wav"))
        }
        return path
    }

    /// Issue 50: the box calls "On your marks" ... "Set" ... GO after delays
    /// drawn in their ranges; GO starts the clock (the same instant the
    /// simulated athlete goes on), and each time is said after its beep.
    @Test func aVoiceStartCallsTheAthleteAndItsGoStartsTheClock() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let voice = try Self.voiceDirectory(dir)
        let runs = 2
        let outcome = try Self.simulate(["--start", "voice", "--voice", voice], fps: 120, seed: 6, runs: runs)
        #expect(outcome.status == 0 && outcome.warnings.isEmpty)
        var options = SimulationOptions()
        options.seed = 6; options.runs = runs; options.startType = .voice
        options.voice = VoiceFiles.load(directory: voice).voice
        #expect(options.voice.isComplete)
        let scenario = Scenario(options: options)
        let starts = outcome.records.compactMap { record -> StartRecord? in
            if case .start(let s) = record { return s } else { return nil }
        }
        #expect(starts.map(\.startTimeNanos) == scenario.startNanos && starts.allSatisfy { $0.startType == "voice" })
        #expect(Self.crossings(outcome).map(\.runId) == ["run-001", "run-002"])
        let console = outcome.console
        #expect(console.contains("voice: \(Phrase.count) of \(Phrase.count) clips from " + voice))
        #expect(console.contains("🗣 \"on your marks\"") && console.contains("🗣 \"set\"") && console.contains("♪ gunshot (GO)"))
        #expect(console.contains("voice start GO: run 1 started at " + String(scenario.startNanos[0]) + " ns"))
        // The delays the box drew, as it logged them, in their ranges.
        let calls = console.split(separator: "\n").filter { $0.contains("button: voice start:") }
        #expect(calls.count == runs)
        for line in calls {
            let seconds = line.split(separator: " ").compactMap { Double($0) }
            #expect(seconds.count == 3, "\(line)")
            guard seconds.count == 3 else { continue }
            #expect((3...5).contains(seconds[0]) && (8...12).contains(seconds[1]) && (1.5...2.3).contains(seconds[2]), "\(line)")
        }
        // Each run's time, spoken after its crossing's beep.
        for c in Self.crossings(outcome) {
            var words: [Phrase] = []
            SpokenNumbers.seconds(Int64(c.elapsedMs * 1e6), into: &words)
            #expect(console.contains("🗣 \"" + words.map(\.words).joined(separator: " ")), "run \(c.runId): \(c.elapsedMs) ms not said")
        }
    }

    /// Without clips the box still calls the start, with beeps, says why,
    /// and times from the same GO.
    @Test func withoutVoiceClipsTheStartIsCalledWithBeeps() throws {
        let outcome = try Self.simulate(["--start", "voice", "--voice", "/nonexistent/voice"], fps: 120, seed: 6, runs: 1)
        #expect(outcome.status == 0)
        #expect(outcome.console.contains("voice: no directory /nonexistent/voice (expected the WAV clips `make voice` writes)"))
        #expect(outcome.console.contains("(beeps for the words: no voice clips)"))
        #expect(!outcome.console.contains("🗣") && outcome.console.contains("times are not spoken: no voice clips"))
        var options = SimulationOptions()
        options.seed = 6; options.runs = 1; options.startType = .voice
        let starts = outcome.records.compactMap { record -> StartRecord? in
            if case .start(let s) = record { return s } else { return nil }
        }
        #expect(starts.map(\.startTimeNanos) == Scenario(options: options).startNanos)
        #expect(Self.crossings(outcome).count == 1)
    }

    static func crossings(_ outcome: Outcome) -> [CrossingRecord] {
        outcome.records.compactMap { record -> CrossingRecord? in
            if case .crossing(let c) = record { return c } else { return nil }
        }
    }

    /// A knock on the armed box's tripod: photo-finish and precision disarm
    /// and wait for a person; nothing after it is timed.
    @Test func aKnockedTripodDisarmsTheGateUntilSomeoneArmsIt() throws {
        let outcome = try Self.simulate(["--knock", "3"], fps: 120, seed: 3, runs: 2)
        #expect(outcome.status == 0 && outcome.warnings.isEmpty)
        #expect(outcome.console.contains("gate disarmed; check the aim, then press the button to arm"))
        #expect(outcome.console.contains("(error)"))
        #expect(Self.crossings(outcome).isEmpty)
        guard case .end(let end)? = outcome.records.last else { Issue.record("no session_end record last"); return }
        #expect(end.reason == "completed" && end.laps == 0)
    }

    /// Experimental mode re-arms by itself once the tripod is still, having
    /// learnt the shifted view afresh: every pass is timed, against the gate
    /// line the camera looks at after the knock.
    @Test func experimentalModeReArmsAfterAKnockAndTimesEveryPass() throws {
        let runs = 2
        let outcome = try Self.simulate(["--knock", "3", "--mode", "experimental"], fps: 120, seed: 3, runs: runs)
        #expect(outcome.status == 0 && outcome.warnings.isEmpty)
        #expect(outcome.console.contains("the gate arms again once it is still"))
        #expect(outcome.console.contains("learning the scene afresh"))
        var options = SimulationOptions()
        options.seed = 3; options.runs = runs; options.knockNanos = 3_000_000_000
        let crossings = Self.crossings(outcome)
        #expect(crossings.compactMap(\.truthCrossingTimeNanos) == Scenario(options: options).truthNanos)
        for c in crossings {
            #expect(abs(try #require(c.detectionErrorMs)) <= Self.boundMs[120]!)
            #expect(c.stable)
        }
    }

    /// A knock between laps: the run goes on and the lap it falls in is flagged.
    @Test func aKnockDuringLapsFlagsThatLap() throws {
        var options = SimulationOptions()
        options.seed = 3; options.runs = 2
        let truth = Scenario(options: options).truthNanos
        // Halfway between the start crossing and lap 1.
        let knock = (truth[0] + truth[1]) / 2
        let outcome = try Self.simulate(["--knock", String(Double(knock) / 1e9)], fps: 120, seed: 3, runs: 2)
        let crossings = Self.crossings(outcome)
        #expect(crossings.map(\.lap) == [0, 1, 2])
        #expect(crossings.map(\.stable) == [true, false, true])
        #expect(outcome.console.contains("the current lap will be flagged"))
    }

    @Test func theSameSeedWritesTheSameResults() throws {
        let a = try Self.simulate([], fps: 120, seed: 5, runs: 1)
        let b = try Self.simulate([], fps: 120, seed: 5, runs: 1)
        #expect(a.records == b.records)
        #expect(a.records.count == 4)
    }

    @Test func aBadDataDirectoryFailsWithoutASession() {
        let status = TSGate.main(arguments: ["--simulate", "--fast", "--data-dir", "/proc/no-results-here"],
                                 console: Console(output: .standardError, errors: .standardError))
        #expect(status == 1)
    }
}

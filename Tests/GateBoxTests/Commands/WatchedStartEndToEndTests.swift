import Foundation
import Testing
import GateCore
import GateDevices
import GateSim
@testable import GateBox

/// Issue 50, starts the camera sees: the in-frame start, and a called
/// start's reaction and false starts, through the program's entry point
/// and judged from the results file against the scenario's truth.
@Suite struct WatchedStartEndToEndTests {
    typealias E2E = SimulateEndToEndTests

    static func scenario(_ start: StartType, seed: Int, runs: Int, falseStart: Bool = false) -> Scenario {
        var options = SimulationOptions()
        options.seed = UInt64(seed); options.runs = runs; options.startType = start; options.falseStart = falseStart
        return Scenario(options: options)
    }

    static func records<T>(_ outcome: E2E.Outcome, _ pick: (ResultsReader.Record) -> T?) -> [T] {
        outcome.records.compactMap(pick)
    }

    /// Standing still in view: "ready" once; leaving the frame starts the
    /// clock at the instant the body left (from the frames, with its
    /// uncertainty); coming back through the gate stops it. Someone who
    /// walked past first started nothing.
    @Test func anInFrameStartRunsFromLeavingTheFrameToTheGate() throws {
        let runs = 3
        let outcome = try E2E.simulate(["--start", "in-frame", "--voice", "/nonexistent"], fps: 120, seed: 21, runs: runs)
        #expect(outcome.status == 0 && outcome.warnings.isEmpty)
        let scenario = Self.scenario(.inFrame, seed: 21, runs: runs)
        let starts = Self.records(outcome) { if case .start(let s) = $0 { return s } else { return nil } }
        #expect(starts.count == runs)
        for (start, truth) in zip(starts, scenario.startNanos) {
            #expect(start.startType == "inFrame" && start.source == "camera-frames")
            let stated = try #require(start.uncertaintyMs)
            let error = Double(start.startTimeNanos - truth) / 1e6
            #expect(abs(error) < 8 && stated >= 4 && stated < 10, "\(start.runId): \(error) ms (±\(stated))")
        }
        let crossings = E2E.crossings(outcome)
        #expect(crossings.map(\.runId) == ["run-001", "run-002", "run-003"])
        #expect(crossings.compactMap(\.truthCrossingTimeNanos) == scenario.truthNanos)
        for (c, s) in zip(crossings, starts) {
            #expect(c.startTimeNanos == s.startTimeNanos)
            #expect(c.totalUncertaintyMs > s.uncertaintyMs! && c.totalUncertaintyMs < s.uncertaintyMs! + 2)
        }
        let lines = outcome.console.split(separator: "\n")
        #expect(lines.filter { $0.contains("athlete still in view: ready") }.count == runs)
        #expect(lines.filter { $0.contains("in-frame start: left the frame") }.count == runs)
        #expect(outcome.console.contains("in-frame starts: largest error"))
    }

    /// A countdown with the athlete set in view: each run's reaction is
    /// recorded (GO to the first movement), close to the truth, and carried
    /// by the run's crossing; nobody went early, so no false start.
    @Test func aCalledStartRecordsTheReaction() throws {
        let runs = 3
        let outcome = try E2E.simulate(["--start", "countdown", "--voice", "/nonexistent"], fps: 120, seed: 22, runs: runs)
        #expect(outcome.status == 0 && outcome.warnings.isEmpty)
        let scenario = Self.scenario(.countdown, seed: 22, runs: runs)
        let reactions = Self.records(outcome) { if case .reaction(let r) = $0 { return r } else { return nil } }
        #expect(reactions.map(\.runId) == ["run-001", "run-002", "run-003"])
        for (r, (go, truth)) in zip(reactions, zip(scenario.startNanos, scenario.movementNanos)) {
            #expect(r.goTimeNanos == go && !r.falseStart && r.truthMovementTimeNanos == truth)
            let error = try #require(r.movementErrorMs)
            #expect(abs(error) < 8, "\(r.runId): first movement \(error) ms from the truth")
            #expect((100...300).contains(try #require(r.reactionMs)))
        }
        let crossings = E2E.crossings(outcome)
        #expect(crossings.count == runs)
        for (c, r) in zip(crossings, reactions) {
            #expect(abs(try #require(c.reactionMs) - r.reactionMs!) < 0.001 && !c.falseStart)
        }
        #expect(outcome.console.contains("athlete set and still in view: watching for a false start"))
        #expect(!outcome.console.contains("FALSE START"))
    }

    /// --false-start: the athlete goes before GO or within 100 ms of it;
    /// every run is flagged (record, crossing, table), with the false
    /// start's buzzes and light, and still timed from GO.
    @Test func anAthleteWhoGoesEarlyIsAFalseStart() throws {
        let runs = 3
        let outcome = try E2E.simulate(["--start", "voice", "--false-start", "--voice", "/nonexistent"], fps: 120, seed: 23, runs: runs)
        #expect(outcome.status == 0 && outcome.warnings.isEmpty)
        let scenario = Self.scenario(.voice, seed: 23, runs: runs, falseStart: true)
        let reactions = Self.records(outcome) { if case .reaction(let r) = $0 { return r } else { return nil } }
        #expect(reactions.count == runs && reactions.allSatisfy(\.falseStart))
        for (r, truth) in zip(reactions, scenario.movementNanos) {
            #expect(abs(try #require(r.movementErrorMs)) < 8 && r.truthMovementTimeNanos == truth)
        }
        let crossings = E2E.crossings(outcome)
        #expect(crossings.count == runs && crossings.allSatisfy(\.falseStart))
        let console = outcome.console
        #expect(console.split(separator: "\n").filter { $0.contains("(false start)") && $0.contains("LED") }.count == runs)
        #expect(console.split(separator: "\n").filter { $0.contains("♪ buzz") }.count >= runs)
        #expect(console.contains("FALSE START"))
        #expect(console.contains("false-start verdicts right in 3 of 3"))
        // Timed, but no one's best: the table names no best run.
        #expect(!console.contains("best run:"))
    }

    /// A called start with nobody still in view (the athlete set far from
    /// this box): the reaction is not measured, and the record says why.
    @Test func withNobodyInViewTheReactionIsNotMeasured() throws {
        let camera = CameraModel(width: 320, height: 240, viewWidthMetres: 4, readoutNanos: 8_000_000,
                                 exposureNanos: 1_000_000, noiseSigma: 2)
        let renderer = SceneRenderer(camera: camera, scene: Scene(runners: []), seed: 3)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: 320 * 240)
        defer { pixels.deallocate() }
        let format = FrameFormat(width: 320, height: 240, fps: 120, readoutNanos: 8_000_000, exposureNanos: 1_000_000)
        var source = StartWatchSource(format: format, startType: .countdown)
        source.learn()
        var outcomes: [StartWatchSource.Outcome] = []
        for k in 0..<240 {
            let t = Int64(k) * 8_333_333
            if k == 60 { source.calling(watchFromNanos: t) }
            if k == 180, let outcome = source.go(atNanos: t) { outcomes.append(outcome) }
            renderer.render(topRowNanos: t, frameIndex: UInt64(k), into: pixels)
            let frame = LumaFrame(pixels: pixels, width: 320, height: 240, rowStride: 320, timestampNanos: t, sequence: UInt32(k))
            if let outcome = source.frame(frame) { outcomes.append(outcome) }
        }
        #expect(outcomes == [.reaction(go: 180 * 8_333_333, movement: nil, unseen: "nobody still in view after \"Set\"")])
    }

    /// The reaction record reads back as written; its verdict follows the
    /// 100 ms rule.
    @Test func aReactionRecordReadsBack() throws {
        let unseen = ReactionRecord(sessionId: "s", runId: "run-001", goTimeNanos: 5, movementTimeNanos: nil, uncertaintyMs: nil,
                                    unseen: "nobody still in view after \"Set\"", timestamp: 0)
        #expect(!unseen.falseStart && unseen.text == "reaction not measured: nobody still in view after \"Set\"")
        let early = ReactionRecord(sessionId: "s", runId: "run-002", goTimeNanos: 1_000_000_000, movementTimeNanos: 1_099_000_000,
                                   uncertaintyMs: 2, unseen: nil, timestamp: 0, truthMovementTimeNanos: 1_098_000_000)
        #expect(early.falseStart && early.text == "FALSE START: moved 0.099 s after GO (under 0.100 s)")
        let fair = ReactionRecord(sessionId: "s", runId: "run-003", goTimeNanos: 0, movementTimeNanos: 100_000_000,
                                  uncertaintyMs: 2, unseen: nil, timestamp: 0)
        #expect(!fair.falseStart && fair.text == "reaction 0.100 s")
        let parsed = ResultsReader.parse(unseen.jsonLine() + "\n" + early.jsonLine() + "\n" + fair.jsonLine() + "\n")
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.records == [.reaction(unseen), .reaction(early), .reaction(fair)])
        #expect(early.movementErrorMs == 1)
    }
}

import Testing
import GateSim
@testable import GateBox

@Suite struct ArgumentParserTests {
    @Test func simulateWithEveryOption() throws {
        let command = try ArgumentParser.parse(["--simulate", "--seed", "9", "--runs", "3", "--fps", "240",
                                                "--speed", "7.5", "--gate", "0.4", "--mode", "experimental", "--knock", "2.5",
                                                "--data-dir", "/tmp/d", "--fast", "--photos", "off"])
        guard case .simulate(let o) = command else { Issue.record("not simulate: \(command)"); return }
        #expect(o.simulation.seed == 9 && o.simulation.runs == 3 && o.simulation.fps == 240)
        #expect(o.simulation.speedMetresPerSecond == 7.5 && o.simulation.gatePosition == 0.4)
        #expect(o.mode == .experimental && o.simulation.knockNanos == 2_500_000_000)
        #expect(o.dataDirectory == "/tmp/d" && o.fast && !o.photos.enabled)
    }

    @Test func defaultsAndEqualsForm() throws {
        guard case .simulate(let o) = try ArgumentParser.parse(["--simulate"]) else { Issue.record("not simulate"); return }
        #expect(o.simulation == SimulationOptions() && !o.fast && o.dataDirectory == nil)
        guard case .simulate(let p) = try ArgumentParser.parse(["--fast", "--simulate", "--seed=4"]) else { Issue.record("not simulate"); return }
        #expect(p.fast && p.simulation.seed == 4)
        guard case .simulate(let q) = try ArgumentParser.parse(["--simulate", "--start", "voice", "--false-start"]) else { Issue.record("not simulate"); return }
        #expect(q.simulation.startType == .voice && q.simulation.falseStart)
        guard case .simulate(let f) = try ArgumentParser.parse(["--simulate", "--start", "in-frame"]) else { Issue.record("not simulate"); return }
        #expect(f.simulation.startType == .inFrame && !f.simulation.falseStart)
        guard case .simulate(let h) = try ArgumentParser.parse(["--simulate", "--http", "127.0.0.1:8080"]) else { Issue.record("not simulate"); return }
        #expect(h.http?.text == "127.0.0.1:8080")
        guard case .run(let r) = try ArgumentParser.parse(["run", "--http", ":8081"]) else { Issue.record("not run"); return }
        #expect(r.http?.text == "0.0.0.0:8081")
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--simulate", "--http", "localhost:8080"]) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--simulate", "--http", ":8080", "--boxes", "2"]) }
    }

    @Test func resultsHelpVersion() throws {
        guard case .results(let r) = try ArgumentParser.parse(["results", "--csv", "--data-dir", "x", "--session", "session-0002"])
        else { Issue.record("not results"); return }
        #expect(r.csv && r.dataDirectory == "x" && r.session == "session-0002")
        #expect(try ArgumentParser.parse(["--help"]) == .help)
        #expect(try ArgumentParser.parse([]) == .help)
        #expect(try ArgumentParser.parse(["--version"]) == .version)
    }

    @Test func peersAndBLEProbe() throws {
        guard case .peers(let p) = try ArgumentParser.parse(["peers", "--scan", "--controller", "hci1", "--seconds", "3"])
        else { Issue.record("not peers"); return }
        #expect(p.scan && p.controller == "hci1" && p.seconds == 3)
        guard case .bleProbe(let b) = try ArgumentParser.parse(["ble-probe", "--connect", "any", "--secure", "--hold-ms", "500",
                                                                "--connect-timeout-ms", "1500", "--message", "hi"])
        else { Issue.record("not ble-probe"); return }
        #expect(b.connect == "any" && b.secure && b.holdMillis == 500 && b.connectTimeoutMillis == 1500 && b.message == "hi")
        guard case .bleProbe(let l) = try ArgumentParser.parse(["ble-probe", "--listen", "--once"]) else { Issue.record("not ble-probe"); return }
        #expect(l.connect == nil && l.once)
    }

    @Test(arguments: [
        (["--simulate", "--fps", "abc"], "--fps expects an integer from 30 to 1000 (frames per second), got 'abc'"),
        (["--simulate", "--mode", "fast"], "--mode expects photo-finish, precision or experimental, got 'fast'"),
        (["--simulate", "--fps", "5"], "--fps expects an integer from 30 to 1000 (frames per second), got '5'"),
        (["--simulate", "--runs"], "--runs needs a value: an integer from 1 to 1000 (laps after a flying start, or runs)"),
        (["--simulate", "--speed", "20"], "--speed expects a speed in m/s from 2 to 12, got '20'"),
        (["--simulate", "--gate", "--fast"], "--gate needs a value: a fraction of the image width from 0.1 to 0.9"),
        (["--simulate", "--seed", "-1"], "--seed expects a non-negative integer, got '-1'"),
        (["--simulate", "--colour", "red"], "unknown option '--colour' (accepted here: --preset, --athletes, --seed, --runs, --fps, --speed, --gate, --start, --mode, --knock, --data-dir, --fast, --photos, --false-start, --voice, --http, --soak, --boxes, --distance, --distances, --interval-ms, --drift-ppm, --loss, --link-drop, --plain-sync, --controller)"),
        (["--bogus"], "unknown option '--bogus' (try 'ts-gate --help')"),
        (["--simulate", "--start", "sprint"], "--start: expected flying, touch-release, countdown, voice or in-frame, got 'sprint'"),
        (["--simulate", "--false-start"], "--false-start: the athlete goes early on a called start of one box: use it with --start countdown or --start voice, without --boxes"),
        (["--simulate", "--start", "countdown", "--false-start", "--boxes", "2"], "--false-start: the athlete goes early on a called start of one box: use it with --start countdown or --start voice, without --boxes"),
        (["--simulate", "--start", "in-frame", "--boxes", "2"], "--start in-frame with --boxes: an in-frame start is one box's (agility drills); use it without --boxes"),
        (["launch"], "unknown command 'launch' (commands: run, --simulate, replay, render, results, presets, calc, athletes, session, export, selftest, peers, --help, --version)"),
        (["ble-probe", "--controller", "hci0"], "ble-probe takes either --listen or --connect ADDR|any"),
        (["ble-probe", "--listen", "--connect", "any"], "ble-probe takes either --listen or --connect ADDR|any"),
        (["peers", "--seconds", "0"], "--seconds expects seconds to scan, 1 to 120, got '0'"),
        (["results", "--fast"], "unknown option '--fast' (accepted here: --data-dir, --csv, --session, --units, --from, --to, --distance, --start, --athlete, --preset, --boxes, --sort, --search)"),
    ])
    func badCommandLinesSayWhatIsAccepted(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments) }
    }
}

import Testing
import GateCore
import GateDevices
import GateSim
@testable import GateBox

/// The loop itself, on the simulated platform with a scenario cut short.
@Suite struct BoxLoopTests {
    /// A session that ends (here the scenario; on the box a stop signal or
    /// a reload takes the same path) a frame after the last runner's torso
    /// reached the line: the detector still waits for that crossing's
    /// postroll frames. It is timed and recorded all the same, before the
    /// end record.
    @Test func aSessionEndingJustAfterACrossingStillRecordsIt() throws {
        var options = SimulationOptions()
        options.seed = 4; options.runs = 1; options.fps = 120; options.lapMetres = 12
        var scenario = Scenario(options: options)
        let last = try #require(scenario.truthNanos.last)
        scenario.endNanos = last + 1_000_000_000 / Int64(options.fps) + 2_000_000

        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var detector = DetectorSettings()
        detector.gatePosition = options.gatePosition
        let configuration = BoxConfiguration(detector: detector, viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        var (loop, log, sink) = try Self.loop(scenario, configuration, in: dir)
        defer { loop.platform.release(); log.close(); sink.close() }

        #expect(try loop.run() == .completed)
        #expect(loop.records.map(\.truthCrossingTimeNanos) == scenario.truthNanos.map { Optional($0) })
        let lastRecord = try #require(loop.records.last)
        #expect(abs(Double(lastRecord.crossingTimeNanos - last) / 1e6) < 1.5)
        #expect(loop.endRecord?.laps == options.runs)
    }

    /// A tap while a voice start is being called calls it off: no GO, no
    /// start; the athlete who then runs through is not timed, and the next
    /// tap calls a new start whose GO starts the clock.
    @Test func aTapBeforeGoCallsTheStartOff() throws {
        var options = SimulationOptions()
        options.seed = 5; options.runs = 2; options.fps = 120; options.startType = .voice
        var scenario = Scenario(options: options)
        let firstCall = try #require(scenario.presses.first).releaseNanos
        scenario.presses.insert(Scenario.Press(control: .button, pressNanos: firstCall + 5_000_000_000,
                                               releaseNanos: firstCall + 5_150_000_000), at: 1)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var configuration = BoxConfiguration(detector: DetectorSettings(), viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        configuration.startType = .voice
        var (loop, log, sink) = try Self.loop(scenario, configuration, in: dir)
        defer { loop.platform.release(); log.close(); sink.close() }

        #expect(try loop.run() == .completed)
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(text.contains("button: start called off before GO"))
        #expect(text.components(separatedBy: "(GO)").count == 2)                  // one GO played
        #expect(loop.records.map(\.startTimeNanos) == [scenario.startNanos[1]])
        #expect(loop.records.map(\.runId) == ["run-001"])
    }

    /// The loop on the simulated platform, its session in `dir`, its console
    /// lines in dir/console.txt. The caller releases the platform and closes both.
    static func loop(_ scenario: Scenario, _ configuration: BoxConfiguration, in dir: TemporaryDirectory,
                     journal: Bool = false) throws -> (BoxLoop<SimulatedPlatform>, SessionLog, FileDescriptor) {
        let log = try ResultsStore(dataDirectory: dir.path).createSession()
        let sink = try FileDescriptor.open(dir.path + "/console.txt", [.writeOnly, .create, .truncate])
        var console = Console(output: sink, errors: sink)
        console.journal = journal
        let platform = SimulatedPlatform(scenario: scenario, paced: false, signals: nil, console: console)
        return (BoxLoop(platform: platform, configuration: configuration, log: log, console: console), log, sink)
    }
}

/// A refused ts-gate.conf (the box runs on its last good one): said at the
/// session's start with the warning priority, and the error pattern shown
/// until a person acts.
@Suite struct SettingsRefusedTests {
    @Test func theSessionStartsWithTheErrorPatternAndSaysWhy() throws {
        var options = SimulationOptions()
        options.seed = 4; options.runs = 1; options.fps = 120
        let scenario = Scenario(options: options)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var configuration = BoxConfiguration(detector: DetectorSettings(), viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        configuration.settingsRefused = "ts-gate.conf line 3: unknown key 'gate.postion'"
        var (loop, log, sink) = try BoxLoopTests.loop(scenario, configuration, in: dir, journal: true)
        defer { loop.platform.release(); log.close(); sink.close() }

        try loop.begin()
        #expect(loop.platform.lights.current == .error)
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(text.contains("<4>[   0.000] settings refused: ts-gate.conf line 3: unknown key 'gate.postion'\n"))
        #expect(RunCommand.serviceStatus(.idle, cameraLost: false, settingsRefused: true).contains("last good settings"))
        #expect(RunCommand.serviceStatus(.idle, cameraLost: false) == "idle: press the button to arm")
    }
}

import Foundation
import Testing
import GateSim

/// The built `ts-gate` executable, run as a person runs it.
@Suite struct ProgramTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static var binary: String {
        // The test bundle sits in the build products directory next to the executable.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var candidate = products.appendingPathComponent("ts-gate").path
        if !FileManager.default.fileExists(atPath: candidate) {
            candidate = products.deletingLastPathComponent().appendingPathComponent("ts-gate").path
        }
        return candidate
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                   errors: String(decoding: errors, as: UTF8.self))
    }

    @Test func theExecutableIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "build it first: swift build (looked at \(Self.binary))")
    }

    @Test func helpAndVersion() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("ts-gate --simulate [options]"))
        let version = try Self.run(["--version"])
        #expect(version.status == 0 && version.output == "ts-gate 0.1.0\n")
    }

    @Test func aBadOptionIsOneLineAndStatusTwo() throws {
        let run = try Self.run(["--simulate", "--fps", "fast"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.errors == "ts-gate: --fps expects an integer from 30 to 1000 (frames per second), got 'fast'\n")
    }

    @Test func simulateThenReadTheResultsBack() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let session = try Self.run(["--simulate", "--fast", "--runs", "1", "--data-dir", dir.path])
        #expect(session.status == 0, "\(session.errors)")
        #expect(session.output.contains("LED ● steady         (armed)"))
        #expect(session.output.contains("every simulated crossing was detected (2 of 2)"))
        #expect(session.output.contains("  lap    time s  split s    m/s   km/h    mph   ±ms  error ms"))

        let table = try Self.run(["results", "--data-dir", dir.path])
        #expect(table.status == 0)
        #expect(table.output.contains("session-0001: simulated solo laps"))
        #expect(table.output.contains("session ended: completed"))

        let csv = try Self.run(["results", "--data-dir", dir.path, "--csv"])
        let lines = csv.output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first == "session,lap,run,crossing_time_ns,elapsed_s,split_s,speed_mps,speed_kmh,speed_mph,uncertainty_ms,direction,stable,detection_error_ms,segment_splits_s,segment_speeds_mps,segment_cumulative_s,sync_ms,sync_error_ms")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("session-0001,") })
    }

    @Test func resultsSurviveATornLastLine() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.run(["--simulate", "--fast", "--runs", "1", "--data-dir", dir.path])
        // A power cut mid-write: cut the file inside its last line.
        let path = dir.path + "/session-0001/results.jsonl"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text.removeLast(30)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let run = try Self.run(["results", "--data-dir", dir.path])
        #expect(run.status == 0)
        #expect(run.errors.contains("results.jsonl line 4: torn last line"))
        #expect(run.output.contains("session has no end record"))
        #expect(run.output.contains("    1 "))
    }

    @Test func aMissingDataDirectoryIsNamed() throws {
        let run = try Self.run(["results", "--data-dir", "/nonexistent/ts-gate"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("ts-gate: /nonexistent/ts-gate: no such data directory"))
    }
}

/// The file path: a clip rendered to Y4M and replayed gives exactly the
/// crossing the in-memory path (make accuracy) gives for the same frames.
@Suite struct RenderReplayProgramTests {
    @Test func renderedClipReplaysToItsTruth() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clipPath = dir.path + "/clip.y4m"
        let render = try ProgramTests.run(["render", "run-30fps-0", "--out", clipPath])
        #expect(render.status == 0, "\(render.errors)")
        let truthLines = try String(contentsOfFile: dir.path + "/clip.truth.json", encoding: .utf8).split(separator: "\n")
        let clip = try JSONSerialization.jsonObject(with: Data(truthLines[0].utf8)) as! [String: Any]
        let truth = try JSONSerialization.jsonObject(with: Data(truthLines[1].utf8)) as! [String: Any]
        #expect(clip["fps"] as? Int == 30 && truthLines.count == 2)
        let replay = try ProgramTests.run(["replay", clipPath, "--json",
                                           "--gate", "\(clip["gatePosition"]!)", "--readout-ms", "\(clip["readoutMs"]!)",
                                           "--exposure-ms", "\(clip["exposureMs"]!)"])
        #expect(replay.status == 0, "\(replay.errors)")
        let crossings = replay.output.split(separator: "\n").compactMap { line -> [String: Any]? in
            let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return o?["crossingTimeNanos"] != nil ? o : nil
        }
        #expect(crossings.count == 1)
        let found = try #require(crossings.first?["crossingTimeNanos"] as? Int64)
        let expected = try #require(truth["crossingTimeNanos"] as? Int64)
        let spec = try #require(AccuracyCorpus.clips().first { $0.name == "run-30fps-0" })
        let inMemory = AccuracySliceTests.errors(of: spec)
        #expect(inMemory.errorsMs.count == 1)
        // Equal but for the parameters' rounding in the truth file (gate to 1e-6, times to 1 us).
        let difference = try #require(inMemory.errorsMs.first) - Double(found - expected) / 1e6
        #expect(abs(difference) < 0.01, "replayed \(found), truth \(expected), in memory off by \(difference) ms")
    }

    /// `ts-gate render bench-640x480` writes the frames `make bench`'s
    /// detector benchmarks time (`BenchClips`, rendered as the benchmark
    /// renders them: frame i at i / 120 s), and replayed they hold the one
    /// crossing the benchmark's warm-up asks for, at its truth.
    @Test func theBenchmarksClipRendersTheFramesTheBenchmarkTimes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let render = try ProgramTests.run(["render", "bench-640x480", "--out", dir.path + "/bench.y4m"])
        #expect(render.status == 0, "\(render.errors)")
        let clip = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/bench.y4m"))
        let header = clip.firstIndex(of: 0x0A)! + 1
        let frameBytes = 640 * 480
        #expect(clip.count == header + BenchClips.frameCount * (6 + frameBytes))
        let spec = BenchClips.clip(width: 640, height: 480)
        let renderer = spec.renderer()
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: frameBytes)
        defer { pixels.deallocate() }
        for i in [0, 100, 120, 239] {
            renderer.render(topRowNanos: Int64(i) * 1_000_000_000 / Int64(BenchClips.fps), frameIndex: UInt64(i), into: pixels)
            let at = header + i * (6 + frameBytes) + 6
            #expect(clip[at..<(at + frameBytes)] == Data(bytes: pixels, count: frameBytes), "frame \(i)")
        }
        let replay = try ProgramTests.run(["replay", dir.path + "/bench.y4m", "--json", "--readout-ms", "8",
                                           "--exposure-ms", "1"])
        #expect(replay.status == 0, "\(replay.errors)")
        let crossings = replay.output.split(separator: "\n").filter { $0.contains("crossingTimeNanos") }
        #expect(crossings.count == 1, "\(replay.output)")
        let found = crossings.first.flatMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["crossingTimeNanos"] as? Int64
        }
        let error = Double((found ?? 0) - spec.truthNanos[0]) / 1e6
        #expect(abs(error) < 1, "crossing \(found ?? 0), truth \(spec.truthNanos[0]): \(error) ms")
    }

    /// The VM rig's clip as bare GREY frames: the Y4M's frames without its
    /// header and FRAME lines, byte for byte.
    @Test func rawRenderIsTheY4MsLumaAlone() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let y4m = try ProgramTests.run(["render", "rig-vivid-640x480-60", "--out", dir.path + "/rig.y4m"])
        let raw = try ProgramTests.run(["render", "rig-vivid-640x480-60", "--raw", "--out", dir.path + "/rig.raw"])
        #expect(y4m.status == 0 && raw.status == 0, "\(y4m.errors)\(raw.errors)")
        let frames = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/rig.raw"))
        let clip = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/rig.y4m"))
        let frameBytes = 640 * 480
        #expect(frames.count == 210 * frameBytes)
        var stripped = Data()
        var at = clip.firstIndex(of: 0x0A)! + 1            // after the header line
        while at < clip.endIndex {
            at += 6                                          // "FRAME\n"
            stripped.append(clip[at..<(at + frameBytes)])
            at += frameBytes
        }
        #expect(stripped == frames)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/rig.truth.json"))
    }

    @Test func renderRefusesAnUnknownClip() throws {
        let run = try ProgramTests.run(["render", "no-such-clip"])
        #expect(run.status == 2)
        #expect(run.errors == "ts-gate: render: no clip named 'no-such-clip' (see 'ts-gate render --list')\n")
    }
}

/// `ts-gate selftest` off the box: every device is missing, and says so.
/// (The VM rig's selftest scenario runs it against real drivers.)
@Suite struct SelftestProgramTests {
    @Test func aBadConfigurationIsRefusedWithItsLine() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try "camera.fps = 120\ncamera.fsp = 60\n".write(toFile: dir.path + "/ts-gate.conf", atomically: true, encoding: .utf8)
        let board = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("board/vm-rig/board.conf").path
        let run = try ProgramTests.run(["selftest", "--board", board, "--config", dir.path + "/ts-gate.conf"])
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("ts-gate: " + dir.path + "/ts-gate.conf line 2: unknown key 'camera.fsp'"))
    }

    /// `run` keeps the configuration it started on (last-good.conf in the
    /// data directory); a later bad edit is refused by its line and the box
    /// runs on the kept one. Off the box the devices are missing, so each
    /// run stops at the camera, after the settings.
    @Test func runFallsBackToTheLastGoodConfiguration() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let board = dir.path + "/board.conf", config = dir.path + "/ts-gate.conf", data = dir.path + "/data"
        try "board = nowhere\ncamera.device = /nonexistent/video9\n".write(toFile: board, atomically: true, encoding: .utf8)
        let arguments = ["run", "--board", board, "--config", config, "--data-dir", data]

        try "gate.position = 0.4\ncamera.fsp = 60\n".write(toFile: config, atomically: true, encoding: .utf8)
        let nothingKept = try ProgramTests.run(arguments)
        #expect(nothingKept.status == 2)
        #expect(nothingKept.errors.hasPrefix("ts-gate: " + config + " line 2: unknown key 'camera.fsp' (known keys: "))
        #expect(!nothingKept.errors.contains("last good"))

        try "gate.position = 0.4\n".write(toFile: config, atomically: true, encoding: .utf8)
        let good = try ProgramTests.run(arguments)
        #expect(good.status == 1)
        #expect(good.errors.contains("ts-gate selftest checks every device"))
        #expect(try String(contentsOfFile: data + "/last-good.conf", encoding: .utf8) == "gate.position = 0.4\n")

        try "gate.position = 0.3\ncamera.fsp = 60\n".write(toFile: config, atomically: true, encoding: .utf8)
        let refused = try ProgramTests.run(arguments)
        #expect(refused.status == 1, "the box went on to its devices")
        #expect(refused.errors.hasPrefix("ts-gate: " + config + " line 2: unknown key 'camera.fsp' (known keys: "))
        #expect(refused.errors.contains("; running on the last good configuration until it is fixed (" + data + "/last-good.conf)\n"))
        #expect(refused.errors.contains("ts-gate selftest checks every device"))
        // The kept copy is still the good one.
        #expect(try String(contentsOfFile: data + "/last-good.conf", encoding: .utf8) == "gate.position = 0.4\n")
    }

    @Test func missingDevicesAreReportedAndFailTheSelftest() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try "board = nowhere\ncamera.device = /nonexistent/video9\nimu.bus = 250\ngpio.chip = gpiochip250\naudio.device = hw:29,0\n"
            .write(toFile: dir.path + "/board.conf", atomically: true, encoding: .utf8)
        let run = try ProgramTests.run(["selftest", "--board", dir.path + "/board.conf"])
        #expect(run.status == 1)
        #expect(run.output.contains("selftest of board nowhere"))
        #expect(run.output.contains("camera    NO    /nonexistent/video9"))
        #expect(run.output.contains("opening the camera failed: No such file or directory"))
        #expect(run.output.contains("imu       NO    /dev/i2c-250"))
        #expect(run.output.contains("speaker   NO    /dev/snd/pcmC29D0p"))
        // Optional unless required; on a machine without Bluetooth it says why.
        #expect(run.output.contains("bluetooth "))
        #expect(run.output.hasSuffix("selftest FAILED: a required device is missing or wrong\n"))
    }
}

import Foundation
import Testing
import GateCore
import GateDevices
@testable import GateBox

@Suite struct ReplayArgumentTests {
    @Test func everyOption() throws {
        let command = try ArgumentParser.parse(["replay", "--gate", "0.4", "clip.y4m", "--exposure-ms", "2.5",
                                                "--readout-ms=12", "--mode", "photo-finish", "--json", "--images", "pics"])
        var expected = ReplayOptions(file: "clip.y4m")
        expected.gatePosition = 0.4
        expected.exposureNanos = 2_500_000
        expected.readoutNanos = 12_000_000
        expected.json = true
        expected.imagesDirectory = "pics"
        #expect(command == .replay(expected))
        let defaults = try ArgumentParser.parse(["replay", "x.y4m"])
        #expect(defaults == .replay(ReplayOptions(file: "x.y4m")))
        guard case .replay(let precision) = try ArgumentParser.parse(["replay", "x.y4m", "--mode", "precision"]) else {
            Issue.record("not replay"); return
        }
        #expect(precision.mode == .precision)
        guard case .replay(let ntsc) = try ArgumentParser.parse(["replay", "x.mjpeg", "--fps", "120000/1001"]),
              case .replay(let whole) = try ArgumentParser.parse(["replay", "x.mjpeg", "--fps", "240"]) else {
            Issue.record("not replay"); return
        }
        #expect(ntsc.frameRate == FrameRate(numerator: 120_000, denominator: 1001))
        #expect(whole.frameRate == FrameRate(numerator: 240, denominator: 1))
    }

    static let accepted = "FILE, --gate, --exposure-ms, --readout-ms, --mode, --fps, --json, --images"
    static let needsFile = "replay needs a file: a YUV4MPEG2 clip, an MJPEG AVI or a raw MJPEG stream (ts-gate replay FILE [options])"
    static let fps = "frames per second as N or N/D, from 1 to 10000 (e.g. 120 or 120000/1001)"

    @Test(arguments: [
        (["replay"], needsFile),
        (["replay", "--json"], needsFile),
        (["replay", "a.y4m", "b.y4m"], "unexpected argument 'b.y4m' (accepted here: " + accepted + ")"),
        (["replay", "a.y4m", "--fps", "0"], "--fps expects " + fps + ", got '0'"),
        (["replay", "a.y4m", "--fps", "30/"], "--fps expects " + fps + ", got '30/'"),
        (["replay", "a.y4m", "--fps", "29.97"], "--fps expects " + fps + ", got '29.97'"),
        (["replay", "a.y4m", "--fps", "1/2"], "--fps expects " + fps + ", got '1/2'"),
        (["replay", "a.y4m", "--fps", "99999999999"], "--fps expects " + fps + ", got '99999999999'"),
        (["replay", "a.y4m", "--fps"], "--fps needs a value: " + fps),
        (["replay", "a.y4m", "--mode", "fast"], "--mode expects photo-finish, precision or experimental, got 'fast'"),
        (["replay", "a.y4m", "--mode"], "--mode needs a value: photo-finish, precision or experimental"),
        (["replay", "a.y4m", "--gate", "1.5"], "--gate expects a fraction of the image width from 0.1 to 0.9, got '1.5'"),
        (["replay", "a.y4m", "--readout-ms", "-1"], "--readout-ms expects a time in milliseconds from 0 to 100, got '-1'"),
        (["replay", "a.y4m", "--exposure-ms", "1e3"], "--exposure-ms expects a time in milliseconds from 0 to 100, got '1e3'"),
        (["replay", "a.y4m", "--images"], "--images needs a value: a directory for the PNG pictures"),
    ])
    func badReplayCommandLines(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments) }
    }
}

/// Runs `ts-gate` in this process, its output and errors captured in files.
struct CapturedRun {
    var status: Int32
    var output: String
    var errors: String

    init(_ arguments: [String], in dir: TemporaryDirectory, missingCPUFeatures: String = CPUFloor.missingHere()) throws {
        let outPath = dir.path + "/stdout-" + UUID().uuidString, errPath = dir.path + "/stderr-" + UUID().uuidString
        let out = try FileDescriptor.open(outPath, [.writeOnly, .create])
        let err = try FileDescriptor.open(errPath, [.writeOnly, .create])
        status = TSGate.main(arguments: arguments, console: Console(output: out, errors: err),
                             missingCPUFeatures: missingCPUFeatures)
        out.close()
        err.close()
        output = try String(contentsOfFile: outPath, encoding: .utf8)
        errors = try String(contentsOfFile: errPath, encoding: .utf8)
    }

    /// The output's JSON objects, one per line.
    func jsonLines() throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }
}

@Suite struct ReplayCommandTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var direction: CrossingDirection
        var speed: Double
        var darkShirt: Bool
        var testDescription: String { direction.code + " at " + String(speed) + " m/s" }
    }

    @Test(arguments: [Case(direction: .leftToRight, speed: 8, darkShirt: true),
                      Case(direction: .rightToLeft, speed: 6, darkShirt: false)])
    func aRenderedClipIsTimedToItsTruth(_ c: Case) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clip = try RenderedClip.oneRunner(path: dir.path + "/clip.y4m", speed: c.speed, direction: c.direction,
                                              darkShirt: c.darkShirt)
        let pictures = dir.path + "/pictures"
        let run = try CapturedRun(["replay", clip.path, "--readout-ms", "8", "--exposure-ms", "1", "--json",
                                   "--images", pictures], in: dir)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.isEmpty)
        let lines = try run.jsonLines()
        let crossings = lines.filter { $0["crossingTimeNanos"] != nil }
        try #require(crossings.count == 1, "\(run.output)")
        let crossing = crossings[0]
        let time = try #require(crossing["crossingTimeNanos"] as? Int64)
        let truth = clip.truthNanos[0]
        // Within 1.5 ms at 120 fps (issue 3 aims at 1 ms p95 over a corpus).
        #expect(abs(time - truth) <= 1_500_000, "crossing \(time) ns, truth \(truth) ns, error \(Double(time - truth) / 1e6) ms")
        #expect(crossing["direction"] as? String == c.direction.code)
        let frameIndex = try #require(crossing["frameIndex"] as? Int)
        let truthFrame = Double(truth) / (1e9 / 120)
        // The frame nearest the crossing (seed 002), not the one that ended the postroll.
        #expect(abs(Double(frameIndex) - truthFrame) <= 1, "frame \(frameIndex), truth at frame \(truthFrame)")
        for key in ["uncertaintyMs", "interpolationOffsetMs", "occupancyAtTrigger", "speedPixelsPerSecond"] {
            #expect(crossing[key] is NSNumber, "\(key)")
        }
        let offset = try #require(crossing["interpolationOffsetMs"] as? Double)
        #expect(abs(Double(time - clip.header.frameRate.timestampNanos(frame: frameIndex)) / 1e6 - offset) < 0.001)
        #expect(abs(offset) <= 1000.0 / 120 / 2 + 0.001, "offset \(offset) ms is more than half a frame")
        #expect(crossing["type"] as? String == "crossing" && crossing["crossing"] as? Int == 1)

        let end = try #require(lines.last)
        #expect(end["type"] as? String == "replay_end" && end["crossingTimeNanos"] == nil)
        #expect(end["frames"] as? Int == clip.frames && end["crossings"] as? Int == 1)
        #expect(end["fpsNumerator"] as? Int == 120 && end["fpsDenominator"] as? Int == 1)

        // The pictures: the frame with the gate line, and the strip around the crossing.
        #expect(crossing["frameImage"] as? String == pictures + "/crossing-01-frame.png")
        #expect(crossing["stripImage"] as? String == pictures + "/crossing-01-strip.png")
        let frame = try PNGCheck.read(pictures + "/crossing-01-frame.png")
        #expect(frame.width == 640 && frame.height == 480)
        let strip = try PNGCheck.read(pictures + "/crossing-01-strip.png")
        // 0.25 s each side at 120 fps: 61 frames, each 10 pixels wide, rows doubled like the frame.
        #expect(strip.width == 610 && strip.height == 480)
        // Time runs left to right: the gate column shows the empty track well
        // before the crossing and the shirt just after it (torso rows 105-145, doubled).
        let centre = clip.header.frameRate.nearestFrame(atNanos: truth)
        let crossingColumn = 30 + Double(truth - clip.header.frameRate.timestampNanos(frame: centre)) / (1e9 / 120)
        func torsoBand(framesFromCrossing frames: Double) -> [UInt8] {
            let x = Int((crossingColumn + frames + 0.5) * 10)
            return stride(from: 2 * 105, to: 2 * 145, by: 2).map { strip.pixels[$0 * strip.width + x] }
        }
        let before = torsoBand(framesFromCrossing: -12)
        let after = torsoBand(framesFromCrossing: 2.5)
        #expect(before.allSatisfy { $0 > 95 && $0 < 175 }, "track behind the gate: \(before)")
        let shirt = after.filter { c.darkShirt ? $0 < 80 : $0 > 190 }.count
        #expect(shirt >= after.count / 2, "shirt at the gate: \(after)")
    }

    /// The frame picture is the frame nearest the crossing instant, not the
    /// frame the detector reported it in (its postroll: frames later, the
    /// runner far past the line at 30 fps).
    /// A clip that ends two frames after the torso reached the line: the
    /// crossing waits for three samples past it (the postroll) that never
    /// come, and is timed at the clip's end with the two there are.
    @Test func aClipEndingJustPastTheLineStillTimesItsRunner() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clip = try RenderedClip.oneRunner(path: dir.path + "/clip.y4m", seconds: 111.0 / 120)
        let run = try CapturedRun(["replay", clip.path, "--readout-ms", "8", "--exposure-ms", "1", "--json"], in: dir)
        #expect(run.status == 0, "\(run.errors)")
        let lines = try run.jsonLines()
        let crossings = lines.filter { $0["crossingTimeNanos"] != nil }
        try #require(crossings.count == 1, "\(run.output)")
        let time = try #require(crossings[0]["crossingTimeNanos"] as? Int64)
        #expect(abs(time - clip.truthNanos[0]) <= 1_500_000, "error \(Double(time - clip.truthNanos[0]) / 1e6) ms")
        #expect(lines.last?["crossings"] as? Int == 1)
    }

    @Test func theFramePictureIsTheFrameNearestTheCrossing() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clip = try RenderedClip.oneRunner(path: dir.path + "/clip.y4m", fps: 30, seconds: 1.3, crossingNanos: 880_000_000)
        let pictures = dir.path + "/pictures"
        let run = try CapturedRun(["replay", clip.path, "--readout-ms", "8", "--exposure-ms", "1", "--json",
                                   "--images", pictures], in: dir)
        #expect(run.status == 0, "\(run.errors)")
        let crossings = try run.jsonLines().filter { $0["type"] as? String == "crossing" }
        try #require(crossings.count == 1, "\(run.output)")
        let time = try #require(crossings[0]["crossingTimeNanos"] as? Int64)
        #expect(abs(time - clip.truthNanos[0]) <= 3_000_000, "error \(Double(time - clip.truthNanos[0]) / 1e6) ms")
        let shown = try #require(crossings[0]["frameImageIndex"] as? Int, "\(crossings[0])")
        let rate = clip.header.frameRate
        #expect(shown == Int((Double(time) / rate.frameNanos).rounded()))

        // The clip's frames as the replay read them, and the frame the detector reported in.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: clip.path)))
        func luma(_ k: Int) -> [UInt8] {
            let start = clip.header.text.utf8.count + k * (6 + clip.header.frameBytes) + 6
            return Array(bytes[start..<(start + clip.header.lumaBytes)])
        }
        var settings = DetectorSettings()
        settings.readoutNanos = 8_000_000
        settings.exposureNanos = 1_000_000
        let detector = CrossingDetector(mode: .photoFinish, width: clip.header.width, height: clip.header.height,
                                        settings: settings)
        var reported: Int?
        for k in 0..<clip.frames where reported == nil {
            let plane = luma(k)
            let found = plane.withUnsafeBufferPointer {
                detector.process(LumaFrame(pixels: $0.baseAddress!, width: clip.header.width, height: clip.header.height,
                                           rowStride: clip.header.width, timestampNanos: rate.timestampNanos(frame: k),
                                           sequence: UInt32(k)))
            }
            if found?.timeNanos == time { reported = k }
        }
        let report = try #require(reported)
        // The postroll delays the report: the picture is an earlier frame than before.
        #expect(report >= shown + 3, "reported in frame \(report), picture of frame \(shown)")

        // The picture is that frame, doubled, with the dashed gate line at x 320.
        let picture = try PNGCheck.read(pictures + "/crossing-01-frame.png")
        try #require(picture.width == 640 && picture.height == 480)
        let frame = luma(shown)
        var differing = 0
        for y in 0..<480 {
            for x in 0..<640 where x != 320 && picture.pixels[y * 640 + x] != frame[(y / 2) * 320 + x / 2] { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels differ from frame \(shown)")
        let line = (0..<480).map { picture.pixels[$0 * 640 + 320] }
        #expect(line[0] == 255 && line[6] == 0 && line[12] == 255)
        // The dark shirt's front (torso rows 105-145, doubled) at the gate line:
        // within half a frame's travel (21 px at 640 px/s) and the rolling shutter.
        var front = 0
        for y in stride(from: 2 * 105, to: 2 * 145, by: 2) {
            for x in 0..<640 where x != 320 && picture.pixels[y * 640 + x] < 60 { front = max(front, x) }
        }
        #expect(abs(front - 320) <= 2 * 16, "shirt front at x \(front) of 640, gate line at 320")

        // Without --images, no pictures and no frameImageIndex.
        let plain = try CapturedRun(["replay", clip.path, "--readout-ms", "8", "--exposure-ms", "1", "--json"], in: dir)
        let plainCrossing = try #require(try plain.jsonLines().first { $0["type"] as? String == "crossing" })
        #expect(plainCrossing["frameImageIndex"] == nil && plainCrossing["frameImage"] == nil)
        #expect(plainCrossing["frameIndex"] as? Int == crossings[0]["frameIndex"] as? Int)
    }

    /// The ring keeps the last `ringFrames` frames: a crossing older than
    /// the oldest gets the oldest, one after the newest the newest.
    @Test func theFramePictureComesFromTheRingOfRecentFrames() {
        let header = Y4MHeader(width: 16, height: 16, frameRate: FrameRate(numerator: 30, denominator: 1), colourSpace: .mono)
        let pictures = ReplayPictures(directory: "unused", header: header, gatePosition: 0.5, settings: DetectorSettings())
        // 4 + 1 + 5 (150 ms at 30 fps) + 4.
        #expect(pictures.capacity == 14)
        let plane = [UInt8](repeating: 0, count: 16 * 16)
        for k in 0..<20 {
            plane.withUnsafeBufferPointer {
                pictures.record(LumaFrame(pixels: $0.baseAddress!, width: 16, height: 16, rowStride: 16,
                                          timestampNanos: header.frameRate.timestampNanos(frame: k), sequence: UInt32(k)),
                                index: k)
            }
        }
        #expect(pictures.frameImageIndex(crossingNanos: header.frameRate.timestampNanos(frame: 15) + 16_000_000) == 15)
        #expect(pictures.frameImageIndex(crossingNanos: header.frameRate.timestampNanos(frame: 15) + 17_000_000) == 16)
        #expect(pictures.frameImageIndex(crossingNanos: 0) == 6)
        #expect(pictures.frameImageIndex(crossingNanos: 2_000_000_000) == 19)
    }

    @Test func theTableNamesTheClipAndEachCrossing() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clip = try RenderedClip.oneRunner(path: dir.path + "/clip.y4m", fps: 60, seconds: 1.5, colourSpace: .mono)
        let run = try CapturedRun(["replay", clip.path, "--readout-ms", "8"], in: dir)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "replay " + clip.path + ": 320x240 Cmono, 60 fps (F60:1), gate at 0.500 of the width, photo-finish")
        #expect(lines.dropFirst().first == "crossing   frame       time s  dir   speed px/s      ±ms")
        try #require(lines.count == 4, "\(run.output)")
        let row = lines[2].split(separator: " ")
        #expect(row.count == 6 && row[0] == "1" && row[3] == "ltr")
        let seconds = try #require(Double(row[2]))
        #expect(abs(seconds - Double(clip.truthNanos[0]) / 1e9) < 0.003)
        // 8 m/s over 4 m of lane in 320 pixels: 640 px/s.
        let speed = try #require(Double(row[4]))
        #expect(abs(speed - 640) < 40)
        #expect(lines[3] == "1 crossing in 90 frames (1.500 s)")
    }

    @Test func aClipWithNobodyHasNoCrossing() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/empty.y4m"
        var bytes = Array("YUV4MPEG2 W64 H48 F30:1 Cmono\n".utf8)
        for _ in 0..<40 { bytes += Array("FRAME\n".utf8) + [UInt8](repeating: 120, count: 64 * 48) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let table = try CapturedRun(["replay", path], in: dir)
        #expect(table.status == 0 && table.output.hasSuffix("no crossing in 40 frames (1.333 s)\n"))
        let json = try CapturedRun(["replay", path, "--json"], in: dir)
        let lines = try json.jsonLines()
        #expect(lines.count == 1 && lines[0]["type"] as? String == "replay_end" && lines[0]["crossings"] as? Int == 0)
    }
}

/// The built executable, run as a person runs it (see ProgramTests).
@Suite struct ReplayProgramTests {
    @Test func replaysARenderedClip() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clip = try RenderedClip.oneRunner(path: dir.path + "/run.y4m")
        let run = try ProgramTests.run(["replay", clip.path, "--readout-ms", "8", "--exposure-ms", "1", "--json",
                                        "--images", dir.path + "/pics"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2)
        let crossing = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let time = try #require(crossing["crossingTimeNanos"] as? Int64)
        #expect(abs(time - clip.truthNanos[0]) <= 1_500_000)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/pics/crossing-01-strip.png"))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/pics/crossing-01-frame.png"))
        let help = try ProgramTests.run(["--help"])
        #expect(help.output.contains("ts-gate replay FILE [options]"))
    }

    /// A 32x24 grey clip of `frames` frames, cut to `keep` bytes if given.
    static func smallClip(_ path: String, frames: Int, keep: Int? = nil) throws {
        var bytes = Array("YUV4MPEG2 W32 H24 F25:1 C420mpeg2\n".utf8) // 34 bytes; frames 6 + 768 + 384
        for _ in 0..<frames { bytes += Array("FRAME\n".utf8) + [UInt8](repeating: 90, count: 32 * 24 + 2 * 16 * 12) }
        try Data(bytes.prefix(keep ?? bytes.count)).write(to: URL(fileURLWithPath: path))
    }

    @Test func aTruncatedClipIsNamedWithFrameAndByte() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/cut.y4m"
        try Self.smallClip(path, frames: 6, keep: 34 + 3 * 1158 + 500)
        let run = try ProgramTests.run(["replay", path, "--json"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors == "ts-gate: " + path + ": frame 3 (byte 3508): truncated: the file ends 494 bytes into the frame's 1152 bytes of planes (32x24 C420mpeg2)\n")
    }

    @Test func filesThatAreNotClipsAreRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = dir.path + "/notes.txt"
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: text))
        let notClip = try ProgramTests.run(["replay", text])
        #expect(notClip.status == 1)
        #expect(notClip.errors == "ts-gate: " + text + ": expected a YUV4MPEG2 clip ('YUV4MPEG2 '), an MJPEG AVI "
            + "('RIFF' <size> 'AVI ') or a raw MJPEG stream (JPEGs, from FF D8 FF), found 'hello\\x0a'\n")

        let missing = try ProgramTests.run(["replay", "/nonexistent/clip.y4m"])
        #expect(missing.status == 1)
        #expect(missing.errors == "ts-gate: /nonexistent/clip.y4m: cannot open: No such file or directory\n")

        let tiny = dir.path + "/tiny.y4m"
        try Data(("YUV4MPEG2 W8 H8 F30:1 Cmono\nFRAME\n" + String(repeating: "a", count: 64)).utf8).write(to: URL(fileURLWithPath: tiny))
        let small = try ProgramTests.run(["replay", tiny])
        #expect(small.status == 1)
        #expect(small.errors == "ts-gate: " + tiny + ": frames of 8x8 are too small to detect a runner in (at least 16x16)\n")

        let badOption = try ProgramTests.run(["replay", tiny, "--gate", "2"])
        #expect(badOption.status == 2)
        #expect(badOption.errors == "ts-gate: --gate expects a fraction of the image width from 0.1 to 0.9, got '2'\n")
    }

    @Test func precisionModeTimesARenderedClip() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // The empty track for the first half second (calibration), then a runner.
        let clip = try RenderedClip.oneRunner(path: dir.path + "/run.y4m", speed: 6)
        let run = try ProgramTests.run(["replay", clip.path, "--mode", "precision", "--readout-ms", "8",
                                        "--exposure-ms", "1", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let crossings = run.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["crossingTimeNanos"] != nil }
        try #require(crossings.count == 1, "\(run.output)")
        let time = try #require(crossings[0]["crossingTimeNanos"] as? Int64)
        #expect(abs(time - clip.truthNanos[0]) <= 1_000_000, "error \(Double(time - clip.truthNanos[0]) / 1e6) ms")
        #expect(crossings[0]["direction"] as? String == "ltr")
    }
}

import Foundation
import Testing
import GateCore
@testable import GateBox

/// `ts-gate replay` on what a webcam records: a rendered runner encoded by
/// cjpeg (4:2:2, as UVC cameras send) into an MJPEG AVI and a raw MJPEG
/// stream by Tests/mjpeg/y4m-to-mjpeg.py, decoded by libv4lconvert.
@Suite struct MJPEGReplayTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("mjpeg/y4m-to-mjpeg.py").path

    static func encode(_ clip: String, to output: String, quality: Int = 90) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, clip, output, "--quality", String(quality)]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "y4m-to-mjpeg.py failed (needs python3 and cjpeg: make deps)")
    }

    static func crossings(_ run: CapturedRun) throws -> [[String: Any]] {
        try run.jsonLines().filter { $0["type"] as? String == "crossing" }
    }

    @Test func anAVIAndARawStreamAreTimedAsTheirY4M() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clip = try RenderedClip.oneRunner(path: dir.path + "/clip.y4m")
        // Names that say nothing: the kind is read from the bytes.
        try Self.encode(clip.path, to: dir.path + "/clip.avi")
        try FileManager.default.moveItem(atPath: dir.path + "/clip.avi", toPath: dir.path + "/recording")
        try Self.encode(clip.path, to: dir.path + "/clip.mjpeg")
        let options = ["--readout-ms", "8", "--exposure-ms", "1", "--json"]
        let raw = try CapturedRun(["replay", clip.path] + options, in: dir)
        let avi = try CapturedRun(["replay", dir.path + "/recording"] + options, in: dir)
        let stream = try CapturedRun(["replay", dir.path + "/clip.mjpeg", "--fps", "120"] + options, in: dir)
        for run in [raw, avi, stream] {
            #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
            let found = try Self.crossings(run)
            try #require(found.count == 1, "\(run.output)")
            let time = try #require(found[0]["crossingTimeNanos"] as? Int64)
            #expect(abs(time - clip.truthNanos[0]) <= 1_500_000, "error \(Double(time - clip.truthNanos[0]) / 1e6) ms")
        }
        // The same summary as a Y4M's, the JPEGs' chroma sampling for the colour space.
        let end = try #require(try avi.jsonLines().last)
        #expect(end["type"] as? String == "replay_end" && end["frames"] as? Int == clip.frames)
        #expect(end["width"] as? Int == 320 && end["height"] as? Int == 240 && end["colourSpace"] as? String == "C422")
        #expect(end["fpsNumerator"] as? Int == 120 && end["fpsDenominator"] as? Int == 1)
        #expect(try stream.jsonLines().last?["frames"] as? Int == clip.frames)

        let table = try CapturedRun(["replay", dir.path + "/recording"], in: dir)
        #expect(table.output.hasPrefix("replay " + dir.path + "/recording: 320x240 C422, 120 fps (F120:1), gate at"))

        // A raw stream states no rate; a broken one is named with its frame.
        let noRate = try CapturedRun(["replay", dir.path + "/clip.mjpeg"], in: dir)
        #expect(noRate.status == 1 && noRate.errors == "ts-gate: " + dir.path + "/clip.mjpeg: a raw MJPEG stream states no "
            + "frame rate: give it with --fps N or --fps N/D (e.g. --fps 120 or --fps 120000/1001)\n")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/clip.mjpeg"))
        try bytes.prefix(bytes.count - 100).write(to: URL(fileURLWithPath: dir.path + "/cut.mjpeg"))
        let cut = try CapturedRun(["replay", dir.path + "/cut.mjpeg", "--fps", "120", "--json"], in: dir)
        #expect(cut.status == 1 && cut.errors.contains("cut.mjpeg: frame \(clip.frames - 1) (byte "), "\(cut.errors)")
        #expect(cut.errors.hasSuffix("before its end (FF D9)\n"), "\(cut.errors)")
    }

    /// A frame libv4lconvert cannot decode (a 12-bit JPEG among 8-bit ones,
    /// as a glitching camera or a damaged file may hold) is skipped, as the
    /// box skips it, and said once: the rest of the recording is timed.
    @Test func aFrameThatCannotBeDecodedIsSkippedAndSaid() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clip = try RenderedClip.oneRunner(path: dir.path + "/clip.y4m")
        try Self.encode(clip.path, to: dir.path + "/clip.mjpeg")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path + "/clip.mjpeg")))
        // The fifth JPEG's frame header (FF C0, length, precision): precision 12.
        var starts: [Int] = []
        for i in 0..<(bytes.count - 2) where bytes[i] == 0xFF && bytes[i + 1] == 0xD8 && bytes[i + 2] == 0xFF {
            starts.append(i)
        }
        try #require(starts.count == clip.frames)
        let sof = try #require((starts[4]..<starts[5]).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 4] = 12
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path + "/glitch.mjpeg"))
        let run = try CapturedRun(["replay", dir.path + "/glitch.mjpeg", "--fps", "120", "--json",
                                   "--readout-ms", "8", "--exposure-ms", "1"], in: dir)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.hasPrefix("ts-gate: " + dir.path + "/glitch.mjpeg: 1 frame skipped, as the box skips a frame "
            + "it cannot decode (the first: frame 4 (byte \(starts[4])): libv4lconvert cannot decode its JPEG: "),
            "\(run.errors)")
        let found = try Self.crossings(run)
        try #require(found.count == 1, "\(run.output)")
        let time = try #require(found[0]["crossingTimeNanos"] as? Int64)
        #expect(abs(time - clip.truthNanos[0]) <= 1_500_000, "error \(Double(time - clip.truthNanos[0]) / 1e6) ms")
        let end = try #require(try run.jsonLines().last)
        #expect(end["frames"] as? Int == clip.frames && end["skippedFrames"] as? Int == 1)
    }
}

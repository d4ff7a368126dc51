import GateCore
import GateDevices
import GateSim

/// `ts-gate render CLIP`: writes a clip of the accuracy corpus as YUV4MPEG2
/// (Cmono, frame i at i / fps) and its ground truth as JSON lines, so the
/// replay path can be checked on files, by us and by anyone else. The VM
/// rig's clips are here too (--raw writes bare GREY frames for a V4L2
/// output), and the benchmarks' (`BenchClips`), to profile.
enum RenderCommand {
    static func run(_ options: RenderOptions, console: Console) -> Int32 {
        let clips = AccuracyCorpus.clips(seed: options.seed) + RigClips.clips() + BenchClips.clips()
        if options.list {
            for clip in clips {
                console.line(DecimalText.padRight(clip.name, 26) + DecimalText.padLeft(String(clip.fps), 4) + " fps  "
                    + DecimalText.padLeft(String(clip.camera.width) + "x" + String(clip.camera.height), 9) + "  " + clip.kind)
            }
            return 0
        }
        guard let name = options.clip, let clip = clips.first(where: { $0.name == name }) else {
            console.problem("ts-gate: render: no clip named '" + (options.clip ?? "") + "' (see 'ts-gate render --list')")
            return 2
        }
        let suffix = options.raw ? ".raw" : ".y4m"
        let output = options.output ?? name + suffix
        let truthPath = (output.hasSuffix(suffix) ? String(output.dropLast(4)) : output) + ".truth.json"
        do {
            try writeTruth(clip, to: truthPath)
            try writeClip(clip, to: output, raw: options.raw)
        } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        console.line("wrote " + output + " (" + String(clip.frameCount) + " frames, " + String(clip.camera.width) + "x"
            + String(clip.camera.height) + " at " + String(clip.fps) + " fps) and " + truthPath)
        return 0
    }

    static func writeClip(_ clip: ClipSpec, to path: String, raw: Bool) throws(GateError) {
        let header = Y4MHeader(width: clip.camera.width, height: clip.camera.height,
                               frameRate: FrameRate(numerator: UInt32(clip.fps), denominator: 1), colourSpace: .mono)
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, [.writeOnly, .create, .truncate]) } catch {
            throw GateError(path, error, doing: "creating the clip")
        }
        defer { fd.close() }
        let renderer = clip.renderer()
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: header.lumaBytes)
        defer { pixels.deallocate() }
        do {
            if !raw { try fd.writeAll(header.text) }
            for i in 0..<clip.frameCount {
                renderer.render(topRowNanos: clip.timestampNanos(frame: i), frameIndex: UInt64(i), into: pixels)
                if !raw { try fd.writeAll("FRAME\n") }
                try fd.writeAll(UnsafeRawBufferPointer(start: pixels, count: header.lumaBytes))
            }
        } catch {
            throw GateError(path, error, doing: "writing the clip")
        }
    }

    /// One line describing the clip, then one per crossing to be found.
    static func writeTruth(_ clip: ClipSpec, to path: String) throws(GateError) {
        var clipLine = JSONLineWriter()
        clipLine.string("type", "clip")
        clipLine.string("name", clip.name)
        clipLine.string("kind", clip.kind)
        clipLine.int("fps", clip.fps)
        clipLine.int("width", clip.camera.width)
        clipLine.int("height", clip.camera.height)
        clipLine.int("frames", clip.frameCount)
        clipLine.number("gatePosition", clip.gatePosition, places: 6)
        clipLine.number("exposureMs", Double(clip.camera.exposureNanos) / 1e6, places: 3)
        clipLine.number("readoutMs", Double(clip.camera.readoutNanos) / 1e6, places: 3)
        clipLine.number("viewWidthM", clip.camera.viewWidthMetres, places: 3)
        clipLine.bool("mustNotTrigger", clip.mustNotTrigger)
        var text = clipLine.finish() + "\n"
        for runner in clip.scene.runners.sorted(by: { $0.crossingNanos < $1.crossingNanos }) {
            var w = JSONLineWriter()
            w.string("type", "crossing")
            w.int("crossingTimeNanos", runner.crossingNanos)
            w.string("direction", runner.direction.code)
            w.number("speedMps", runner.speedAtLine, places: 3)
            w.number("accelerationMps2", runner.acceleration, places: 3)
            w.number("leanRad", runner.lean, places: 3)
            text += w.finish() + "\n"
        }
        do {
            let fd = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
            defer { fd.close() }
            try fd.writeAll(text)
        } catch {
            throw GateError(path, error, doing: "writing the truth")
        }
    }
}

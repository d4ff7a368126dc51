import GateCore

/// The clips `make bench`'s detector benchmarks cycle through, one per frame
/// size: a runner crossing the middle of a 4 m view at 7 m/s, the line at 1 s
/// of 2 s, out of view at both ends (so the clip repeats without a seam).
/// Named here, not in the benchmark, so that `ts-gate render bench-640x480`
/// writes the very frames the benchmark times: a profiler or a per-stage
/// trace replays them (`ts-gate replay`) and sees what the benchmark sees.
/// (The corpus's run-120fps-5, once profiled in its place, has a smaller
/// runner: its heaviest frames cost a fifth less than the benchmark's.)
public enum BenchClips {
    public static let fps = 120
    public static let frameCount = 240

    public static func clip(width: Int, height: Int) -> ClipSpec {
        let camera = CameraModel(width: width, height: height, viewWidthMetres: 4, readoutNanos: 8_000_000,
                                 exposureNanos: 1_000_000, noiseSigma: 2)
        let runner = Runner(crossingNanos: 1_000_000_000, lineX: 2.0, speedAtLine: 7, direction: .leftToRight,
                            shirtLuma: 45, skinLuma: 120, legLuma: 75, stridePhase: 0.7)
        return ClipSpec(name: "bench-" + String(width) + "x" + String(height),
                        kind: "make bench: the detector benchmarks' runner", fps: fps, frameCount: frameCount,
                        camera: camera, scene: Scene(runners: [runner]), gatePosition: 0.5, seed: 11)
    }

    public static func clips() -> [ClipSpec] { [clip(width: 640, height: 480), clip(width: 1280, height: 720)] }
}

// Benchmarks of the frame path (house rule 3: zero allocation per frame,
// proved by a malloc count). Run with `make bench`, which runs, from the repo root,
//   swift package --package-path Tests/Benchmarks --scratch-path .build-bench \
//       benchmark --target GateBenchmarks --no-progress
//
// - "detector MODE WxH": a detector (photo-finish, precision) on frames of a
//   runner crossing, rendered once in setup and cycled, so rendering is not
//   measured. One benchmark iteration is one frame: every metric is per frame.
//   The clip is GateSim's `BenchClips`: `ts-gate render bench-WxH` writes it,
//   for `ts-gate replay` under a profiler.
// - "detector MODE 640x480, least of N passes": the same clip run N times,
//   each frame's least CPU over them (the machine's noise taken out): the
//   figure to compare builds by. Iterations report one frame each.
// - "precision calibration WxH": the frames of precision mode's calibration,
//   from reset to armed, per iteration; reports the costliest frame of them.
// - "simulated loop 120 fps": the box's whole loop (BoxLoop on the simulated
//   platform, wired as SimulateCommand wires it, fast) for one short session
//   per iteration. The simulated camera renders each frame inside dequeue(),
//   so the loop's CPU includes rendering; the render share is reported apart.
//   Probes in front of the camera and the LED count the frame path's mallocs
//   and time a crossing from its frame's dequeue to the LED flash.
// - "simulated loop 120 fps, in-frame start watched" (and countdown): the
//   same with the camera watching the start.
// - "simulated loop 120 fps, photos on": the same with each crossing's
//   photos written (the ring's copy and the strip's column are on the frame
//   path, counted; the PNG slices come after the requeue).
// - "simulated loop 120 fps, unprobed": the same session on the plain
//   SimulatedPlatform, the control that the probes change nothing.
//
// Host-only code (Foundation, Glibc): this target is not part of the firmware.
import Benchmark
import Foundation
import GateBox
import GateCore
import GateDevices
import GateProtocol
import GateSim
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Measuring helpers

/// CPU time of the calling thread, nanoseconds (CLOCK_THREAD_CPUTIME_ID).
@inline(__always)
func threadCPUNanos() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// The malloc interposer's running malloc count, read through its C entry
/// point (the benchmark plugin LD_PRELOADs libMallocInterposerSwift.so);
/// counts only while the framework has counting on (inside a measurement).
enum MallocCounter {
    typealias GetStats = @convention(c) (UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?,
                                         UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?,
                                         UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?) -> Void
    static let getStats: GetStats? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_interposer_get_stats") else { return nil }
        return unsafeBitCast(symbol, to: GetStats.self)
    }()

    static var available: Bool { getStats != nil }

    @inline(__always)
    static func mallocs() -> Int64 {
        var count: Int64 = 0, bytes: Int64 = 0, small: Int64 = 0, large: Int64 = 0, frees: Int64 = 0, freed: Int64 = 0
        getStats?(&count, &bytes, &small, &large, &frees, &freed)
        return count
    }
}

enum GateMetric {
    static let cpuPerFrame = BenchmarkMetric.custom("CPU per frame, thread (ns)", useScalingFactor: false)
    static let leastCPUPerFrame = BenchmarkMetric.custom("least CPU per frame over the passes, thread (ns)",
                                                         useScalingFactor: false)
    static let framesPerSession = BenchmarkMetric.custom("frames per session", polarity: .prefersLarger,
                                                         useScalingFactor: false)
    static let loopCPUPerFrame = BenchmarkMetric.custom("loop CPU per frame, with render (ns)", useScalingFactor: false)
    static let renderCPUPerFrame = BenchmarkMetric.custom("render CPU per frame (ns)", useScalingFactor: false)
    static let loopCPUPerFrameWithoutRender = BenchmarkMetric.custom("loop CPU per frame, without render (ns)",
                                                                     useScalingFactor: false)
    static let slowestCalibrationFrame = BenchmarkMetric.custom("slowest calibration frame, thread CPU (ns)",
                                                                useScalingFactor: false)
    static let calibrationFrames = BenchmarkMetric.custom("frames until calibrated", useScalingFactor: false)
    static let mallocsPer1000Frames = BenchmarkMetric.custom("loop mallocs per 1000 frames", useScalingFactor: false)
    static let framePathMallocs = BenchmarkMetric.custom("frame path mallocs per session (dequeue..requeue)",
                                                         useScalingFactor: false)
    static let dequeueToLED = BenchmarkMetric.custom("frame dequeued -> LED crossing (ns)", useScalingFactor: false)
    static let crossingsPerSession = BenchmarkMetric.custom("crossings per session", polarity: .prefersLarger,
                                                            useScalingFactor: false)
}

struct BenchmarkSetupError: Error, CustomStringConvertible {
    var description: String
}

// MARK: - Detector on pre-rendered frames

/// A runner crossing the gate, rendered once; frames are cycled with
/// timestamps that keep increasing, so the detector sees an endless series
/// of identical passes (the clip starts and ends with an empty view, so the
/// wrap is seamless).
final class DetectorRig {
    static let fps = BenchClips.fps
    static let clipFrames = BenchClips.frameCount   // 2 s: empty, the pass, empty

    let width: Int, height: Int
    let frames: UnsafeMutablePointer<UInt8>
    let detector: CrossingDetector
    var next = 0
    var crossingsInWarmup = 0

    init(mode: DetectionMode, width: Int, height: Int) throws {
        self.width = width
        self.height = height
        // Torso front on the gate line (the middle) at 1 s, 7 m/s: out of view
        // at the start and at the end of the clip. `ts-gate render
        // bench-WxH` writes the same frames, to profile.
        let clip = BenchClips.clip(width: width, height: height)
        let camera = clip.camera
        let renderer = clip.renderer()
        frames = .allocate(capacity: DetectorRig.clipFrames * width * height)
        for i in 0..<DetectorRig.clipFrames {
            renderer.render(topRowNanos: DetectorRig.stamp(i), frameIndex: UInt64(i), into: frames + i * width * height)
        }
        var settings = DetectorSettings()
        settings.readoutNanos = camera.readoutNanos
        settings.exposureNanos = camera.exposureNanos
        detector = CrossingDetector(mode: mode, width: width, height: height, settings: settings)
        // Warm-up: one whole pass (the empty scene is learnt in the first
        // frames, then a crossing), so steady state is what gets measured.
        for _ in 0..<DetectorRig.clipFrames {
            if detector.process(nextFrame()) != nil { crossingsInWarmup += 1 }
        }
        guard crossingsInWarmup == 1 else {
            throw BenchmarkSetupError(description: "warm-up pass at \(width)x\(height) gave \(crossingsInWarmup) crossings, expected 1")
        }
    }

    deinit { frames.deallocate() }

    static func stamp(_ index: Int) -> Int64 { Int64(index) * 1_000_000_000 / Int64(fps) }

    /// The next frame of the cycle, stamped as the next frame in time.
    @inline(__always)
    func nextFrame() -> LumaFrame {
        let slot = next % DetectorRig.clipFrames
        let frame = LumaFrame(pixels: UnsafePointer(frames + slot * width * height), width: width, height: height,
                              rowStride: width, timestampNanos: DetectorRig.stamp(next),
                              sequence: UInt32(truncatingIfNeeded: next))
        next += 1
        return frame
    }
}

func detectorBenchmark(mode: DetectionMode, width: Int, height: Int) {
    Benchmark("detector \(mode.name) \(width)x\(height)",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal, GateMetric.cpuPerFrame],
                                   timeUnits: .microseconds,
                                   warmupIterations: 0,   // the rig warms the detector up
                                   maxDuration: .seconds(15),
                                   maxIterations: 12_000)) { (benchmark: Benchmark, rig: DetectorRig) in
        let frame = rig.nextFrame()
        let cpuStart = threadCPUNanos()
        benchmark.startMeasurement()   // only process() is timed and malloc-counted
        _ = rig.detector.process(frame)
        benchmark.stopMeasurement()
        let cpuEnd = threadCPUNanos()
        benchmark.measurement(GateMetric.cpuPerFrame, Int(cpuEnd - cpuStart))
    } setup: {
        try DetectorRig(mode: mode, width: width, height: height)
    }
}

/// Each frame's cost with the machine's noise taken out. The rig's clip
/// is run `passes` times in setup, and each of its frames keeps its least
/// thread CPU time over the passes: the passes are the same work (the
/// detector sees the same runner each time), and a VM's stolen time, an
/// interrupt or a cold cache only ever add to it. Then each iteration
/// reports one frame's least, so the percentiles are over the clip's
/// frames (empty ones, and the runner's). On this 2-core VM the plain
/// per-frame p90 above moved between 235 and 330 us from run to run of
/// the same build; this one's by a few us, so it is the figure to compare
/// builds by. No malloc count here: the plain benchmark has it.
final class LeastOfPassesRig {
    let least: [Int]
    var next = 0

    init(mode: DetectionMode, width: Int, height: Int, passes: Int) throws {
        let rig = try DetectorRig(mode: mode, width: width, height: height)
        var least = [Int](repeating: .max, count: DetectorRig.clipFrames)
        // The warm-up left the rig at the clip's first frame.
        for _ in 0..<passes {
            for slot in 0..<DetectorRig.clipFrames {
                let frame = rig.nextFrame()
                let cpuStart = threadCPUNanos()
                _ = rig.detector.process(frame)
                least[slot] = min(least[slot], Int(threadCPUNanos() - cpuStart))
            }
        }
        self.least = least
    }
}

func leastOfPassesBenchmark(mode: DetectionMode, width: Int, height: Int, passes: Int) {
    Benchmark("detector \(mode.name) \(width)x\(height), least of \(passes) passes",
              configuration: .init(metrics: [GateMetric.leastCPUPerFrame],
                                   timeUnits: .microseconds,
                                   warmupIterations: 0,
                                   maxDuration: .seconds(60),
                                   maxIterations: DetectorRig.clipFrames)) { (benchmark: Benchmark, rig: LeastOfPassesRig) in
        benchmark.measurement(GateMetric.leastCPUPerFrame, rig.least[rig.next % rig.least.count])
        rig.next += 1
    } setup: {
        try LeastOfPassesRig(mode: mode, width: width, height: height, passes: passes)
    }
}

/// Precision mode's calibration, from a reset to armed, on the empty frames
/// at the start of the rig's clip: the cost of its costliest frame (where
/// the background is computed from the stored frames).
func calibrationBenchmark(width: Int, height: Int) {
    Benchmark("precision calibration \(width)x\(height)",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal, GateMetric.slowestCalibrationFrame,
                                             GateMetric.calibrationFrames],
                                   timeUnits: .milliseconds,
                                   warmupIterations: 1,
                                   maxDuration: .seconds(15),
                                   maxIterations: 20)) { (benchmark: Benchmark, rig: DetectorRig) in
        guard case .precision(let detector) = rig.detector else { return }
        detector.reset()
        rig.next = 0
        var slowest: Int64 = 0
        var frames = 0
        benchmark.startMeasurement()
        while !detector.isCalibrated && frames < DetectorRig.clipFrames {
            let frame = rig.nextFrame()
            let cpuStart = threadCPUNanos()
            _ = detector.process(frame)
            slowest = max(slowest, threadCPUNanos() - cpuStart)
            frames += 1
        }
        benchmark.stopMeasurement()
        benchmark.measurement(GateMetric.slowestCalibrationFrame, Int(slowest))
        benchmark.measurement(GateMetric.calibrationFrames, frames)
    } setup: {
        try DetectorRig(mode: .precision, width: width, height: height)
    }
}

// MARK: - The whole loop on the simulated platform

/// What the probes of one session saw.
final class LoopProbe {
    var frames = 0
    var framePathMallocs: Int64 = 0
    var renderCPUNanos: Int64 = 0
    var frameDequeuedNanos: Int64 = 0
    var mallocsAtDequeue: Int64 = 0
    var latencies: [Int64] = []

    init() { latencies.reserveCapacity(256) }

    func reset() {
        frames = 0; framePathMallocs = 0; renderCPUNanos = 0; frameDequeuedNanos = 0; mallocsAtDequeue = 0
        latencies.removeAll(keepingCapacity: true)
    }
}

// The probes stand in front of the simulator's devices and forward to the
// SimulatedPlatform itself, kept at a fixed address: its wait() reads the
// devices' next-event times, so their state must stay in it. Every probe is
// a stored property holding only that address, so the loop's accesses to
// `platform.camera` and the rest are plain in-place accesses. (Computed
// get/set properties here would each cost a malloc per access, a coroutine
// frame: measured at 3 per frame before this design.)

/// The simulated camera, timed: rendering happens inside its dequeue; mallocs
/// are counted from each dequeue to the requeue that follows it (the frame
/// path: render, detect, give the buffer back).
struct ProbedCamera: FrameSource {
    let sim: UnsafeMutablePointer<SimulatedPlatform>
    let probe: LoopProbe
    let format: FrameFormat

    var droppedFrames: Int { sim.pointee.camera.droppedFrames }

    mutating func dequeue() throws(GateError) -> LumaFrame? {
        probe.mallocsAtDequeue = MallocCounter.mallocs()
        let cpuStart = threadCPUNanos()
        let frame = try sim.pointee.camera.dequeue()
        probe.renderCPUNanos += threadCPUNanos() - cpuStart
        guard let frame else {
            probe.framePathMallocs += MallocCounter.mallocs() - probe.mallocsAtDequeue
            return nil
        }
        probe.frames += 1
        probe.frameDequeuedNanos = MonotonicClock.nowNanos()
        return frame
    }

    mutating func requeue() throws(GateError) {
        try sim.pointee.camera.requeue()
        probe.framePathMallocs += MallocCounter.mallocs() - probe.mallocsAtDequeue
    }
}

/// The LED, timed: a crossing's flash is when the box shows the result.
struct ProbedLights: Indicator {
    let sim: UnsafeMutablePointer<SimulatedPlatform>
    let probe: LoopProbe

    mutating func show(_ pattern: IndicatorPattern, atNanos: Int64) throws(GateError) {
        if pattern == .crossing { probe.latencies.append(MonotonicClock.nowNanos() - probe.frameDequeuedNanos) }
        try sim.pointee.lights.show(pattern, atNanos: atNanos)
    }
}

struct ForwardedMotion: MotionSensor {
    let sim: UnsafeMutablePointer<SimulatedPlatform>
    mutating func sample() throws(GateError) -> AccelSample { try sim.pointee.motion.sample() }
}

struct ForwardedButtons: ButtonInput {
    let sim: UnsafeMutablePointer<SimulatedPlatform>
    mutating func nextEdge() throws(GateError) -> ButtonEdge? { try sim.pointee.buttons.nextEdge() }
}

struct ForwardedSpeaker: SoundOutput {
    let sim: UnsafeMutablePointer<SimulatedPlatform>
    mutating func play(_ program: SoundProgram, atNanos: Int64) throws(GateError) {
        try sim.pointee.speaker.play(program, atNanos: atNanos)
    }
    mutating func stop(atNanos: Int64) throws(GateError) {
        try sim.pointee.speaker.stop(atNanos: atNanos)
    }
    var clockSource: String { sim.pointee.speaker.clockSource }
    var isStreaming: Bool { sim.pointee.speaker.isStreaming }
    mutating func service(atNanos: Int64) throws(GateError) -> Int64? {
        try sim.pointee.speaker.service(atNanos: atNanos)
    }
}

/// SimulatedPlatform with probes in front of its camera and LED; the wait,
/// the clock and the devices are the simulator's own.
struct ProbedPlatform: GatePlatform {
    let sim: UnsafeMutablePointer<SimulatedPlatform>
    var camera: ProbedCamera
    var motion: ForwardedMotion
    var buttons: ForwardedButtons
    var lights: ProbedLights
    var speaker: ForwardedSpeaker
    /// A box alone: no links to other boxes.
    var link = NoLink()

    init(sim: UnsafeMutablePointer<SimulatedPlatform>, probe: LoopProbe) {
        self.sim = sim
        camera = ProbedCamera(sim: sim, probe: probe, format: sim.pointee.camera.format)
        motion = ForwardedMotion(sim: sim)
        buttons = ForwardedButtons(sim: sim)
        lights = ProbedLights(sim: sim, probe: probe)
        speaker = ForwardedSpeaker(sim: sim)
    }

    mutating func wait() throws(GateError) -> ReadySources { try sim.pointee.wait() }
    mutating func cameraLost() { sim.pointee.cameraLost() }
    mutating func nextSignal() throws(GateError) -> SignalDescriptor.Received? { try sim.pointee.nextSignal() }
    var nowNanos: Int64 { sim.pointee.nowNanos }
    var wallClockMillis: Int64 { sim.pointee.wallClockMillis }
    func truthCrossing(nearNanos nanos: Int64) -> Int64? { sim.pointee.truthCrossing(nearNanos: nanos) }
}

/// What stays across sessions: the data directory (a temporary one, on the
/// same disk as /tmp, so each record's fsync is real) and the console.
final class LoopRig {
    let dataDirectory: String
    let console: Console
    let probe = LoopProbe()
    var options = SimulationOptions()

    init(fps: Int) throws {
        var template = Array((NSTemporaryDirectory() + "/ts-gate-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchmarkSetupError(description: "mkdtemp failed") }
        dataDirectory = String(cString: made)
        do {
            let null = try FileDescriptor.open("/dev/null", [.writeOnly])
            console = Console(output: null, errors: null)
        } catch {
            throw BenchmarkSetupError(description: "/dev/null: \(error)")
        }
        // `ts-gate --simulate --fast --runs 2 --fps 120`: 320x240, seed 1.
        options.fps = fps
        options.runs = 2
        options.seed = 1
    }

    deinit { console.output.close() }
}

/// One session of the box's loop, set up as SimulateCommand sets it up
/// (without the signalfd: one poll() peek per event less), fast. Only
/// `loop.run()` is inside the measurement.
func measureSession<Platform: GatePlatform>(_ benchmark: Benchmark, rig: LoopRig, scenario: Scenario,
                                            platform: Platform, race: RaceSetup? = nil,
                                            photos: PhotoSettings? = nil) -> (records: Int, cpuNanos: Int64, mallocs: Int64)? {
    let store = ResultsStore(dataDirectory: rig.dataDirectory)
    let log: SessionLog
    do { log = try store.createSession() } catch {
        benchmark.error("\(error)")
        return nil
    }
    defer {
        // Outside the measurement: each session starts from an empty data
        // directory (the store makes it again), and none is left behind.
        log.close()
        try? FileManager.default.removeItem(atPath: rig.dataDirectory)
    }
    var detector = DetectorSettings()
    detector.gatePosition = rig.options.gatePosition
    var configuration = BoxConfiguration(detector: detector, viewWidthMetres: rig.options.viewWidthMetres,
                                         deviceId: "ts-gate-bench", simulated: true, seed: rig.options.seed)
    configuration.race = race
    configuration.startType = scenario.options.startType
    configuration.photos = photos
    var loop = BoxLoop(platform: platform, configuration: configuration, log: log, console: rig.console)

    let cpuStart = threadCPUNanos()
    let mallocStart = MallocCounter.mallocs()
    benchmark.startMeasurement()
    let end: GateBox.SessionEnd
    do { end = try loop.run() } catch {
        benchmark.stopMeasurement()
        benchmark.error("\(error)")
        return nil
    }
    let mallocEnd = MallocCounter.mallocs()
    benchmark.stopMeasurement()
    let cpu = threadCPUNanos() - cpuStart
    guard end == .completed, loop.records.count == scenario.truthNanos.count else {
        benchmark.error("session found \(loop.records.count) of \(scenario.truthNanos.count) crossings")
        return nil
    }
    return (loop.records.count, cpu, mallocEnd - mallocStart)
}

func simulatedLoopBenchmark(fps: Int) {
    probedLoopBenchmark(fps: fps, start: .flying)
    unprobedLoopBenchmark(fps: fps)
}

/// With the probes: per-frame figures and the dequeue -> LED latency. With
/// a start the camera watches (issue 50: in-frame, countdown), the same
/// session with StartWatch on every armed frame.
func probedLoopBenchmark(fps: Int, start: StartType, photos: PhotoSettings? = nil) {
    Benchmark("simulated loop \(fps) fps" + (start == .flying ? "" : ", " + start.name + " start watched")
              + (photos == nil ? "" : ", photos on"),
              configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal,
                                             GateMetric.framesPerSession, GateMetric.loopCPUPerFrame,
                                             GateMetric.renderCPUPerFrame, GateMetric.loopCPUPerFrameWithoutRender,
                                             GateMetric.mallocsPer1000Frames, GateMetric.framePathMallocs,
                                             GateMetric.crossingsPerSession, GateMetric.dequeueToLED],
                                   timeUnits: .milliseconds,
                                   warmupIterations: 1,
                                   maxDuration: .seconds(60),
                                   maxIterations: 10)) { (benchmark: Benchmark, rig: LoopRig) in
        let scenario = Scenario(options: rig.options)
        let sim = UnsafeMutablePointer<SimulatedPlatform>.allocate(capacity: 1)
        sim.initialize(to: SimulatedPlatform(scenario: scenario, paced: false, signals: nil, console: rig.console))
        defer { sim.pointee.release(); sim.deinitialize(count: 1); sim.deallocate() }
        let probe = rig.probe
        probe.reset()
        guard let session = measureSession(benchmark, rig: rig, scenario: scenario,
                                           platform: ProbedPlatform(sim: sim, probe: probe), photos: photos) else { return }
        let frames = max(1, probe.frames)
        benchmark.measurement(GateMetric.framesPerSession, probe.frames)
        benchmark.measurement(GateMetric.loopCPUPerFrame, Int(session.cpuNanos) / frames)
        benchmark.measurement(GateMetric.renderCPUPerFrame, Int(probe.renderCPUNanos) / frames)
        benchmark.measurement(GateMetric.loopCPUPerFrameWithoutRender, Int(session.cpuNanos - probe.renderCPUNanos) / frames)
        benchmark.measurement(GateMetric.mallocsPer1000Frames, Int(session.mallocs * 1000) / frames)
        benchmark.measurement(GateMetric.framePathMallocs, Int(probe.framePathMallocs))
        benchmark.measurement(GateMetric.crossingsPerSession, session.records)
        for latency in probe.latencies { benchmark.measurement(GateMetric.dequeueToLED, Int(latency)) }
    } setup: {
        guard MallocCounter.available else {
            throw BenchmarkSetupError(description: "malloc interposer not loaded (run through `swift package benchmark`)")
        }
        let rig = try LoopRig(fps: fps)
        rig.options.startType = start
        return rig
    }
}

func unprobedLoopBenchmark(fps: Int) {
    // The control: BoxLoop<SimulatedPlatform> exactly as SimulateCommand
    // builds it, no probes. Its malloc count and CPU must match the probed.
    Benchmark("simulated loop \(fps) fps, unprobed",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
                                   timeUnits: .milliseconds,
                                   warmupIterations: 1,
                                   maxDuration: .seconds(60),
                                   maxIterations: 10)) { (benchmark: Benchmark, rig: LoopRig) in
        let scenario = Scenario(options: rig.options)
        let sim = SimulatedPlatform(scenario: scenario, paced: false, signals: nil, console: rig.console)
        defer { sim.release() }
        _ = measureSession(benchmark, rig: rig, scenario: scenario, platform: sim)
    } setup: {
        try LoopRig(fps: fps)
    }
}

// MARK: - A peer flooding the link

/// A peer that writes as fast as it is read: every time the loop wakes,
/// `perWake` Timing Messages fragments (heartbeats, fragmented at MTU 23)
/// are waiting, far more than a 7.5 ms BLE link carries per 8.3 ms frame.
struct FloodLink: PeerLink {
    let fragments: [[UInt8]]
    let perWake: Int
    var budget = 0
    var next = 0
    var connected = false
    var peerCount: Int { 1 }

    init(perWake: Int) {
        let heartbeat = TimingMessage(timestamp: 1_706_000_000_000, deviceId: "flooding-peer",
                                      payload: .heartbeat(Heartbeat(state: .armed, thermalState: .nominal))).encoded()
        var fragmenter = Fragmenter()
        fragments = (try? fragmenter.fragments(of: heartbeat, attPayloadSize: 20)) ?? []
        self.perWake = perWake
    }

    mutating func nextEvent() throws(GateError) -> LinkEvent? {
        if !connected {
            connected = true
            return .connected(peer: 0, role: .peripheral, intervalNanos: 7_500_000, payloadBytes: 20)
        }
        guard budget > 0, !fragments.isEmpty else { return nil }
        budget -= 1
        next += 1
        return .received(peer: 0, channel: .messages, bytes: fragments[next % fragments.count], stampNanos: 0)
    }

    mutating func send(_ bytes: [UInt8], on channel: LinkChannel, to peer: Int) throws(GateError) -> Int? { 1 }
}

/// The probed platform with the flooding peer: every wake has the link ready.
struct FloodedPlatform: GatePlatform {
    var base: ProbedPlatform
    var link: FloodLink
    var camera: ProbedCamera { get { base.camera } set { base.camera = newValue } }
    var motion: ForwardedMotion { get { base.motion } set { base.motion = newValue } }
    var buttons: ForwardedButtons { get { base.buttons } set { base.buttons = newValue } }
    var lights: ProbedLights { get { base.lights } set { base.lights = newValue } }
    var speaker: ForwardedSpeaker { get { base.speaker } set { base.speaker = newValue } }

    mutating func wait() throws(GateError) -> ReadySources {
        var ready = try base.wait()
        link.budget = link.perWake
        ready.insert(.link)
        return ready
    }
    mutating func cameraLost() { base.cameraLost() }
    mutating func nextSignal() throws(GateError) -> SignalDescriptor.Received? { try base.nextSignal() }
    var nowNanos: Int64 { base.nowNanos }
    var wallClockMillis: Int64 { base.wallClockMillis }
    func truthCrossing(nearNanos nanos: Int64) -> Int64? { base.truthCrossing(nearNanos: nanos) }
}

/// Issue 47 point 9: the frame path first. The box hosts a race and a peer
/// floods its link with `perWake` fragments each time the loop wakes; the
/// frame path's mallocs and its dequeue -> LED latency are compared with
/// the same race and a quiet peer (perWake 0: the peer connects, then
/// says nothing).
func floodedLoopBenchmark(fps: Int, perWake: Int) {
    Benchmark("simulated loop \(fps) fps, race host, a peer sending \(perWake) fragments per wake",
              configuration: .init(metrics: [.wallClock, .cpuTotal, GateMetric.framesPerSession, GateMetric.loopCPUPerFrame,
                                             GateMetric.loopCPUPerFrameWithoutRender, GateMetric.framePathMallocs,
                                             GateMetric.crossingsPerSession, GateMetric.dequeueToLED],
                                   timeUnits: .milliseconds,
                                   warmupIterations: 1,
                                   maxDuration: .seconds(60),
                                   maxIterations: 10)) { (benchmark: Benchmark, rig: LoopRig) in
        let scenario = Scenario(options: rig.options)
        let sim = UnsafeMutablePointer<SimulatedPlatform>.allocate(capacity: 1)
        sim.initialize(to: SimulatedPlatform(scenario: scenario, paced: false, signals: nil, console: rig.console))
        defer { sim.pointee.release(); sim.deinitialize(count: 1); sim.deallocate() }
        let probe = rig.probe
        probe.reset()
        guard let plan = try? RacePlan(finishMetres: 30) else { return benchmark.error("race plan") }
        let race = RaceSetup(sessionId: "482913", deviceName: "ts-gate-bench", role: .start, plan: plan)
        let platform = FloodedPlatform(base: ProbedPlatform(sim: sim, probe: probe), link: FloodLink(perWake: perWake))
        guard let session = measureSession(benchmark, rig: rig, scenario: scenario, platform: platform, race: race) else { return }
        let frames = max(1, probe.frames)
        benchmark.measurement(GateMetric.framesPerSession, probe.frames)
        benchmark.measurement(GateMetric.loopCPUPerFrame, Int(session.cpuNanos) / frames)
        benchmark.measurement(GateMetric.loopCPUPerFrameWithoutRender, Int(session.cpuNanos - probe.renderCPUNanos) / frames)
        benchmark.measurement(GateMetric.framePathMallocs, Int(probe.framePathMallocs))
        benchmark.measurement(GateMetric.crossingsPerSession, session.records)
        for latency in probe.latencies { benchmark.measurement(GateMetric.dequeueToLED, Int(latency)) }
    } setup: {
        guard MallocCounter.available else {
            throw BenchmarkSetupError(description: "malloc interposer not loaded (run through `swift package benchmark`)")
        }
        return try LoopRig(fps: fps)
    }
}

// MARK: - The suite

let benchmarks: @Sendable () -> Void = {
    for mode in [DetectionMode.photoFinish, .precision] {
        detectorBenchmark(mode: mode, width: 640, height: 480)
        detectorBenchmark(mode: mode, width: 1280, height: 720)
        leastOfPassesBenchmark(mode: mode, width: 640, height: 480, passes: 30)
    }
    calibrationBenchmark(width: 640, height: 480)
    simulatedLoopBenchmark(fps: 120)
    probedLoopBenchmark(fps: 120, start: .flying, photos: PhotoSettings())
    probedLoopBenchmark(fps: 120, start: .inFrame)
    probedLoopBenchmark(fps: 120, start: .countdown)
    floodedLoopBenchmark(fps: 120, perWake: 0)
    floodedLoopBenchmark(fps: 120, perWake: 24)
}

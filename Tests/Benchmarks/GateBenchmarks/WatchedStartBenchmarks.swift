// Issue 50: the frame path while the camera watches the start (StartWatch on
// every armed frame: the in-frame start's stillness and leaving, a called
// start's set athlete and first movement). The same session and probes as
// "simulated loop 120 fps"; the frame path must still allocate nothing.
import Benchmark
import GateCore
import GateSim

func watchedStartLoopBenchmark(fps: Int) {
    for start in [StartType.inFrame, .countdown] {
        Benchmark("simulated loop \(fps) fps, \(start.name) start watched",
                  configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal,
                                                 GateMetric.framesPerSession, GateMetric.loopCPUPerFrameWithoutRender,
                                                 GateMetric.mallocsPer1000Frames, GateMetric.framePathMallocs,
                                                 GateMetric.crossingsPerSession],
                                       timeUnits: .milliseconds,
                                       warmupIterations: 1,
                                       maxDuration: .seconds(60),
                                       maxIterations: 5)) { (benchmark: Benchmark, rig: LoopRig) in
            let scenario = Scenario(options: rig.options)
            let sim = UnsafeMutablePointer<SimulatedPlatform>.allocate(capacity: 1)
            sim.initialize(to: SimulatedPlatform(scenario: scenario, paced: false, signals: nil, console: rig.console))
            defer { sim.pointee.release(); sim.deinitialize(count: 1); sim.deallocate() }
            let probe = rig.probe
            probe.reset()
            guard let session = measureSession(benchmark, rig: rig, scenario: scenario,
                                               platform: ProbedPlatform(sim: sim, probe: probe)) else { return }
            let frames = max(1, probe.frames)
            benchmark.measurement(GateMetric.framesPerSession, probe.frames)
            benchmark.measurement(GateMetric.loopCPUPerFrameWithoutRender, Int(session.cpuNanos - probe.renderCPUNanos) / frames)
            benchmark.measurement(GateMetric.mallocsPer1000Frames, Int(session.mallocs * 1000) / frames)
            benchmark.measurement(GateMetric.framePathMallocs, Int(probe.framePathMallocs))
            benchmark.measurement(GateMetric.crossingsPerSession, session.records)
        } setup: {
            guard MallocCounter.available else {
                throw BenchmarkSetupError(description: "malloc interposer not loaded (run through `swift package benchmark`)")
            }
            let rig = try LoopRig(fps: fps)
            rig.options.startType = start
            return rig
        }
    }
}

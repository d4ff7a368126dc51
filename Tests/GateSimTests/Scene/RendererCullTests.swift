import Testing
import GateCore
@testable import GateSim

/// The renderer looks only at the runners that may show in a frame (a
/// soak has hundreds): proven to change no pixel, on a soak's scene (knocks,
/// flicker, a runner every 30-90 s) and on in-frame starts' walkers who stop
/// and turn back, at every frame around each pass and each knock.
@Suite struct RendererCullTests {
    static func frames(_ scenario: Scenario, culling: Bool, at times: [Int64]) -> [[UInt8]] {
        var scene = Scene(runners: scenario.runners)
        scene.figures = scenario.figures
        scene.bumps = scenario.bumps
        scene.flickerAmplitude = scenario.flickerAmplitude
        let renderer = SceneRenderer(camera: scenario.camera, scene: scene, seed: scenario.options.seed)
        renderer.cullsRunners = culling
        let size = scenario.camera.width * scenario.camera.height
        var out: [[UInt8]] = []
        var frame = [UInt8](repeating: 0, count: size)
        for (i, t) in times.enumerated() {
            frame.withUnsafeMutableBufferPointer { renderer.render(topRowNanos: t, frameIndex: UInt64(i), into: $0.baseAddress!) }
            out.append(frame)
        }
        return out
    }

    /// Every frame from `before` to `after` around each instant, at the scenario's frame rate.
    static func around(_ instants: [Int64], fps: Int, before: Int64 = 600_000_000, after: Int64 = 600_000_000) -> [Int64] {
        let period = 1_000_000_000 / Int64(fps)
        return instants.flatMap { t in stride(from: t - before, through: t + after, by: Int(period)).map { $0 } }
    }

    @Test func aSoaksFramesAreTheSameToTheBit() throws {
        var options = SimulationOptions()
        options.seed = 21; options.fps = 60
        options.soakNanos = 600_000_000_000
        let scenario = Scenario(options: options)
        #expect(scenario.runners.count >= 7 && scenario.knocks.count == 2)
        let times = Self.around(Array(scenario.truthNanos.prefix(3)) + scenario.knocks, fps: options.fps)
        let culled = Self.frames(scenario, culling: true, at: times)
        let whole = Self.frames(scenario, culling: false, at: times)
        #expect(culled == whole)
        #expect(Set(culled.map { $0.reduce(0) { $0 &+ Int($1) } }).count > 10, "the frames show something that moves")
    }

    @Test func walkersWhoStopAndTurnAreDrawnTheSame() throws {
        var options = SimulationOptions()
        options.seed = 42; options.runs = 2; options.startType = .inFrame
        let scenario = Scenario(options: options)
        #expect(!scenario.figures.isEmpty)
        let times = Self.around(scenario.startNanos + scenario.truthNanos, fps: options.fps, before: 2_000_000_000, after: 300_000_000)
        #expect(Self.frames(scenario, culling: true, at: times) == Self.frames(scenario, culling: false, at: times))
    }
}

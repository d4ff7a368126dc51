import Testing
import GateCore
import GateDevices
@testable import GateSim

@Suite struct ScenarioTests {
    @Test func aSeedFixesTheWholeScenario() {
        var options = SimulationOptions()
        options.seed = 11
        let a = Scenario(options: options), b = Scenario(options: options)
        options.seed = 12
        let c = Scenario(options: options)
        #expect(a == b)
        #expect(a.truthNanos != c.truthNanos)
        #expect(a.truthNanos.count == options.runs + 1)
        for runner in a.runners { #expect(runner.speedAtLine >= 3 && runner.speedAtLine < 11) }
        #expect(a.truthNanos == a.truthNanos.sorted())
        #expect(a.endNanos > a.truthNanos.last!)
    }

    @Test func truthIsFoundOnlyNearACrossing() {
        let s = Scenario(options: SimulationOptions())
        let t = s.truthNanos[1]
        #expect(s.truth(nearNanos: t + 3_000_000) == t)
        #expect(s.truth(nearNanos: t + 600_000_000) == nil)
    }

    @Test func aFixedSpeedAppliesToEveryPass() {
        var options = SimulationOptions()
        options.speedMetresPerSecond = 7.5
        for runner in Scenario(options: options).runners { #expect(runner.speedAtLine == 7.5) }
    }
}

@Suite struct SimulatedDeviceTests {
    @Test func cameraStampsFramesInTheDetectorsTimeBase() throws {
        var options = SimulationOptions()
        options.fps = 100
        let scenario = Scenario(options: options)
        let clock = VirtualClock()
        let renderer = SceneRenderer(camera: scenario.camera, runners: [], seed: 1)
        var camera = SimulatedCamera(renderer: renderer, fps: 100, clock: clock)
        defer { camera.release() }
        #expect(try camera.dequeue() == nil)   // nothing read out yet
        let readyAt = camera.nextReadyNanos
        // Top row mid-exposure at 0.5 ms; readout 8 ms and half the exposure later it is ready.
        #expect(readyAt == 500_000 + 8_000_000 + 500_000)
        clock.advance(to: readyAt)
        let first = try #require(try camera.dequeue())
        #expect(first.timestampNanos == 500_000 && first.sequence == 0)
        try camera.requeue()
        #expect(try camera.dequeue() == nil)
        clock.advance(to: camera.nextReadyNanos)
        let second = try #require(try camera.dequeue())
        #expect(second.timestampNanos == 10_500_000 && second.sequence == 1)
    }

    @Test func tripodRingsThenSettles() throws {
        let clock = VirtualClock()
        var imu = SimulatedMotion(settleNanos: 1_000_000_000, seed: 1, clock: clock)
        var filter = StabilityFilter()
        var stillAt: Int64?
        for _ in 0..<300 {
            let s = try imu.sample()
            if case .becameStill(let at) = filter.add(s) { stillAt = at; break }
        }
        let at = try #require(stillAt)
        // Still for 1 s after the ringing has decayed below the threshold.
        #expect(at > 1_500_000_000 && at < 2_100_000_000)
    }

    @Test func platformAdvancesTheClockEventByEvent() throws {
        var options = SimulationOptions()
        options.runs = 1
        let console = Console(output: .standardError, errors: .standardError)
        var platform = SimulatedPlatform(scenario: Scenario(options: options), paced: false, signals: nil, console: console)
        defer { platform.release() }
        var last: Int64 = -1
        var sawButton = false, sawEnd = false
        for _ in 0..<100_000 {
            let ready = try platform.wait()
            #expect(platform.nowNanos >= last)
            last = platform.nowNanos
            if ready.contains(.camera) { while try platform.camera.dequeue() != nil { try platform.camera.requeue() } }
            if ready.contains(.motion) { _ = try platform.motion.sample() }
            if ready.contains(.buttons) { while let edge = try platform.buttons.nextEdge() { sawButton = sawButton || edge.pressed } }
            if ready.contains(.scenarioEnd) { sawEnd = true; break }
        }
        #expect(sawButton && sawEnd)
        #expect(last == platform.scenario.endNanos)
        #expect(platform.wallClockMillis == SimulatedPlatform.epochMillis + last / 1_000_000)
    }
}

import GateCore
import GateDevices

/// The whole box in simulation: every device on one virtual clock, and a
/// wait that jumps the clock to the next event. Paced, it sleeps in poll()
/// on the signal descriptor until the wall clock catches up, so Ctrl-C is
/// handled by the same code as on the box; fast, it only peeks at signals.
public struct SimulatedPlatform: GatePlatform {
    public var camera: SimulatedCamera
    public var motion: SimulatedMotion
    public var buttons: SimulatedButtons
    public var lights: TerminalIndicator
    public var speaker: TerminalSpeaker
    /// The links to other simulated boxes; none for a box alone.
    public var link = SimulatedLinkEndpoint()
    public let scenario: Scenario
    public let clock: VirtualClock
    private let renderer: SceneRenderer
    private let paced: Bool
    private let signals: SignalDescriptor?
    private var poller: Poller
    private var signalSlot = -1
    /// Real descriptors a source asked to watch (`--simulate --http`): the
    /// page is served on the wall clock while the box runs on its own.
    private var watched = WatchedDescriptors()
    private var wallStartNanos: Int64 = 0
    private var ended = false
    /// Paced: frames handed over more than a frame period after they were
    /// due on the wall clock (the loop was still busy), and the worst delay.
    public private(set) var lateFrames = 0
    public private(set) var worstFrameDelayNanos: Int64 = 0
    /// Virtual Unix time of the simulation's start, so records are reproducible.
    public static let epochMillis: Int64 = 1_767_225_600_000   // 2026-01-01T00:00:00Z

    /// `startNanos`: what the box's clock reads when it starts (a box of a
    /// race, booted a while before the others; its scenario is on that clock).
    public init(scenario: Scenario, paced: Bool, signals: SignalDescriptor?, console: Console, startNanos: Int64 = 0) {
        self.scenario = scenario
        self.paced = paced
        self.signals = signals
        clock = VirtualClock(startNanos: startNanos)
        var scene = Scene(runners: scenario.runners)
        scene.figures = scenario.figures
        scene.bumps = scenario.bumps
        scene.flickerAmplitude = scenario.flickerAmplitude
        renderer = SceneRenderer(camera: scenario.camera, scene: scene, seed: scenario.options.seed)
        camera = SimulatedCamera(renderer: renderer, fps: scenario.options.fps, clock: clock)
        motion = SimulatedMotion(settleNanos: scenario.settleNanos, knocks: scenario.knocks,
                                 seed: scenario.options.seed, clock: clock)
        var edges = [
            ButtonEdge(control: .button, pressed: true, timestampNanos: scenario.buttonPressNanos),
            ButtonEdge(control: .button, pressed: false, timestampNanos: scenario.buttonReleaseNanos),
        ]
        for press in scenario.presses {
            edges.append(ButtonEdge(control: press.control, pressed: true, timestampNanos: press.pressNanos))
            edges.append(ButtonEdge(control: press.control, pressed: false, timestampNanos: press.releaseNanos))
        }
        buttons = SimulatedButtons(edges: edges, clock: clock)
        lights = TerminalIndicator(console: console)
        speaker = TerminalSpeaker(console: console)
        poller = Poller(capacity: 2 + HTTPServerLimits.connections)
        if let signals { signalSlot = poller.register(signals.descriptor) }
        wallStartNanos = MonotonicClock.nowNanos()
    }

    public func release() {
        camera.release()
        poller.release()
    }

    public var nowNanos: Int64 { clock.nowNanos }
    public var wallClockMillis: Int64 { SimulatedPlatform.epochMillis + clock.nowNanos / 1_000_000 }

    public func truthCrossing(nearNanos nanos: Int64) -> Int64? { scenario.truth(nearNanos: nanos) }

    public func truthMovement(nearNanos nanos: Int64) -> Int64? {
        scenario.movementNanos.min { ($0 - nanos).magnitude < ($1 - nanos).magnitude }
    }

    public mutating func wait() throws(GateError) -> ReadySources { try wait(deadlineNanos: nil) }

    /// The virtual clock stops at the loop's deadline too, so a gesture due
    /// then is decided at its instant, as the seed's truth expects.
    public mutating func wait(deadlineNanos: Int64?) throws(GateError) -> ReadySources {
        let next = min(nextEventNanos, max(deadlineNanos ?? Int64.max, clock.nowNanos))
        // Sleep (paced) or peek (fast) on the signal descriptor and any watched ones.
        if poller.count > 0 {
            var timeout: Int32 = 0
            if paced {
                let due = wallStartNanos + next
                let remaining = due - MonotonicClock.nowNanos()
                timeout = remaining > 0 ? Int32((remaining + 999_999) / 1_000_000) : 0
                if next == camera.nextReadyNanos && remaining < 0 {
                    worstFrameDelayNanos = max(worstFrameDelayNanos, -remaining)
                    if -remaining > camera.format.framePeriodNanos { lateFrames += 1 }
                }
            }
            do {
                if try poller.wait(timeoutMillis: timeout) > 0 {
                    if signalSlot >= 0 && poller.isReadable(signalSlot) { return .signal }
                    let ready = watched.ready(in: poller)
                    // Served at once; the clock moves on the next wait.
                    if !ready.isEmpty { return ready }
                }
            } catch {
                throw GateError("poll", error, doing: "waiting for the next event")
            }
        }
        clock.advance(to: next)
        return readySources()
    }

    /// When the next device has something, on this box's clock.
    public var nextEventNanos: Int64 {
        min(min(camera.nextReadyNanos, motion.nextSampleNanos),
            min(min(buttons.nextEdgeNanos, speaker.nextEventNanos), scenario.endNanos))
    }

    /// What is ready at the clock's time: after `wait` moved it, or a driver
    /// of several boxes that moves each box's clock itself.
    public mutating func readySources() -> ReadySources {
        let now = clock.nowNanos
        var ready: ReadySources = []
        if camera.nextReadyNanos <= now { ready.insert(.camera) }
        if motion.nextSampleNanos <= now { ready.insert(.motion) }
        if buttons.nextEdgeNanos <= now { ready.insert(.buttons) }
        if speaker.nextEventNanos <= now { ready.insert(.speaker) }
        if scenario.endNanos <= now && !ended { ready.insert(.scenarioEnd); ended = true }
        return ready
    }

    public mutating func watch(_ descriptor: FileDescriptor, for owner: WatchOwner) -> Int? {
        watched.watch(descriptor, for: owner, in: &poller)
    }

    public mutating func setWatchesOutput(_ slot: Int, _ output: Bool) {
        poller.setWaitsForOutput(slot, output)
    }

    public mutating func unwatch(_ slot: Int) {
        watched.unwatch(slot, in: &poller)
    }

    /// The simulated camera never fails, so the loop never calls this.
    public mutating func cameraLost() {
        fatalError("the simulated camera cannot be lost")
    }

    public mutating func nextSignal() throws(GateError) -> SignalDescriptor.Received? {
        guard let signals else { return nil }
        do { return try signals.next() } catch { throw GateError("signalfd", error, doing: "reading a signal") }
    }
}

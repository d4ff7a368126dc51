import GateCore
import GateDevices

/// The camera's watch on the start, a source of its own (house rule 2): the
/// loop hands it each frame while the gate is armed or running, the tap
/// that calls a start and the GO the speaker reports; it owns the
/// `StartWatch` and decides what the start's frames mean.
/// - In-frame start: someone still in view is "ready" (once); when that
///   athlete leaves the frame, the run starts at the instant they left.
///   Someone who never stood still (walking past) starts nothing.
/// - Called start (countdown, voice): the athlete must be still in view
///   from `watchFrom` on ("Set" plus the time to rise into it; the tap for
///   a countdown). Their first movement against GO is the reaction; under
///   100 ms after GO, or before it, a false start.
struct StartWatchSource {
    enum Outcome: Equatable {
        /// In-frame: the athlete is still in view; the box says "ready".
        case ready
        /// In-frame: the athlete left the frame; the run starts then.
        case leftTheFrame(StartWatch.Instant)
        /// Called start: the athlete is set and watched.
        case athleteSet
        /// Called start: GO and the first movement, or why it was not seen.
        case reaction(go: Int64, movement: StartWatch.Instant?, unseen: String?)
    }

    let watch: StartWatch
    let startType: StartType
    /// A called start in progress: movements count from this instant on.
    private var watchFromNanos: Int64?
    /// The athlete has been still in view since `watchFromNanos`.
    private var watching = false
    private var movement: StartWatch.Instant?
    private var goNanos: Int64?
    /// In-frame: "ready" was said for the athlete now in view.
    private var readySaid = false
    /// After GO, the first movement is waited for this long.
    static let movementWaitNanos: Int64 = 1_500_000_000

    init(format: FrameFormat, startType: StartType) {
        watch = StartWatch(width: format.width, height: format.height, readoutNanos: format.readoutNanos)
        self.startType = startType
    }

    /// The gate armed: the empty scene is learnt from the next frames.
    mutating func learn() {
        watch.learn()
        readySaid = false
        calledOff()
    }

    /// A called start's tap: movements count from `watchFromNanos`.
    mutating func calling(watchFromNanos: Int64) {
        self.watchFromNanos = watchFromNanos
        watching = false
        movement = nil
        goNanos = nil
    }

    mutating func calledOff() {
        watchFromNanos = nil
        watching = false
        movement = nil
        goNanos = nil
    }

    /// Whether the frames matter: an armed gate's (who is in view, still),
    /// and a running one's only while a called start waits for the movement.
    func wantsFrames(_ state: SoloLapSession.State) -> Bool {
        state == .armed || (state == .running && watchFromNanos != nil)
    }

    /// GO left the speaker at `nanos`.
    mutating func go(atNanos nanos: Int64) -> Outcome? {
        guard watchFromNanos != nil else { return nil }
        goNanos = nanos
        if movement != nil || !watching { return decide() }
        return nil
    }

    /// One frame (allocates nothing unless it has news).
    mutating func frame(_ frame: LumaFrame) -> Outcome? {
        let event = watch.process(frame)
        if startType == .inFrame {
            switch event {
            case .ready?:
                readySaid = true
                return .ready
            case .settled?:
                readySaid = false
            case .left(let instant)?:
                defer { readySaid = false }
                if readySaid { return .leftTheFrame(instant) }
            default: break
            }
            return nil
        }
        guard let from = watchFromNanos else { return nil }
        if case .moved(let instant)? = event, watching, movement == nil {
            movement = instant
            watching = false
            if goNanos != nil { return decide() }
            return nil
        }
        if !watching && movement == nil && goNanos == nil && frame.timestampNanos >= from && watch.phase == .settled {
            watching = true
            return .athleteSet
        }
        if let go = goNanos, frame.timestampNanos > go + StartWatchSource.movementWaitNanos {
            return decide()
        }
        return nil
    }

    private mutating func decide() -> Outcome? {
        guard let go = goNanos else { return nil }
        let seen = movement
        let wasWatching = watching
        calledOff()
        if let seen { return .reaction(go: go, movement: seen, unseen: nil) }
        return .reaction(go: go, movement: nil,
                         unseen: wasWatching ? "no movement within 1.5 s of GO" : "nobody still in view after \"Set\"")
    }
}

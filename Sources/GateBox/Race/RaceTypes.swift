import GateCore
import GateProtocol

/// Where a race stands on one box (seed 000, 9.6's states and names).
public enum RaceState: Equatable, Sendable {
    /// Not started: no link yet.
    case idle
    /// Pairing and handshaking: until every planned gate has a box (on a
    /// joiner: until the host accepted it).
    case connecting
    /// Until the host's clock sync with every peer can time (FAIR or better).
    case syncing
    /// Synced; waiting for every gate's detector to be ready.
    case ready
    /// Armed (arm_gates): accepting crossings.
    case waitingForCrossing
    /// The run's clock started at `startNanos`: on the host's clock (a
    /// joiner shows the instant as the host relayed it).
    case running(startNanos: Int64)
    /// The run's split is computed; the host re-arms for the next run.
    case finished

    /// The heartbeat's word for it (seed 002, 3.2).
    var heartbeatState: GateState {
        switch self {
        case .idle, .connecting, .syncing: return .idle
        case .ready: return .calibrating
        case .waitingForCrossing, .finished: return .armed
        case .running: return .timing
        }
    }

    /// For say lines and tests.
    public var name: String {
        switch self {
        case .idle: return "idle"
        case .connecting: return "connecting"
        case .syncing: return "syncing"
        case .ready: return "ready"
        case .waitingForCrossing: return "waitingForCrossing"
        case .running: return "running"
        case .finished: return "finished"
        }
    }
}

/// This box's own crossing, from its detector, on its own monotonic clock.
public struct LocalCrossing: Equatable, Sendable {
    public var timeNanos: Int64
    public var frameIndex: Int64
    public var interpolationOffsetMs: Double
    public var uncertaintyMs: Double
    public var occupancyAtTrigger: Double
    public var speedMps: Double

    public init(timeNanos: Int64, frameIndex: Int64, interpolationOffsetMs: Double, uncertaintyMs: Double,
                occupancyAtTrigger: Double, speedMps: Double) {
        self.timeNanos = timeNanos
        self.frameIndex = frameIndex
        self.interpolationOffsetMs = interpolationOffsetMs
        self.uncertaintyMs = uncertaintyMs
        self.occupancyAtTrigger = occupancyAtTrigger
        self.speedMps = speedMps
    }
}

/// What the box shows with its LED and buzzer.
public enum RaceIndication: Equatable, Sendable {
    /// Every gate armed: the athlete may go.
    case ready
    /// The run's clock started.
    case running
    /// A split was computed (and recorded).
    case runFinished
    /// A link went silent.
    case peerLost
    /// A peer's clock sync fell below FAIR: no timing across it.
    case syncTooPoor
}

/// What the caller does for the coordinator, in order.
public enum RaceEffect: Equatable, Sendable {
    /// Send this payload to peer `to`, or to every connected peer when nil.
    /// The caller wraps it in a `TimingMessage` with its time and device id.
    case send(TimingPayload, to: Int?)
    /// Append this record to the session's results.
    case record(RaceRunRecord)
    /// One line for the console and the log.
    case say(String)
    case indicate(RaceIndication)
}

/// The race's timings.
public struct RaceSettings: Equatable, Sendable {
    /// A heartbeat to each peer this often (seed 002, 3.2).
    public var heartbeatIntervalNanos: Int64 = 2_000_000_000
    /// A peer silent this long is lost.
    public var silenceLimitNanos: Int64 = 6_000_000_000
    /// After a run's split, the host arms the next run this much later, so
    /// the finisher walking back through a gate is not timed. 0: at once.
    public var rearmDelayNanos: Int64 = 3_000_000_000
    /// Sync worse than this (ms) may not time (seed 002, 4.3 and 7.3).
    public var requiredSyncMs = 10.0

    public init() {}
}

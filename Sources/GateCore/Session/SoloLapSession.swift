/// Solo lap mode (seed 000 section 8) on one box: arm, wait for a still
/// tripod, then the first crossing starts the clock (flying start) and every
/// later crossing records a lap.
public struct SoloLapSession {
    public enum State: Equatable {
        /// Powered, not armed (waiting for the button).
        case idle
        /// Armed by the user, waiting for the tripod to be still.
        case stabilising
        /// Still; waiting for the first crossing.
        case armed
        /// Clock running; crossings record laps.
        case running
        case stopped

        public var name: String {
            switch self {
            case .idle: return "idle"
            case .stabilising: return "stabilising"
            case .armed: return "armed"
            case .running: return "running"
            case .stopped: return "stopped"
            }
        }
    }

    /// One accepted crossing. Lap 0 is the crossing that started the clock.
    public struct Lap: Equatable {
        public var lap: Int
        public var crossing: DetectedCrossing
        public var startNanos: Int64
        /// Since the start crossing.
        public var elapsedNanos: Int64
        /// Since the previous crossing (nil for lap 0).
        public var splitNanos: Int64?
        /// True when the tripod moved while this lap was run.
        public var disturbed: Bool
    }

    public private(set) var state: State = .idle
    public private(set) var startNanos: Int64?
    public private(set) var lapCount = 0
    public private(set) var bestSplitNanos: Int64?
    /// Seed 000 section 8.4: no second lap within this time of a crossing.
    public var cooldownNanos: Int64
    private var previousNanos: Int64?
    private var disturbedSinceLastLap = false
    /// Whether the tripod was still when the clock started; a disturbed start is flagged.
    private var wasStill = false

    public init(cooldownNanos: Int64 = 1_000_000_000) {
        self.cooldownNanos = cooldownNanos
    }

    /// The button asked to arm. Returns true if the state changed.
    public mutating func arm() -> Bool {
        guard state == .idle else { return false }
        state = wasStill ? .armed : .stabilising
        return true
    }

    /// The stability filter changed its mind.
    public mutating func tripod(still: Bool) {
        wasStill = still
        switch (state, still) {
        case (.stabilising, true): state = .armed
        case (.armed, false): state = .stabilising
        case (.running, false): disturbedSinceLastLap = true
        default: break
        }
    }

    /// A crossing from the detector; returns the lap it records, or nil if the
    /// session is not accepting crossings now.
    public mutating func record(_ crossing: DetectedCrossing) -> Lap? {
        switch state {
        case .armed:
            state = .running
            startNanos = crossing.timeNanos
            previousNanos = crossing.timeNanos
            disturbedSinceLastLap = false
            let lap = Lap(lap: 0, crossing: crossing, startNanos: crossing.timeNanos, elapsedNanos: 0,
                          splitNanos: nil, disturbed: false)
            return lap
        case .running:
            guard let start = startNanos, let previous = previousNanos,
                  crossing.timeNanos - previous >= cooldownNanos else { return nil }
            lapCount += 1
            let split = crossing.timeNanos - previous
            previousNanos = crossing.timeNanos
            if bestSplitNanos == nil || split < bestSplitNanos! { bestSplitNanos = split }
            let lap = Lap(lap: lapCount, crossing: crossing, startNanos: start,
                          elapsedNanos: crossing.timeNanos - start, splitNanos: split,
                          disturbed: disturbedSinceLastLap || !wasStill)
            disturbedSinceLastLap = false
            return lap
        default:
            return nil
        }
    }

    public mutating func stop() { state = .stopped }
}

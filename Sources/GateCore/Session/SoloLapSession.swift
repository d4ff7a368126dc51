/// Solo mode (seed 000 section 8) on one box: arm, wait for a still tripod,
/// then time runs through the gate.
/// - Flying start: the first crossing starts the clock and every later
///   crossing records a lap.
/// - Touch-release and countdown starts: the start event (the pad's release
///   edge, the GO sound leaving the speaker) starts the clock, the next
///   crossing finishes that run, and the box waits for the next start.
///
/// A tripod moved while the gate is armed disarms it (the aim may have
/// changed): back to idle, or, with `rearmsAfterMovement` (experimental
/// mode), to stabilising, so it arms again once still. A run in progress
/// goes on and its lap is flagged.
public struct SoloLapSession {
    public enum State: Equatable {
        /// Powered, not armed (waiting for the button).
        case idle
        /// Armed by the user, waiting for the tripod to be still.
        case stabilising
        /// Still; waiting for the first crossing, or for a start.
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

    /// One accepted crossing. With a flying start, lap 0 is the crossing that
    /// started the clock; with a start event, each run's finish is lap 1.
    public struct Lap: Equatable {
        /// Flying: the lap number; otherwise the number of the start.
        public var run: Int
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

    public let startType: StartType
    public let rearmsAfterMovement: Bool
    public private(set) var state: State = .idle
    /// Starts taken so far (touch-release and countdown).
    public private(set) var runCount = 0
    public private(set) var startNanos: Int64?
    public private(set) var lapCount = 0
    public private(set) var bestSplitNanos: Int64?
    /// Seed 000 section 8.4: no second lap within this time of a crossing.
    public var cooldownNanos: Int64
    private var previousNanos: Int64?
    private var disturbedSinceLastLap = false
    /// Whether the tripod was still when the clock started; a disturbed start is flagged.
    private var wasStill = false

    public init(startType: StartType = .flying, cooldownNanos: Int64 = 1_000_000_000, rearmsAfterMovement: Bool = false) {
        self.startType = startType
        self.rearmsAfterMovement = rearmsAfterMovement
        self.cooldownNanos = cooldownNanos
    }

    /// The button asked to arm. Returns true if the state changed.
    public mutating func arm() -> Bool {
        guard state == .idle else { return false }
        state = wasStill ? .armed : .stabilising
        return true
    }

    /// A long press: back to idle from any armed state. A run in progress is
    /// abandoned (its start is already recorded). Returns true if the state changed.
    public mutating func disarm() -> Bool {
        switch state {
        case .stabilising, .armed, .running:
            state = .idle
            startNanos = nil
            previousNanos = nil
            return true
        case .idle, .stopped:
            return false
        }
    }

    /// A start event at `nanos` (touch-release, countdown, voice). Only an armed
    /// box with such a start type takes it; returns the run's number.
    public mutating func start(atNanos nanos: Int64) -> Int? {
        guard startType.isExternal, state == .armed else { return nil }
        state = .running
        runCount += 1
        startNanos = nanos
        previousNanos = nanos
        disturbedSinceLastLap = false
        return runCount
    }

    /// The stability filter changed its mind.
    public mutating func tripod(still: Bool) {
        wasStill = still
        switch (state, still) {
        case (.stabilising, true): state = .armed
        case (.armed, false): state = rearmsAfterMovement ? .stabilising : .idle
        case (.running, false): disturbedSinceLastLap = true
        default: break
        }
    }

    /// A crossing from the detector; returns the lap it records, or nil if the
    /// session is not accepting crossings now.
    public mutating func record(_ crossing: DetectedCrossing) -> Lap? {
        if startType.isExternal { return finish(crossing) }
        switch state {
        case .armed:
            state = .running
            startNanos = crossing.timeNanos
            previousNanos = crossing.timeNanos
            disturbedSinceLastLap = false
            // Numbered after the laps so far: a gate disarmed and armed again
            // starts a new clock whose records and files must not take the
            // first start's names (run-000 is the session's first start).
            let lap = Lap(run: lapCount, lap: 0, crossing: crossing, startNanos: crossing.timeNanos, elapsedNanos: 0,
                          splitNanos: nil, disturbed: false)
            return lap
        case .running:
            guard let start = startNanos, let previous = previousNanos,
                  crossing.timeNanos - previous >= cooldownNanos else { return nil }
            lapCount += 1
            let split = crossing.timeNanos - previous
            previousNanos = crossing.timeNanos
            if bestSplitNanos == nil || split < bestSplitNanos! { bestSplitNanos = split }
            let lap = Lap(run: lapCount, lap: lapCount, crossing: crossing, startNanos: start,
                          elapsedNanos: crossing.timeNanos - start, splitNanos: split,
                          disturbed: disturbedSinceLastLap || !wasStill)
            disturbedSinceLastLap = false
            return lap
        default:
            return nil
        }
    }

    /// The crossing that finishes a started run; anything else (someone
    /// walking through an armed gate, a crossing before the start) is not timed.
    private mutating func finish(_ crossing: DetectedCrossing) -> Lap? {
        guard state == .running, let start = startNanos, crossing.timeNanos > start else { return nil }
        lapCount += 1
        let elapsed = crossing.timeNanos - start
        if bestSplitNanos == nil || elapsed < bestSplitNanos! { bestSplitNanos = elapsed }
        let lap = Lap(run: runCount, lap: 1, crossing: crossing, startNanos: start, elapsedNanos: elapsed,
                      splitNanos: elapsed, disturbed: disturbedSinceLastLap || !wasStill)
        // Moved during the run: the gate does not arm again on an aim nobody checked.
        state = lap.disturbed && !rearmsAfterMovement ? .idle : wasStill ? .armed : .stabilising
        startNanos = nil
        previousNanos = nil
        disturbedSinceLastLap = false
        return lap
    }

    public mutating func stop() { state = .stopped }
}

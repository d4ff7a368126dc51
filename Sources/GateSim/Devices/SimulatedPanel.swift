import GateCore
import GateDevices

/// Scripted button edges (the user pressing "arm").
public struct SimulatedButtons: ButtonInput {
    private var edges: [ButtonEdge]
    private var next = 0
    private let clock: VirtualClock

    public init(edges: [ButtonEdge], clock: VirtualClock) {
        self.edges = edges
        self.clock = clock
    }

    public var nextEdgeNanos: Int64 { next < edges.count ? edges[next].timestampNanos : Int64.max }

    public mutating func nextEdge() throws(GateError) -> ButtonEdge? {
        guard next < edges.count, edges[next].timestampNanos <= clock.nowNanos else { return nil }
        next += 1
        return edges[next - 1]
    }
}

/// The LED and buzzer, shown as terminal lines.
public struct TerminalIndicator: Indicator {
    public let console: Console
    public private(set) var current: IndicatorPattern = .off
    public private(set) var changes = 0

    public init(console: Console) { self.console = console }

    public mutating func show(_ pattern: IndicatorPattern, atNanos: Int64) throws(GateError) {
        changes += 1
        current = pattern
        let look: String
        switch pattern {
        case .off: look = "LED off"
        case .stabilising: look = "LED ◌ slow blink     (stabilising: keep the tripod still)"
        case .armed: look = "LED ● steady         (armed)"
        case .crossing: look = "LED ✱ flash + buzzer (crossing)"
        case .error: look = "LED ✖ fast blink + long buzz (error)"
        case .pairing: look = "LED ◎ double blink + two chirps (pairing mode)"
        }
        console.line(DecimalText.clockLabel(atNanos) + " " + look)
    }
}

/// The speaker, shown as terminal lines. A countdown's sounds come at
/// their virtual instants (`nextEventNanos` wakes the platform), and the GO
/// leaves this ideal speaker exactly 3 s after the countdown began.
public struct TerminalSpeaker: SoundOutput {
    public let console: Console
    public private(set) var played = 0
    private var countdownStart: Int64?
    private var nextCue = 0
    static let cueLabels = ["3", "2", "1", "GO (gunshot)"]

    public init(console: Console) { self.console = console }

    public mutating func play(_ sound: Sound, atNanos: Int64) throws(GateError) {
        played += 1
        console.line(DecimalText.clockLabel(atNanos) + " ♪ " + sound.name)
    }

    public mutating func startCountdown(atNanos: Int64) throws(GateError) {
        countdownStart = atNanos
        nextCue = 0
    }

    public var isStreaming: Bool { countdownStart != nil }
    public var clockSource: String { "virtual-clock" }

    /// When the next countdown sound plays; Int64.max when none.
    public var nextEventNanos: Int64 {
        guard let start = countdownStart else { return Int64.max }
        return start + Int64(nextCue) * 1_000_000_000
    }

    public mutating func service(atNanos now: Int64) throws(GateError) -> Int64? {
        while countdownStart != nil && nextEventNanos <= now {
            let at = nextEventNanos
            played += 1
            console.line(DecimalText.clockLabel(at) + " ♪ " + TerminalSpeaker.cueLabels[nextCue])
            nextCue += 1
            if nextCue == TerminalSpeaker.cueLabels.count {
                countdownStart = nil
                return at
            }
        }
        return nil
    }
}

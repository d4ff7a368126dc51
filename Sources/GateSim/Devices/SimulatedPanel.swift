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
        }
        console.line(DecimalText.clockLabel(atNanos) + " " + look)
    }
}

/// The speaker, shown as terminal lines.
public struct TerminalSpeaker: SoundOutput {
    public let console: Console
    public private(set) var played = 0

    public init(console: Console) { self.console = console }

    public mutating func play(_ sound: Sound, atNanos: Int64) throws(GateError) {
        played += 1
        console.line(DecimalText.clockLabel(atNanos) + " ♪ " + sound.name)
    }
}

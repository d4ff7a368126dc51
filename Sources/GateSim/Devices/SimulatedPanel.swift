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
        case .falseStart: look = "LED ✖✖✖ three long flashes + buzzes (false start)"
        }
        console.line(DecimalText.clockLabel(atNanos) + " " + look)
    }
}

/// The speaker, shown as terminal lines at the virtual instants its sounds
/// play (`nextEventNanos` wakes the platform): an ideal device, so a
/// start's GO leaves it exactly when its program says. Words said one
/// after another are one line, at the first word's instant.
public struct TerminalSpeaker: SoundOutput {
    public let console: Console
    public private(set) var played = 0
    public private(set) var skippedSounds = 0
    private var program: SoundProgram?
    private var startNanos: Int64 = 0
    private var nextCue = 0
    /// Words closer than this run on in one line.
    static let phraseGapNanos: Int64 = 400_000_000

    public init(console: Console) { self.console = console }

    public mutating func play(_ next: SoundProgram, atNanos: Int64) throws(GateError) {
        if let program, program.markNanos != nil, next.markNanos == nil {
            skippedSounds += 1
            return
        }
        program = next
        startNanos = atNanos
        nextCue = 0
        _ = try service(atNanos: atNanos)
    }

    public mutating func stop(atNanos: Int64) throws(GateError) {
        program = nil
    }

    public var isStreaming: Bool { program != nil }
    public var clockSource: String { "virtual-clock" }

    /// When the next sound plays; Int64.max when none.
    public var nextEventNanos: Int64 {
        guard let program, nextCue < program.cues.count else { return Int64.max }
        return startNanos + program.cues[nextCue].atNanos
    }

    public mutating func service(atNanos now: Int64) throws(GateError) -> Int64? {
        var mark: Int64?
        while let program, nextEventNanos <= now {
            let first = program.cues[nextCue]
            var line = DecimalText.clockLabel(startNanos + first.atNanos)
            if first.sound.isSpoken {
                var words = first.sound.label
                var end = first.endNanos
                while nextCue + 1 < program.cues.count, program.cues[nextCue + 1].sound.isSpoken,
                      program.cues[nextCue + 1].atNanos - end < TerminalSpeaker.phraseGapNanos,
                      program.markNanos != program.cues[nextCue + 1].atNanos {
                    nextCue += 1
                    // A pause between groups ("lap three, four point ...") reads as a comma.
                    words += (program.cues[nextCue].atNanos - end >= 200_000_000 ? ", " : " ") + program.cues[nextCue].sound.label
                    end = program.cues[nextCue].endNanos
                }
                line += " 🗣 \"" + words + "\""
            } else {
                line += " ♪ " + first.sound.label
            }
            if program.markNanos == first.atNanos {
                line += " (GO)"
                mark = startNanos + first.atNanos
            }
            console.line(line)
            played += 1
            nextCue += 1
            if nextCue == program.cues.count { self.program = nil }
        }
        return mark
    }
}

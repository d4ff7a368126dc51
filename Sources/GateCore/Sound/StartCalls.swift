/// How the box calls a start and speaks a time (seed 000 sections 5.3,
/// 5.4, 14.2, 14.3, 16): the voice start's delay ranges, the GO sound, and
/// whether times are announced.
public struct VoiceSettings: Equatable, Sendable {
    /// From the button's tap to "On your marks": time to walk to the line.
    public var preStartSeconds: ClosedRange<Double> = 3...5
    /// From the end of "On your marks" to "Set": athletes settle in their blocks.
    public var marksToSetSeconds: ClosedRange<Double> = 8...12
    /// From the end of "Set" to GO; international starters hold 1.5-2.3 s.
    public var setToGoSeconds: ClosedRange<Double> = 1.5...2.3
    public var go = GoSound.gunshot
    /// After each run or lap, say its time.
    public var announce = true
    /// Say "seconds" after the time.
    public var announceUnits = false

    public init() {}
}

/// What GO sounds like, in a countdown and a voice start.
public enum GoSound: Equatable, Sendable {
    case gunshot, beep, whistle, word

    public var name: String {
        switch self {
        case .gunshot: return "gunshot"
        case .beep: return "beep"
        case .whistle: return "whistle"
        case .word: return "word"
        }
    }

    public init?(name: String) {
        switch name {
        case "gunshot": self = .gunshot
        case "beep": self = .beep
        case "whistle": self = .whistle
        case "word": self = .word
        default: return nil
        }
    }

    public static let names = "gunshot, beep, whistle or word (the spoken \"Go!\")"

    public var sound: SoundName {
        switch self {
        case .gunshot: return .tone(.gunshot)
        case .beep: return .tone(.beep)
        case .whistle: return .tone(.whistle)
        case .word: return .phrase(.go)
        }
    }
}

/// A voice start as drawn: its program (GO is the mark) and the delays.
public struct VoiceStartCall: Equatable, Sendable {
    public var program: SoundProgram
    public var preStartNanos: Int64
    public var marksToSetNanos: Int64
    public var setToGoNanos: Int64
    /// When GO plays, after the program's start.
    public var goNanos: Int64 { program.markNanos ?? 0 }
    /// Whether the calls were spoken (else beeps stood in for the words).
    public var spoken: Bool
}

public enum StartCalls {
    /// The draws of a session's voice starts: from its seed (a simulation's,
    /// so the simulated athlete knows when GO comes), mixed with a tag so
    /// they are not the draws the scenario made from the same seed.
    public static func random(seed: UInt64) -> SplitMix64 {
        SplitMix64(seed: seed ^ 0x766F_6963_6573_7421)
    }

    /// "On your marks" ... "Set" ... GO with delays drawn uniformly from the
    /// settings' ranges, to the millisecond. Each delay runs from the end of
    /// one call to the start of the next, as an athlete hears them. A call
    /// the voice lacks is a beep; a spoken GO it lacks is the gunshot.
    public static func voiceStart(_ settings: VoiceSettings, voice: Voice, random: inout SplitMix64) -> VoiceStartCall {
        func draw(_ range: ClosedRange<Double>) -> Int64 {
            Int64((random.uniform(range.lowerBound, range.upperBound) * 1000).rounded()) * 1_000_000
        }
        let preStart = draw(settings.preStartSeconds)
        let marksToSet = draw(settings.marksToSetSeconds)
        let setToGo = draw(settings.setToGoSeconds)
        var p = SoundProgram()
        var spoken = true
        func call(_ phrase: Phrase, at: Int64) -> Int64 {
            if p.add(.phrase(phrase), atNanos: at, voice: voice) { return p.cues[p.cues.count - 1].endNanos }
            spoken = false
            p.add(.tone(.beep), atNanos: at, voice: voice)
            return p.cues[p.cues.count - 1].endNanos
        }
        let marksEnd = call(.onYourMarks, at: preStart)
        let setEnd = call(.set, at: marksEnd + marksToSet)
        if !p.add(settings.go.sound, atNanos: setEnd + setToGo, voice: voice, isMark: true) {
            p.add(.tone(.gunshot), atNanos: setEnd + setToGo, voice: voice, isMark: true)
        }
        return VoiceStartCall(program: p, preStartNanos: preStart, marksToSetNanos: marksToSet, setToGoNanos: setToGo,
                              spoken: spoken)
    }

    /// Gaps that make clipped words sound like speech.
    static let wordGapNanos: Int64 = 60_000_000
    static let pauseNanos: Int64 = 250_000_000
    /// The crossing's beep comes first; the words after it.
    static let wordsAfterBeepNanos: Int64 = 300_000_000

    /// The words for a time: "lap three", "four point eight two", "seconds",
    /// and "best lap" (or another remark, with "by zero point zero five"
    /// when `gainNanos` says by how much a best was beaten); nil when the
    /// voice lacks any of them or the time is beyond 999.99 s.
    public static func timeWords(lap: Int?, nanos: Int64, units: Bool, remark: Phrase?, gainNanos: Int64? = nil,
                                 voice: Voice) -> [[Phrase]]? {
        var groups: [[Phrase]] = []
        if let lap {
            var words = [Phrase.lap]
            guard SpokenNumbers.integer(lap, into: &words) else { return nil }
            groups.append(words)
        }
        var time: [Phrase] = []
        guard SpokenNumbers.seconds(nanos, into: &time) else { return nil }
        if units { time.append(.seconds) }
        groups.append(time)
        if let remark {
            var words = [remark]
            if let gainNanos, gainNanos > 0 {
                words.append(.by)
                guard SpokenNumbers.seconds(gainNanos, into: &words) else { return nil }
            }
            groups.append(words)
        }
        for group in groups { for word in group where !voice.has(word) { return nil } }
        return groups
    }

    /// The crossing's beep, then (when `words` is given) the time spoken;
    /// without the beep (a race's time, said once the host has it, after
    /// the crossing's own beep), the words alone.
    public static func crossing(words: [[Phrase]]?, voice: Voice, beep: Bool = true) -> SoundProgram {
        var p = beep ? SoundProgram.single(.tone(.beep), voice: voice) : SoundProgram()
        guard let words else { return p }
        var at = beep ? wordsAfterBeepNanos : 0
        for group in words {
            at = p.say(group, atNanos: at, gapNanos: wordGapNanos, voice: voice) + pauseNanos
        }
        return p
    }

    /// In-frame start: a beep, then "ready" (the beep alone without the clip).
    public static func ready(voice: Voice) -> SoundProgram {
        var p = SoundProgram.single(.tone(.beep), voice: voice)
        p.add(.phrase(.ready), atNanos: wordsAfterBeepNanos, voice: voice)
        return p
    }

    /// A false start: three buzzes (a recall), then "false start".
    public static func falseStart(voice: Voice) -> SoundProgram {
        var p = SoundProgram()
        for k in 0..<3 { p.add(.tone(.buzz), atNanos: Int64(k) * 350_000_000, voice: voice) }
        p.add(.phrase(.falseStart), atNanos: p.endNanos + wordsAfterBeepNanos, voice: voice)
        return p
    }
}

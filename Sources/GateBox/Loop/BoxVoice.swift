import GateCore
import GateDevices

/// The box's voice, a source of its own (house rule 2): it calls the starts
/// (3-2-1-GO, or "On your marks" ... "Set" ... GO after random delays) and
/// says each time after its crossing. The loop hands it the button's tap,
/// the GO the speaker reports and each timed crossing; it owns the call in
/// progress, the random draws and the clips.
struct BoxVoice {
    let settings: VoiceSettings
    let voice: Voice
    private var random: SplitMix64
    /// The start being called, from the tap until its GO plays or it is called off.
    private(set) var calling: StartType?
    /// Why times are not spoken, said once.
    private var saidWhyNoWords = false

    init(settings: VoiceSettings, voice: Voice, seed: UInt64) {
        self.settings = settings
        self.voice = voice
        random = StartCalls.random(seed: seed)
    }

    /// The program that calls a start of `type` (countdown or voice), a
    /// line for the log that gives the delays drawn, and from when (after
    /// the program's start) the athlete must hold still: 0.3 s after "Set"
    /// ends (time to rise into it), or at once for a countdown.
    mutating func call(_ type: StartType) -> (program: SoundProgram, line: String, watchFromNanos: Int64) {
        calling = type
        if type == .voice {
            let call = StartCalls.voiceStart(settings, voice: voice, random: &random)
            func s(_ nanos: Int64) -> String { DecimalText.fixed(Double(nanos) / 1e9, places: 3) + " s" }
            return (call.program, "button: voice start: \"On your marks\" in " + s(call.preStartNanos) + ", \"Set\" "
                + s(call.marksToSetNanos) + " after it, " + settings.go.name + " " + s(call.setToGoNanos) + " after \"Set\""
                + (call.spoken ? "" : " (beeps for the words: no voice clips)") + "; tap to call it off",
                call.goNanos - call.setToGoNanos + BoxVoice.riseNanos)
        }
        return (SoundProgram.countdown(go: settings.go.sound, voice: voice), "button: countdown 3-2-1-GO", 0)
    }

    /// After "Set", the athlete rises into the set position: not a false start.
    static let riseNanos: Int64 = 300_000_000

    /// The call in progress is called off (a tap before GO, a disarm, the
    /// camera lost); returns whether there was one.
    mutating func callOff() -> Bool {
        defer { calling = nil }
        return calling != nil
    }

    /// The speaker reported GO: the call is over; returns what was called.
    mutating func goPlayed() -> StartType? {
        defer { calling = nil }
        return calling
    }

    /// The crossing's sound: the beep, then its time ("lap three, four
    /// point eight two, best lap") when announcements are on and the clips
    /// are there; `note` says once why a time is not spoken.
    mutating func crossing(lap: Int?, nanos: Int64, remark: Phrase?, gainNanos: Int64? = nil) -> (program: SoundProgram, note: String?) {
        guard settings.announce else { return (StartCalls.crossing(words: nil, voice: voice), nil) }
        let words = timeWords(lap: lap, nanos: nanos, remark: remark, gainNanos: gainNanos)
        return (StartCalls.crossing(words: words.words, voice: voice), words.note)
    }

    /// A race's time, said at the finish gate once the host has computed
    /// it (the crossing beeped already); nil when nothing is to be said.
    mutating func raceTime(nanos: Int64, remark: Phrase?) -> (program: SoundProgram?, note: String?) {
        guard settings.announce else { return (nil, nil) }
        let words = timeWords(lap: nil, nanos: nanos, remark: remark)
        return (words.words.map { StartCalls.crossing(words: $0, voice: voice, beep: false) }, words.note)
    }

    private mutating func timeWords(lap: Int?, nanos: Int64, remark: Phrase?, gainNanos: Int64? = nil) -> (words: [[Phrase]]?, note: String?) {
        let words = StartCalls.timeWords(lap: lap, nanos: nanos, units: settings.announceUnits, remark: remark,
                                         gainNanos: gainNanos, voice: voice)
        guard words == nil && !saidWhyNoWords else { return (words, nil) }
        saidWhyNoWords = true
        return (nil, voice.clipCount == 0 ? "times are not spoken: no voice clips (see the voice line at the start)"
            : "a time was not spoken: a word it needs has no clip, or it is over 999.99 s")
    }
}

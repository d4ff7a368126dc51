/// A sound the box can make: a synthesised tone, or a spoken phrase from
/// its voice clips.
public enum SoundName: Equatable, Sendable {
    case tone(SoundSynth.Kind)
    case phrase(Phrase)
    /// An athlete's spoken name: the voice's name clip `slot` (`Voice.addName`),
    /// and the name as written, for terminal lines.
    case name(slot: Int, text: String)

    /// Words (a phrase or a name), not a tone.
    public var isSpoken: Bool {
        if case .tone = self { return false }
        return true
    }

    /// As a terminal line shows it.
    public var label: String {
        switch self {
        case .tone(let kind): return kind.name
        case .phrase(let phrase): return phrase.words
        case .name(_, let text): return text
        }
    }
}

/// A stretch of sound the speaker streams as one continuous PCM run: cues
/// (which sound, from which instant after the program's start) over
/// silence. Continuity is the point: while the stream never stops, frame f
/// plays exactly f frames after frame 0, so the instant of any cue follows
/// from the device's status (see `PlaybackEpoch`), whenever the write was
/// issued. Cues are kept in nanoseconds so that a program means the same on
/// any device rate and in the simulator.
public struct SoundProgram: Equatable, Sendable {
    public struct Cue: Equatable, Sendable {
        public var sound: SoundName
        public var atNanos: Int64
        public var lengthNanos: Int64
        public var endNanos: Int64 { atNanos + lengthNanos }
    }

    public private(set) var cues: [Cue] = []
    /// When the last sound ends.
    public private(set) var endNanos: Int64 = 0
    /// The cue whose playing instant the box needs (a start's GO); nil: none.
    public private(set) var markNanos: Int64?

    public init() {}

    /// `sound` from `atNanos` on, if the voice has it; returns whether it was added.
    @discardableResult
    public mutating func add(_ sound: SoundName, atNanos: Int64, voice: Voice, isMark: Bool = false) -> Bool {
        guard let length = voice.nanos(of: sound) else { return false }
        cues.append(Cue(sound: sound, atNanos: atNanos, lengthNanos: length))
        endNanos = max(endNanos, atNanos + length)
        if isMark { markNanos = atNanos }
        return true
    }

    /// Words one after another from `atNanos`, `gapNanos` apart; returns
    /// when the last ends (the words the voice lacks are left out).
    @discardableResult
    public mutating func say(_ words: [Phrase], atNanos: Int64, gapNanos: Int64, voice: Voice) -> Int64 {
        var at = atNanos
        for word in words where add(.phrase(word), atNanos: at, voice: voice) {
            at = cues[cues.count - 1].endNanos + gapNanos
        }
        return max(atNanos, at - gapNanos)
    }

    /// One sound, then silence until the end.
    public static func single(_ sound: SoundName, voice: Voice) -> SoundProgram {
        var p = SoundProgram()
        p.add(sound, atNanos: 0, voice: voice)
        return p
    }

    /// 3-2-1-GO: beeps a second apart, the GO sound a second after the last.
    public static func countdown(go: SoundName, voice: Voice) -> SoundProgram {
        var p = SoundProgram()
        for k in 0..<3 { p.add(.tone(.beep), atNanos: Int64(k) * 1_000_000_000, voice: voice) }
        if !p.add(go, atNanos: 3_000_000_000, voice: voice, isMark: true) {
            p.add(.tone(.gunshot), atNanos: 3_000_000_000, voice: voice, isMark: true)
        }
        return p
    }

    /// The frame at `nanos` after frame 0, at `rate`.
    public static func frame(atNanos nanos: Int64, rate: Int) -> Int {
        Int(nanos * Int64(rate) / 1_000_000_000)
    }

    /// Nanoseconds from frame 0 to `frame`.
    public static func nanos(atFrame frame: Int, rate: Int) -> Int64 {
        Int64(frame) * 1_000_000_000 / Int64(rate)
    }

    /// Writes frames `from ..< from + count` (interleaved, `channels` each)
    /// into `out`, copying from sounds rendered once (`SoundBank`).
    public func render(from: Int, count: Int, channels: Int, bank: SoundBank, into out: UnsafeMutablePointer<Int16>) {
        out.update(repeating: 0, count: count * channels)
        for cue in cues {
            let sound = bank.samples(cue.sound)
            let first = SoundProgram.frame(atNanos: cue.atNanos, rate: bank.rate)
            let begin = max(from, first)
            let end = min(from + count, first + sound.frames)
            guard begin < end else { continue }
            for frame in begin..<end {
                let value = sound.mono[frame - first]
                for c in 0..<channels { out[(frame - from) * channels + c] = value }
            }
        }
    }
}

/// The box's sounds rendered once at the device's `rate`, mono, before any
/// loop runs (tinyalsa's rule: memory is set up before the stream starts):
/// the tones synthesised, the voice's clips resampled.
public final class SoundBank {
    public let rate: Int
    private var buffers: [UnsafeMutablePointer<Int16>] = []
    private var lengths: [Int] = []
    static let tones: [SoundSynth.Kind] = [.beep, .gunshot, .whistle, .buzz]

    public init(rate: Int, voice: Voice = Voice()) {
        self.rate = rate
        for kind in SoundBank.tones {
            let frames = SoundSynth.frames(kind, rate: rate)
            let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: max(frames, 1))
            _ = SoundSynth.render(kind, rate: rate, channels: 1, into: buffer, capacity: frames)
            buffers.append(buffer)
            lengths.append(frames)
        }
        for index in 0..<Phrase.count {
            let clip = voice.clip(Phrase(index: index))
            let frames = clip.map { $0.samples.count * rate / $0.rate } ?? 0
            let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: max(frames, 1))
            if let clip { Resample.linear(clip.samples, into: buffer, frames: frames) }
            buffers.append(buffer)
            lengths.append(frames)
        }
        for slot in 0..<voice.nameCount {
            let clip = voice.nameClip(slot)
            let frames = clip.samples.count * rate / clip.rate
            let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: max(frames, 1))
            Resample.linear(clip.samples, into: buffer, frames: frames)
            buffers.append(buffer)
            lengths.append(frames)
        }
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    static func slot(_ sound: SoundName) -> Int {
        switch sound {
        case .tone(.beep): return 0
        case .tone(.gunshot): return 1
        case .tone(.whistle): return 2
        case .tone(.buzz): return 3
        case .phrase(let phrase): return tones.count + phrase.index
        case .name(let slot, _): return tones.count + Phrase.count + slot
        }
    }

    /// A sound's samples (no frames: a phrase the voice lacks).
    public func samples(_ sound: SoundName) -> (mono: UnsafePointer<Int16>, frames: Int) {
        let slot = SoundBank.slot(sound)
        return (UnsafePointer(buffers[slot]), lengths[slot])
    }
}

/// When frame 0 of a continuous playback stream left the device, on the
/// monotonic clock, from the kernel's PCM status: at `tstamp`, `delay`
/// frames were queued ahead of the next frame to be written, so frame f of
/// `written` plays at tstamp + (delay - (written - f)) / rate.
///
/// The kernel's position (hw_ptr) may lag the true one: period-granular
/// pointers on real cards, jiffies on snd-aloop. A lagging position makes
/// `delay` too large and the estimate late, never early, so the earliest
/// estimate over many readings is the best (a minimum filter).
public struct PlaybackEpoch: Equatable, Sendable {
    public let rate: Int
    public private(set) var epochNanos: Int64?
    public private(set) var readings = 0

    public init(rate: Int) { self.rate = rate }

    /// One status reading of a running stream.
    public mutating func add(statusNanos: Int64, delayFrames: Int, writtenFrames: Int) {
        let estimate = statusNanos + Int64(delayFrames - writtenFrames) * 1_000_000_000 / Int64(rate)
        readings += 1
        if epochNanos == nil || estimate < epochNanos! { epochNanos = estimate }
    }

    /// When frame `frame` plays; nil before any reading.
    public func instant(ofFrame frame: Int) -> Int64? {
        epochNanos.map { $0 + Int64(frame) * 1_000_000_000 / Int64(rate) }
    }
}

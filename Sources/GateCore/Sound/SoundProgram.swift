/// A stretch of sound the speaker streams as one continuous PCM run: cues
/// (which sound, from which frame) over silence. Continuity is the point:
/// while the stream never stops, frame f plays exactly f frames after frame
/// 0, so the instant of any cue follows from the device's status (see
/// `PlaybackEpoch`), whenever the write was issued.
public struct SoundProgram: Equatable, Sendable {
    public struct Cue: Equatable, Sendable {
        public var kind: SoundSynth.Kind
        public var startFrame: Int
    }

    public let rate: Int
    public private(set) var cues: [Cue]
    public let totalFrames: Int
    /// The frame whose playing instant the box needs (the countdown's GO); nil: none.
    public let markFrame: Int?

    /// One sound, then silence until the end.
    public static func single(_ kind: SoundSynth.Kind, rate: Int) -> SoundProgram {
        SoundProgram(rate: rate, cues: [Cue(kind: kind, startFrame: 0)],
                     totalFrames: SoundSynth.frames(kind, rate: rate), markFrame: nil)
    }

    /// 3-2-1-GO: beeps a second apart, the gunshot a second after the last,
    /// then `tailFrames` of silence so the GO has left the device before the
    /// stream runs dry (give at least the device's buffer).
    public static func countdown(rate: Int, tailFrames: Int) -> SoundProgram {
        let go = 3 * rate
        return SoundProgram(rate: rate, cues: [Cue(kind: .beep, startFrame: 0), Cue(kind: .beep, startFrame: rate),
                                               Cue(kind: .beep, startFrame: 2 * rate), Cue(kind: .gunshot, startFrame: go)],
                            totalFrames: go + SoundSynth.frames(.gunshot, rate: rate) + tailFrames, markFrame: go)
    }

    /// Nanoseconds from frame 0 to `frame`.
    public func nanos(atFrame frame: Int) -> Int64 {
        Int64(frame) * 1_000_000_000 / Int64(rate)
    }

    /// Writes frames `from ..< from + count` (interleaved, `channels` each)
    /// into `out`, copying from sounds rendered once (`SoundBank`).
    public func render(from: Int, count: Int, channels: Int, bank: SoundBank, into out: UnsafeMutablePointer<Int16>) {
        (out).update(repeating: 0, count: count * channels)
        for cue in cues {
            let sound = bank.samples(cue.kind)
            let begin = max(from, cue.startFrame)
            let end = min(from + count, cue.startFrame + sound.frames)
            guard begin < end else { continue }
            for frame in begin..<end {
                let value = sound.mono[frame - cue.startFrame]
                for c in 0..<channels { out[(frame - from) * channels + c] = value }
            }
        }
    }
}

/// The box's sounds rendered once at `rate`, mono, before any loop runs
/// (tinyalsa's rule: memory is set up before the stream starts).
public final class SoundBank {
    public let rate: Int
    private let beep: UnsafeMutablePointer<Int16>
    private let gunshot: UnsafeMutablePointer<Int16>
    private let whistle: UnsafeMutablePointer<Int16>

    public init(rate: Int) {
        self.rate = rate
        func make(_ kind: SoundSynth.Kind) -> UnsafeMutablePointer<Int16> {
            let frames = SoundSynth.frames(kind, rate: rate)
            let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: frames)
            _ = SoundSynth.render(kind, rate: rate, channels: 1, into: buffer, capacity: frames)
            return buffer
        }
        beep = make(.beep)
        gunshot = make(.gunshot)
        whistle = make(.whistle)
    }

    deinit {
        beep.deallocate()
        gunshot.deallocate()
        whistle.deallocate()
    }

    public func samples(_ kind: SoundSynth.Kind) -> (mono: UnsafePointer<Int16>, frames: Int) {
        let frames = SoundSynth.frames(kind, rate: rate)
        switch kind {
        case .beep: return (UnsafePointer(beep), frames)
        case .gunshot: return (UnsafePointer(gunshot), frames)
        case .whistle: return (UnsafePointer(whistle), frames)
        }
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

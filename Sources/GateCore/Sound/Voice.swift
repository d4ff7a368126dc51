/// The phrases the box can say: each clip's samples (mono, 16-bit) at its
/// own rate, trimmed of the silence the speech engine puts around words so
/// that a clip's first sample is its first audible one (a spoken GO starts
/// the clock when it is heard). Loaded once before the loop; a phrase
/// without a clip is simply absent, and `nanos(of:)` says so.
public struct Voice: Equatable {
    public struct Clip: Equatable {
        public var samples: [Int16]
        public var rate: Int

        public init(samples: [Int16], rate: Int) {
            self.samples = samples
            self.rate = rate
        }
    }

    private var clips: [Clip?] = Array(repeating: nil, count: Phrase.count)
    /// Athletes' names (`SoundName.name`), in the order they were added.
    private var names: [Clip] = []

    /// No clips: tones only.
    public init() {}

    /// Below this a sample is silence (about -40 dBFS).
    static let silence: Int16 = 328
    /// Kept after the last audible sample: a word's fading end.
    static let tailNanos: Int64 = 20_000_000

    /// Takes `samples` at `rate` as the clip of `phrase`; false when nothing
    /// in it is audible.
    @discardableResult
    public mutating func add(_ phrase: Phrase, samples: [Int16], rate: Int) -> Bool {
        guard rate > 0, let first = samples.firstIndex(where: { $0 > Voice.silence || $0 < -Voice.silence }),
              let last = samples.lastIndex(where: { $0 > Voice.silence || $0 < -Voice.silence }) else { return false }
        let end = min(samples.count, last + 1 + Int(Voice.tailNanos * Int64(rate) / 1_000_000_000))
        clips[phrase.index] = Clip(samples: Array(samples[first..<end]), rate: rate)
        return true
    }

    public func clip(_ phrase: Phrase) -> Clip? { clips[phrase.index] }

    /// Takes an athlete's name clip, trimmed as a phrase's; returns its
    /// slot for `SoundName.name`, or nil when nothing in it is audible.
    public mutating func addName(samples: [Int16], rate: Int) -> Int? {
        var scratch = Voice()
        guard scratch.add(.ready, samples: samples, rate: rate), let trimmed = scratch.clip(.ready) else { return nil }
        names.append(trimmed)
        return names.count - 1
    }

    public var nameCount: Int { names.count }

    public func nameClip(_ slot: Int) -> Clip { names[slot] }

    public func has(_ phrase: Phrase) -> Bool { clips[phrase.index] != nil }

    /// Whether every phrase has its clip.
    public var isComplete: Bool { clips.allSatisfy { $0 != nil } }

    public var clipCount: Int { clips.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// How long `sound` plays; nil for a phrase without a clip.
    public func nanos(of sound: SoundName) -> Int64? {
        switch sound {
        case .tone(let kind): return SoundSynth.durationNanos(kind)
        case .phrase(let phrase):
            guard let clip = clips[phrase.index] else { return nil }
            return Int64(clip.samples.count) * 1_000_000_000 / Int64(clip.rate)
        case .name(let slot, _):
            guard slot >= 0 && slot < names.count else { return nil }
            return Int64(names[slot].samples.count) * 1_000_000_000 / Int64(names[slot].rate)
        }
    }
}

/// Linear interpolation between rates: enough for speech, done once at start.
public enum Resample {
    /// Stretches `samples` over `frames` output frames.
    public static func linear(_ samples: [Int16], into out: UnsafeMutablePointer<Int16>, frames: Int) {
        guard !samples.isEmpty else { return }
        let ratio = Double(samples.count) / Double(max(frames, 1))
        for i in 0..<frames {
            let x = Double(i) * ratio
            let j = Int(x)
            let f = x - Double(j)
            let a = Double(samples[min(j, samples.count - 1)])
            let b = Double(samples[min(j + 1, samples.count - 1)])
            out[i] = Int16((a + (b - a) * f).rounded())
        }
    }
}

/// A RIFF WAVE file's samples, as a speech engine writes them: PCM, 16-bit,
/// mono or stereo (stereo is mixed down). Anything else is refused with
/// what was found.
public enum WAVFile {
    public struct Problem: Error, Equatable {
        public var text: String
    }

    /// A mono 16-bit PCM file of `samples` (what the tests and tools feed the box).
    public static func encode(_ samples: [Int16], rate: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(44 + 2 * samples.count)
        func u16(_ v: Int) { out.append(UInt8(v & 0xFF)); out.append(UInt8(v >> 8 & 0xFF)) }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16(v >> 16 & 0xFFFF) }
        func tag(_ text: StaticString) { out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: 4)) }
        tag("RIFF"); u32(36 + 2 * samples.count); tag("WAVE")
        tag("fmt "); u32(16); u16(1); u16(1); u32(rate); u32(2 * rate); u16(2); u16(16)
        tag("data"); u32(2 * samples.count)
        for s in samples { u16(Int(UInt16(bitPattern: s))) }
        return out
    }

    public static func parse(_ bytes: [UInt8]) throws(Problem) -> (samples: [Int16], rate: Int) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else {
            throw Problem(text: "expected a RIFF WAVE file (it starts with something else)")
        }
        var at = 12
        var format: (channels: Int, rate: Int, bits: Int)?
        while at + 8 <= bytes.count {
            let id = tag(at), size = u32(at + 4), body = at + 8
            if id == "fmt " {
                guard size >= 16, body + 16 <= bytes.count else { throw Problem(text: "its fmt chunk is cut short") }
                let code = u16(body)
                let f = (channels: u16(body + 2), rate: u32(body + 4), bits: u16(body + 14))
                guard code == 1 || code == 0xFFFE, f.bits == 16, (1...2).contains(f.channels), (8000...192_000).contains(f.rate) else {
                    throw Problem(text: "expected 16-bit PCM, mono or stereo, 8-192 kHz; found format \(code), \(f.bits)-bit, \(f.channels) channels, \(f.rate) Hz")
                }
                format = f
            } else if id == "data" {
                guard let format else { throw Problem(text: "its data chunk comes before any fmt chunk") }
                // A writer that streamed may leave the size unset: take what is there.
                let end = min(bytes.count, body + size)
                let frameBytes = 2 * format.channels
                let frames = (end - body) / frameBytes
                guard frames > 0 else { throw Problem(text: "it holds no samples") }
                var samples = [Int16](repeating: 0, count: frames)
                for i in 0..<frames {
                    var sum = 0
                    for c in 0..<format.channels { sum += Int(Int16(bitPattern: UInt16(u16(body + i * frameBytes + 2 * c)))) }
                    samples[i] = Int16(sum / format.channels)
                }
                return (samples, format.rate)
            }
            at = body + size + (size & 1)
        }
        throw Problem(text: format == nil ? "it has no fmt chunk" : "it has no data chunk")
    }
}

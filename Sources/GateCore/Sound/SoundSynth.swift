/// The box's sounds, synthesised into a caller's buffer (16-bit signed,
/// interleaved): no sample files on the card, nothing allocated per sound.
public enum SoundSynth {
    public enum Kind: Equatable, Sendable {
        /// 2 kHz, 100 ms: a crossing was timed.
        case beep
        /// A decaying noise burst, 150 ms: the start.
        case gunshot
        /// 3.2 kHz with a 30 Hz trill, 300 ms.
        case whistle
        /// 400 Hz, harsh (odd harmonics), 250 ms: a false start.
        case buzz

        public var name: String {
            switch self {
            case .beep: return "beep"
            case .gunshot: return "gunshot"
            case .whistle: return "whistle"
            case .buzz: return "buzz"
            }
        }
    }

    public static func durationNanos(_ kind: Kind) -> Int64 {
        switch kind {
        case .beep: return 100_000_000
        case .gunshot: return 150_000_000
        case .whistle: return 300_000_000
        case .buzz: return 250_000_000
        }
    }

    /// Frames `kind` needs at `rate`.
    public static func frames(_ kind: Kind, rate: Int) -> Int {
        Int(durationNanos(kind) * Int64(rate) / 1_000_000_000)
    }

    /// Writes `kind` into `samples` (room for `capacity` frames of
    /// `channels`); returns the frames written. Deterministic for a seed.
    public static func render(_ kind: Kind, rate: Int, channels: Int, into samples: UnsafeMutablePointer<Int16>,
                              capacity: Int) -> Int {
        let count = min(capacity, frames(kind, rate: rate))
        let fade = max(1, rate / 200)   // 5 ms ramps: no clicks
        var noise = SplitMix64(seed: 0x6A15)
        var decay = 1.0
        for i in 0..<count {
            let t = Double(i) / Double(rate)
            var value: Double
            switch kind {
            case .beep:
                value = 0.5 * PortableMath.sin(PortableMath.twoPi * 2000 * t)
            case .gunshot:
                value = 0.9 * decay * (2 * noise.unit() - 1)
                decay *= 1 - 30.0 / Double(rate)
            case .whistle:
                let trill = 1 + 0.04 * PortableMath.sin(PortableMath.twoPi * 30 * t)
                value = 0.45 * PortableMath.sin(PortableMath.twoPi * 3200 * t * trill)
            case .buzz:
                let w = PortableMath.twoPi * 400 * t
                value = 0.4 * (PortableMath.sin(w) + PortableMath.sin(3 * w) / 3 + PortableMath.sin(5 * w) / 5)
            }
            if kind != .gunshot && i < fade { value *= Double(i) / Double(fade) }
            if count - i < fade { value *= Double(count - i) / Double(fade) }
            let sample = Int16(max(-32767, min(32767, (value * 32767).rounded())))
            for c in 0..<channels { samples[i * channels + c] = sample }
        }
        return count
    }
}

/// A small, fast, seedable generator (Steele, Lea, Flood 2014), so that a
/// simulated session is a pure function of its seed on every architecture.
public struct SplitMix64 {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Uniform in [low, high).
    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * unit()
    }

    /// Approximately standard normal (Irwin-Hall, 12 uniforms): no libm needed.
    public mutating func gaussian() -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += unit() }
        return sum - 6
    }
}

import GateCore
import GateDevices

/// An accelerometer on a tripod that was just set down: it rings (damped
/// oscillation) until `settleNanos`, then only sensor noise remains; a knock
/// at each of `knocks` rings it again for `knockRingNanos`.
public struct SimulatedMotion: MotionSensor {
    public let sampleIntervalNanos: Int64
    private let settleNanos: Int64
    private let knocks: [Int64]
    public static let knockRingNanos: Int64 = 400_000_000
    private let clock: VirtualClock
    private var random: SplitMix64
    public private(set) var nextSampleNanos: Int64

    public init(settleNanos: Int64, knocks: [Int64] = [], rateHz: Int = 100, seed: UInt64, clock: VirtualClock) {
        sampleIntervalNanos = 1_000_000_000 / Int64(rateHz)
        self.settleNanos = settleNanos
        self.knocks = knocks
        self.clock = clock
        random = SplitMix64(seed: seed ^ 0x1A2B_3C4D)
        nextSampleNanos = clock.nowNanos + sampleIntervalNanos
    }

    public mutating func sample() throws(GateError) -> AccelSample {
        let t = nextSampleNanos
        nextSampleNanos += sampleIntervalNanos
        let seconds = Double(t) / 1e9
        var ring = 0.0
        if t < settleNanos {
            // 4 Hz sway decaying to nothing at settleNanos.
            let left = Double(settleNanos - t) / Double(settleNanos)
            ring = 0.25 * left * left * PortableMath.sin(PortableMath.twoPi * 4 * seconds)
        }
        for knock in knocks where t >= knock && t < knock + SimulatedMotion.knockRingNanos {
            // 9 Hz, 0.3 g at the knock, gone after the ring.
            let left = Double(knock + SimulatedMotion.knockRingNanos - t) / Double(SimulatedMotion.knockRingNanos)
            ring += 0.3 * left * PortableMath.sin(PortableMath.twoPi * 9 * Double(t - knock) / 1e9 + 1)
        }
        let noise = 0.002
        return AccelSample(x: ring + noise * random.gaussian(), y: 0.6 * ring + noise * random.gaussian(),
                           z: 1 + 0.3 * ring + noise * random.gaussian(), timestampNanos: t)
    }
}

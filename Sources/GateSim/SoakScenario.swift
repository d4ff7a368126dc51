import GateCore

/// The soak of issue 53: hours of one box timing flying laps, as a training
/// session left running: a pass every 30-90 s at 3-11 m/s, the light
/// flickering at 100 Hz, and the tripod knocked twice, about a third and two
/// thirds of the way through, each time in the middle of a gap between
/// passes (the view shifts 3 px for good, and the truth follows it).
extension Scenario {
    static let soakFlicker = 0.05

    mutating func placeSoak(_ soakNanos: Int64, random: inout SplitMix64, gateX: Double) {
        flickerAmplitude = Scenario.soakFlicker
        var times: [Int64] = []
        var t = settleNanos + 3_500_000_000
        while t < soakNanos {
            times.append(t)
            t += Int64(random.uniform(30, 90) * 1e9)
        }
        for fraction in [1.0 / 3, 2.0 / 3] {
            let at = Int64(Double(soakNanos) * fraction)
            if let i = times.firstIndex(where: { $0 > at }), i > 0 { knocks.append((times[i - 1] + times[i]) / 2) }
        }
        bumps = knocks.map { CameraBump(startNanos: $0, durationNanos: 60_000_000, dxPixels: 3, dyPixels: 2) }
        let pixelMetres = options.viewWidthMetres / Double(options.width)
        runners.reserveCapacity(times.count)
        for crossing in times {
            let speed = options.speedMetresPerSecond ?? random.uniform(3, 11)
            let runner = Scenario.runner(crossingNanos: crossing, lineX: gateX, speed: speed, random: &random)
            runners.append(runner)
            let shifted = knocks.reduce(0) { $0 + ($1 < crossing ? 3 : 0) }
            truthNanos.append(runner.torsoFrontNanos(reaching: gateX + Double(shifted) * pixelMetres))
        }
        endNanos = (times.last ?? settleNanos) + 1_500_000_000
    }
}

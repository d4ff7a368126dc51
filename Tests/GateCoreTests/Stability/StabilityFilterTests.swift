import Testing
@testable import GateCore

@Suite struct StabilityFilterTests {
    func sample(_ t: Int64, _ dx: Double = 0) -> AccelSample {
        AccelSample(x: dx, y: 0, z: 1, timestampNanos: t * 10_000_000)
    }

    @Test func becomesStillAfterTheRequiredTime() {
        var filter = StabilityFilter(requiredStillNanos: 1_000_000_000)
        var still: Int64?
        for i in Int64(0)...150 {
            if case .becameStill(let at) = filter.add(sample(i)) { still = at }
        }
        #expect(still == 1_000_000_000)
        #expect(filter.isStill)
    }

    @Test func aJoltMakesItUnstableAndRestartsTheWait() {
        var filter = StabilityFilter(requiredStillNanos: 1_000_000_000)
        var changes: [StabilityFilter.Change] = []
        for i in Int64(0)...400 {
            let jolt = (i == 150) ? 0.2 : 0
            if let c = filter.add(sample(i, jolt)) { changes.append(c) }
        }
        #expect(changes.count == 3)
        #expect(changes[0] == .becameStill(atNanos: 1_000_000_000))
        if case .becameUnstable(let at, let deviation) = changes[1] {
            #expect(at == 1_500_000_000)
            #expect(abs(deviation - 0.2) < 1e-9)
        } else {
            Issue.record("expected becameUnstable, got \(changes[1])")
        }
        #expect(changes[2] == .becameStill(atNanos: 2_500_000_000))
        #expect(filter.peakDeviationG >= 0.2)
    }

    @Test func sensorNoiseBelowTheThresholdCountsAsStill() {
        var filter = StabilityFilter()
        var random = SplitMix64(seed: 9)
        var became = false
        for i in Int64(0)...200 {
            let s = AccelSample(x: 0.003 * random.gaussian(), y: 0.003 * random.gaussian(), z: 1 + 0.003 * random.gaussian(),
                                timestampNanos: i * 10_000_000)
            if case .becameStill = filter.add(s) { became = true }
        }
        #expect(became)
    }
}

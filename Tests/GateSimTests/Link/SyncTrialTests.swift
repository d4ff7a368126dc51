import Testing
@testable import GateCore
@testable import GateSim

/// A slice of `make accuracy-sync`: the same trials, fewer of them.
@Suite struct SyncTrialTests {
    static func trial(seed: UInt64, intervalMs: Double, precise: Bool, minutes: Double = 3,
                      outages: [SimulatedAir.Outage] = [], loss: Double = 0) -> SyncTrial.Result {
        var o = SyncTrial.Options()
        o.seed = seed
        o.profile = .uart(intervalNanos: Int64(intervalMs * 1e6))
        o.profile.lossProbability = loss
        o.precise = precise
        o.durationNanos = Int64(minutes * 60e9)
        o.outages = outages
        return SyncTrial.run(o)
    }

    static func sortedMs(_ r: SyncTrial.Result) -> [Double] { r.errorsNanos.map { Double($0.magnitude) / 1e6 }.sorted() }

    @Test(arguments: [7.5, 50.0])
    func preciseSyncAgreesToAFractionOfAMillisecond(intervalMs: Double) {
        var all: [Double] = []
        for seed: UInt64 in [11, 12] {
            let r = Self.trial(seed: seed, intervalMs: intervalMs, precise: true)
            #expect(r.outsideReported == 0 && r.notReady == 0 && r.refusedPackets == 0)
            all += Self.sortedMs(r)
        }
        all.sort()
        #expect(all.count > 300)
        #expect(all[all.count * 95 / 100] < 0.5, "p95 \(all[all.count * 95 / 100]) ms")
        #expect(all.last! < 1.0, "max \(all.last!) ms")
    }

    /// The plain exchange cannot do better than the wait for the pong's
    /// connection event allows: about half an interval. If this fails, the
    /// air has become kinder than a real one.
    @Test func plainSyncErrsByAboutHalfAnInterval() {
        let r = Self.trial(seed: 13, intervalMs: 30, precise: false)
        let errors = Self.sortedMs(r)
        #expect(errors[errors.count / 2] > 10 && errors[errors.count / 2] < 16)
        #expect(r.outsideReported == 0)
    }

    @Test func syncSurvivesLossAndALinkDrop() {
        let drop = SimulatedAir.Outage(startNanos: 90_000_000_000, endNanos: 100_000_000_000)
        let r = Self.trial(seed: 14, intervalMs: 15, precise: true, minutes: 4, outages: [drop], loss: 0.05)
        let errors = Self.sortedMs(r)
        #expect(r.outsideReported == 0)
        #expect(errors[errors.count * 95 / 100] < 0.5 && errors.last! < 1.0)
        // Mini syncs went on after the drop: 0 (full), 5, 15, 35, 75, 135, 195 s.
        #expect(r.rounds >= 7)
    }
}

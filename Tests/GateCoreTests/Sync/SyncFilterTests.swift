import Testing
@testable import GateCore

@Suite struct SyncFilterTests {
    let ms: Int64 = 1_000_000

    func sample(_ offsetMs: Double, rttMs: Double, at local: Int64 = 0) -> ClockSample {
        ClockSample(offsetNanos: Int64(offsetMs * 1e6), rttNanos: Int64(rttMs * 1e6), localNanos: local)
    }

    @Test func keepsTheLowestRoundTripsAndTakesTheirMedian() throws {
        var samples = [
            sample(20, rttMs: 40, at: 1_000), sample(5.5, rttMs: 4, at: 2_000), sample(-10, rttMs: 30, at: 3_000),
            sample(5, rttMs: 2, at: 4_000), sample(4, rttMs: 6, at: 6_000),
        ]
        let r = try #require(SyncFilter.reduce(&samples, count: 5, keepFraction: 0.6, kind: .full, sent: 7))
        #expect(r.kept == 3 && r.received == 5 && r.sent == 7)
        #expect(r.offsetNanos == 5 * ms)
        #expect(r.minRttNanos == 2 * ms && r.maxKeptRttNanos == 6 * ms)
        // Overlap of [4, 6], [3.5, 7.5], [1, 7] (each a nanosecond wider): [4, 6].
        #expect(r.boundNanos == 1 * ms + 1)
        #expect(r.localNanos == 4_000)   // mean of 2000, 4000, 6000
    }

    @Test func evenCountTakesTheMiddlePairsMean() throws {
        var samples = [sample(1, rttMs: 10), sample(2, rttMs: 10), sample(4, rttMs: 10), sample(100, rttMs: 10)]
        let r = try #require(SyncFilter.reduce(&samples, count: 4, keepFraction: 1, kind: .mini, sent: 4))
        #expect(r.offsetNanos == 3 * ms)
        // Overlap [-1, 6] and more (the 100 ms one does not overlap): none, so
        // the bound is the farthest end of any interval: 100 + 5 - 3.
        #expect(r.boundNanos == 102 * ms + 1)
    }

    @Test func keepsAFifthRoundedUp() throws {
        var samples = (0..<30).map { sample(Double($0), rttMs: Double(100 - $0)) }
        let r = try #require(SyncFilter.reduce(&samples, count: 30, keepFraction: 0.2, kind: .mini, sent: 30))
        #expect(r.kept == 6)
        #expect(r.minRttNanos == 71 * ms)
        #expect(r.offsetNanos == 26_500_000)   // median of 24...29
        var none: [ClockSample] = []
        #expect(SyncFilter.reduce(&none, count: 0, keepFraction: 0.2, kind: .full, sent: 100) == nil)
    }
}

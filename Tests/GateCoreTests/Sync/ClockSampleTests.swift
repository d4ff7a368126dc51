import Testing
@testable import GateCore

@Suite struct ClockSampleTests {
    let ms: Int64 = 1_000_000

    @Test func asymmetricDelaysMoveTheOffsetByHalfTheirDifference() throws {
        // Peer 5 ms ahead; 6 ms out, 2 ms back, 1 ms turnaround.
        let s = try #require(ClockSample(t1: 100 * ms, t2: 111 * ms, t3: 112 * ms, t4: 109 * ms))
        #expect(s.offsetNanos == 7 * ms)      // 5 + (6 - 2) / 2
        #expect(s.rttNanos == 8 * ms)
        #expect(s.localNanos == 104_500_000)
        let range = s.offsetRange
        #expect(range.low == 3 * ms - 1 && range.high == 11 * ms + 1)
        #expect(range.low <= 5 * ms && 5 * ms <= range.high)
    }

    @Test func offsetRoundsTowardZeroLikeThePhones() throws {
        // ((2 - 0) + (2 - 5)) / 2 = -1 / 2 = 0 in Kotlin and Swift.
        let s = try #require(ClockSample(t1: 0, t2: 2, t3: 2, t4: 5))
        #expect(s.offsetNanos == 0 && s.rttNanos == 5)
        #expect(TimingMath.halfSum(-3, 0) == -1 && TimingMath.halfSum(3, 0) == 1 && TimingMath.halfSum(-3, -4) == -3)
    }

    @Test func halfSumNeverOverflows() {
        #expect(TimingMath.halfSum(.max, .max) == .max)
        #expect(TimingMath.halfSum(.min, .min) == .min)
        #expect(TimingMath.halfSum(.min, .max) == 0)
        #expect(TimingMath.halfSum(.max, .max - 1) == .max - 1)
    }

    @Test func farApartClocksStillGiveTheirOffset() throws {
        // The differences fit, their sum does not.
        let s = try #require(ClockSample(t1: 0, t2: .max - 10, t3: .max - 5, t4: 10))
        #expect(s.offsetNanos == .max - 13)   // (2 max - 25) / 2 = max - 12.5, toward zero
        #expect(s.rttNanos == 5)
    }

    @Test func garbledStampsAreRefused() {
        #expect(ClockSample(t1: .min, t2: .max, t3: .max, t4: 0) == nil)
        // Turnaround longer than the exchange: negative round trip.
        #expect(ClockSample(t1: 0, t2: 0, t3: 10 * ms, t4: 5 * ms) == nil)
    }

    @Test func splitNanosReportsOverflow() {
        #expect(TimingMath.splitNanos(startNanos: 1_000, finishNanos: 9_000, clockOffsetNanos: 500) == 7_500)
        #expect(TimingMath.splitNanos(startNanos: .min, finishNanos: 1) == nil)
        #expect(TimingMath.splitNanos(startNanos: 0, finishNanos: .min, clockOffsetNanos: 1) == nil)
    }
}

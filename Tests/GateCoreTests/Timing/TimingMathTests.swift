import Testing
@testable import GateCore

@Suite struct TimingMathTests {
    @Test func splitAppliesTheClockOffset() {
        // Seed 002, appendix A: 4.827 s, the finish box 5 ms ahead.
        let split = TimingMath.splitMs(startNanos: 1_000_000_000, finishNanos: 5_832_000_000, clockOffsetNanos: 5_000_000)
        #expect(split == 4827)
    }

    @Test func uncertaintiesAddInQuadrature() {
        // Seed 002 section 6.2: sqrt(1 + 1 + 9) = 3.3 ms.
        let total = TimingMath.combinedUncertaintyMs(1, 1, 3)
        #expect(abs(total - 3.3166) < 0.001)
    }

    @Test func ntpOffsetAndRoundTrip() {
        // The peer is 5 ms ahead; 4 ms each way; 1 ms of processing.
        let r = TimingMath.clockOffset(t1: 0, t2: 9_000_000, t3: 10_000_000, t4: 9_000_000)
        #expect(r.offsetNanos == 5_000_000)
        #expect(r.rttNanos == 8_000_000)
    }

    @Test func speedUnits() {
        let s = Speed(metresPerSecond: 10)
        #expect(s.kilometresPerHour == 36)
        #expect(abs(s.milesPerHour - 22.369) < 0.001)
    }
}

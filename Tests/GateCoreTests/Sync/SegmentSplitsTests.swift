import Testing
@testable import GateCore

@Suite struct SegmentSplitsTests {
    let s: Int64 = 1_000_000_000

    @Test func remoteStampIsBroughtToTheReferenceClock() throws {
        // Seed 002 appendix A: 4.827 s, the finish box 5 ms ahead.
        let finishClock = GateClock(id: 1, offsetNanos: 5_000_000, syncUncertaintyMs: 3, driftUncertaintyMs: 0)
        let splits = try SegmentSplits.compute([
            GateCrossing(distanceMetres: 0, crossingNanos: 1 * s, detectionUncertaintyMs: 1),
            GateCrossing(distanceMetres: 40, crossingNanos: 5_832_000_000, detectionUncertaintyMs: 1, clock: finishClock),
        ])
        #expect(splits.count == 1)
        #expect(splits[0].splitNanos == 4_827_000_000 && splits[0].splitMs == 4827)
        #expect(splits[0].cumulativeSplitNanos == 4_827_000_000)
        // Seed 002 section 6.2: sqrt(1 + 1 + 9).
        #expect(abs(splits[0].segmentBudget.totalMs - 11.0.squareRoot()) < 1e-12)
        #expect(splits[0].segmentBudget.syncMs == 3)
    }

    @Test func fourGatesGiveSegmentsCumulativesSpeedsAndBudgets() throws {
        // Start here; lap gates at 10 m and 30 m on box 1 (offset -2 s);
        // finish at 60 m on box 2 (offset +7 ms).
        let box1 = GateClock(id: 1, offsetNanos: -2 * s, syncUncertaintyMs: 2, driftUncertaintyMs: 0.5)
        let box1Later = GateClock(id: 1, offsetNanos: -2 * s, syncUncertaintyMs: 2, driftUncertaintyMs: 0.8)
        let box2 = GateClock(id: 2, offsetNanos: 7_000_000, syncUncertaintyMs: 3, driftUncertaintyMs: 0.4)
        let splits = try SegmentSplits.compute([
            GateCrossing(distanceMetres: 0, crossingNanos: 100 * s, detectionUncertaintyMs: 1),
            GateCrossing(distanceMetres: 10, crossingNanos: 100 * s - 2 * s + 2_000_000_000, detectionUncertaintyMs: 2, clock: box1),
            GateCrossing(distanceMetres: 30, crossingNanos: 100 * s - 2 * s + 4_500_000_000, detectionUncertaintyMs: 2, clock: box1Later),
            GateCrossing(distanceMetres: 60, crossingNanos: 100 * s + 7_000_000 + 8_000_000_000, detectionUncertaintyMs: 1, clock: box2),
        ])
        #expect(splits.map(\.splitNanos) == [2 * s, 2_500_000_000, 3_500_000_000])
        #expect(splits.map(\.cumulativeSplitNanos) == [2 * s, 4_500_000_000, 8 * s])
        #expect(splits.map(\.fromGateIndex) == [0, 1, 2] && splits.map(\.toGateIndex) == [1, 2, 3])

        let lap2 = splits[1]
        #expect(lap2.segmentMetres == 20 && lap2.cumulativeMetres == 30)
        #expect(lap2.segmentSpeed?.metresPerSecond == 8)
        #expect(lap2.segmentSpeed?.kilometresPerHour == 28.8)
        #expect(abs(lap2.segmentSpeed!.milesPerHour - 17.8954) < 1e-4)
        #expect(abs(lap2.cumulativeSpeed!.metresPerSecond - 30 / 4.5) < 1e-12)
        // Two crossings on one box: its sync error cancels, drift across the lap stays.
        let lap = lap2.segmentBudget
        #expect(lap.startDetectionMs == 2 && lap.finishDetectionMs == 2 && lap.syncMs == 0)
        #expect(abs(lap.driftMs - 0.3) < 1e-12)
        // Start (reference) to box 1: box 1's sync and drift alone.
        #expect(lap2.cumulativeBudget == UncertaintyBudget(startDetectionMs: 1, finishDetectionMs: 2, syncMs: 2, driftMs: 0.8))
        #expect(abs(lap2.cumulativeBudget.totalMs - (1 + 4 + 4 + 0.64).squareRoot()) < 1e-12)
        // Box 1 to box 2: both syncs and both drifts in quadrature.
        let last = splits[2].segmentBudget
        #expect(abs(last.syncMs - 13.0.squareRoot()) < 1e-12)
        #expect(abs(last.driftMs - (0.64 + 0.16).squareRoot()) < 1e-12)
        #expect(abs(splits[2].segmentSpeed!.metresPerSecond - 30 / 3.5) < 1e-12)
    }

    @Test func unknownDistanceGivesNoSpeed() throws {
        let splits = try SegmentSplits.compute([
            GateCrossing(distanceMetres: nil, crossingNanos: 0, detectionUncertaintyMs: 1),
            GateCrossing(distanceMetres: nil, crossingNanos: 3 * s, detectionUncertaintyMs: 1),
        ])
        #expect(splits[0].segmentSpeed == nil && splits[0].splitMs == 3000)
    }

    @Test func badRunsAreNamed() {
        let g = GateCrossing(distanceMetres: 0, crossingNanos: 0, detectionUncertaintyMs: 1)
        var later = g; later.crossingNanos = s; later.distanceMetres = 10
        #expect(throws: SplitError.gateCount(1)) { try SegmentSplits.compute([g]) }
        #expect(throws: SplitError.gateCount(5)) { try SegmentSplits.compute([g, later, later, later, later]) }
        #expect(throws: SplitError.distanceNotIncreasing(index: 1)) { try SegmentSplits.compute([later, later]) }
        var earlier = later; earlier.crossingNanos = -1
        #expect(throws: SplitError.notAfterPrevious(index: 1)) { try SegmentSplits.compute([g, earlier]) }
        var garbled = later
        garbled.clock = GateClock(id: 1, offsetNanos: .min, syncUncertaintyMs: 0, driftUncertaintyMs: 0)
        #expect(throws: SplitError.overflow(index: 1)) { try SegmentSplits.compute([g, garbled]) }
        #expect(SplitError.gateCount(5).message.hasPrefix("splits: 5 gates"))
    }
}

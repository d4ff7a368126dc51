import Testing
@testable import GateCore

@Suite struct SoloLapSessionTests {
    func crossing(_ seconds: Double) -> DetectedCrossing {
        DetectedCrossing(timeNanos: Int64(seconds * 1e9), frameIndex: 0, interpolationOffsetMs: 0, direction: .leftToRight,
                         velocityWorkPixelsPerSecond: 300, velocityWidthsPerSecond: 2, uncertaintyMs: 0.5, occupancyAtTrigger: 0.6)
    }

    @Test func armsOnlyOnceStillThenTimesLaps() throws {
        var s = SoloLapSession()
        #expect(s.record(crossing(0.5)) == nil)          // idle: ignored
        let r1 = s.arm()
        #expect(r1)
        #expect(s.state == .stabilising)
        #expect(s.record(crossing(1.0)) == nil)          // not still yet: ignored
        s.tripod(still: true)
        #expect(s.state == .armed)
        let r6 = s.record(crossing(2.0))
        let start = try #require(r6)
        #expect(start.lap == 0 && start.splitNanos == nil)
        #expect(s.state == .running)
        let r7 = s.record(crossing(6.5))
        let lap1 = try #require(r7)
        #expect(lap1.lap == 1 && lap1.splitNanos == 4_500_000_000 && lap1.elapsedNanos == 4_500_000_000)
        let r8 = s.record(crossing(10.0))
        let lap2 = try #require(r8)
        #expect(lap2.splitNanos == 3_500_000_000 && lap2.elapsedNanos == 8_000_000_000)
        #expect(s.bestSplitNanos == 3_500_000_000)
        #expect(s.lapCount == 2)
    }

    @Test func ignoresASecondTriggerWithinTheCooldown() throws {
        var s = SoloLapSession(cooldownNanos: 1_000_000_000)
        _ = s.arm(); s.tripod(still: true)
        let r9 = s.record(crossing(2.0))
        _ = try #require(r9)
        let r2 = s.record(crossing(2.4))
        #expect(r2 == nil)
        let r3 = s.record(crossing(3.1))
        #expect(r3?.lap == 1)
    }

    @Test func aMovedTripodDisarmsBeforeTheStartAndFlagsALapAfter() throws {
        var s = SoloLapSession()
        _ = s.arm(); s.tripod(still: true)
        s.tripod(still: false)
        #expect(s.state == .stabilising)
        s.tripod(still: true)
        let r10 = s.record(crossing(2.0))
        _ = try #require(r10)
        s.tripod(still: false)
        s.tripod(still: true)
        let r11 = s.record(crossing(5.0))
        let lap = try #require(r11)
        #expect(lap.disturbed)
        let r12 = s.record(crossing(8.0))
        let next = try #require(r12)
        #expect(!next.disturbed)
    }

    @Test func armingWhenAlreadyStillGoesStraightToArmed() {
        var s = SoloLapSession()
        s.tripod(still: true)
        let r4 = s.arm()
        #expect(r4)
        #expect(s.state == .armed)
        let armedTwice = s.arm()
        #expect(!armedTwice)
        s.stop()
        #expect(s.state == .stopped)
        let r5 = s.record(crossing(3))
        #expect(r5 == nil)
    }
}

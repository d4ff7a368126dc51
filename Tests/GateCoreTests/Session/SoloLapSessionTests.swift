import Testing
@testable import GateCore

@Suite struct SoloLapSessionTests {
    func crossing(_ seconds: Double) -> DetectedCrossing {
        DetectedCrossing(timeNanos: Int64(seconds * 1e9), frameIndex: 0, interpolationOffsetMs: 0, direction: .leftToRight,
                         velocityWorkPixelsPerSecond: 300, velocityWidthsPerSecond: 2, uncertaintyMs: 0.5, occupancyAtTrigger: 0.6)
    }

    /// Disarmed and armed again mid-session (the button's long press, the
    /// coach's page): the next crossing starts a new clock whose number
    /// follows the laps so far, so its records and files never take the
    /// first start's names (the box once stopped on "run-000 ... exists").
    @Test func aClockStartedAgainTakesANewRunNumber() throws {
        var s = SoloLapSession()
        s.tripod(still: true)
        _ = s.arm()
        let r1 = s.record(crossing(2.0))
        let first = try #require(r1)
        let r2 = s.record(crossing(6.0))
        let lap = try #require(r2)
        #expect(first.run == 0 && first.lap == 0 && lap.run == 1 && lap.lap == 1)
        let disarmed = s.disarm(), armed = s.arm()
        #expect(disarmed && armed)
        let r3 = s.record(crossing(9.0))
        let again = try #require(r3)
        #expect(again.lap == 0 && again.run == 1 && again.splitNanos == nil)
        let r4 = s.record(crossing(13.0))
        let next = try #require(r4)
        #expect(next.run == 2 && next.lap == 2 && next.splitNanos == 4_000_000_000 && next.elapsedNanos == 4_000_000_000)
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

    @Test func aMovedTripodDisarmsUntilThePersonArmsAgain() {
        var s = SoloLapSession()
        _ = s.arm(); s.tripod(still: true)
        s.tripod(still: false)
        #expect(s.state == .idle)
        s.tripod(still: true)
        #expect(s.state == .idle)                        // still again, but nobody checked the aim
        #expect(s.record(crossing(2.0)) == nil)
        let armed = s.arm()
        #expect(armed && s.state == .armed)
    }

    @Test func experimentalModeReArmsByItselfOnceStill() {
        var s = SoloLapSession(rearmsAfterMovement: true)
        _ = s.arm(); s.tripod(still: true)
        s.tripod(still: false)
        #expect(s.state == .stabilising)
        s.tripod(still: true)
        #expect(s.state == .armed)
    }

    @Test func aTripodMovedDuringFlyingLapsFlagsTheLap() throws {
        var s = SoloLapSession()
        _ = s.arm(); s.tripod(still: true)
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

@Suite struct StartedRunTests {
    func crossing(_ seconds: Double) -> DetectedCrossing {
        DetectedCrossing(timeNanos: Int64(seconds * 1e9), frameIndex: 0, interpolationOffsetMs: 0, direction: .leftToRight,
                         velocityWorkPixelsPerSecond: 300, velocityWidthsPerSecond: 2, uncertaintyMs: 0.5, occupancyAtTrigger: 0.6)
    }

    func armed(_ type: StartType) -> SoloLapSession {
        var s = SoloLapSession(startType: type)
        _ = s.arm()
        s.tripod(still: true)
        return s
    }

    @Test func theStartEventStartsTheClockAndTheNextCrossingFinishes() throws {
        var s = armed(.touchRelease)
        let e1 = s.record(crossing(1.0))
        #expect(e1 == nil)             // someone walking through before any start
        let e2 = s.start(atNanos: 2_000_000_000)
        #expect(e2 == 1)
        #expect(s.state == .running)
        let r_finish = s.record(crossing(6.25))
        let finish = try #require(r_finish)
        #expect(finish.run == 1 && finish.lap == 1)
        #expect(finish.startNanos == 2_000_000_000 && finish.elapsedNanos == 4_250_000_000)
        #expect(s.state == .armed)                           // ready for the next start
        let e3 = s.record(crossing(7.5))
        #expect(e3 == nil)              // walking back: not timed
        let e4 = s.start(atNanos: 10_000_000_000)
        #expect(e4 == 2)
        let r_second = s.record(crossing(13.0))
        let second = try #require(r_second)
        #expect(second.run == 2 && second.elapsedNanos == 3_000_000_000)
        #expect(s.lapCount == 2 && s.bestSplitNanos == 3_000_000_000)
    }

    @Test func startsAreRefusedUnlessArmedWithAnExternalStartType() {
        var flying = armed(.flying)
        let e5 = flying.start(atNanos: 1)
        #expect(e5 == nil)
        var idle = SoloLapSession(startType: .countdown)
        let e6 = idle.start(atNanos: 1)
        #expect(e6 == nil)
        var running = armed(.countdown)
        _ = running.start(atNanos: 1)
        let e7 = running.start(atNanos: 2)
        #expect(e7 == nil)             // a second start mid-run
    }

    @Test func experimentalModeArmsForTheNextRunAfterAMovedOne() throws {
        var s = SoloLapSession(startType: .touchRelease, rearmsAfterMovement: true)
        _ = s.arm(); s.tripod(still: true)
        _ = s.start(atNanos: 0)
        s.tripod(still: false)
        let r = s.record(crossing(3))
        let run = try #require(r)
        #expect(run.disturbed && s.state == .stabilising)
        s.tripod(still: true)
        #expect(s.state == .armed)
    }

    @Test func aCrossingBeforeTheStartInstantIsNotTheFinish() {
        var s = armed(.countdown)
        _ = s.start(atNanos: 5_000_000_000)
        let e8 = s.record(crossing(4.9))
        #expect(e8 == nil)
        #expect(s.state == .running)
    }

    @Test func aMovedTripodFlagsTheRunAndDisarmAbandonsIt() throws {
        var s = armed(.touchRelease)
        _ = s.start(atNanos: 0)
        s.tripod(still: false)
        let r_run = s.record(crossing(3))
        let run = try #require(r_run)
        #expect(run.disturbed)
        #expect(s.state == .idle)                        // moved: a person re-arms
        s.tripod(still: true)
        #expect(s.state == .idle)
        _ = s.arm()
        _ = s.start(atNanos: 4_000_000_000)
        let e9 = s.disarm()
        #expect(e9)
        #expect(s.state == .idle)
        let e10 = s.record(crossing(6))
        #expect(e10 == nil)
        let again = s.disarm()
        #expect(!again)
    }
}

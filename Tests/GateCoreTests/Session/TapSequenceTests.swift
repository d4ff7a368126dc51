import Testing
@testable import GateCore

@Suite struct TapSequenceTests {
    static let gap = TapSequence.gapNanos

    @Test func aTapIsATapOnceNoSecondFollowsInTheGap() {
        var taps = TapSequence()
        taps.pressed(atNanos: 900)
        taps.tap(releasedAtNanos: 1_000)
        #expect(taps.dueNanos == 1_000 + Self.gap)
        #expect(taps.due(atNanos: 1_000 + Self.gap - 1) == nil)
        #expect(taps.due(atNanos: 1_000 + Self.gap) == 1)
        #expect(taps.due(atNanos: 1_000 + 2 * Self.gap) == nil, "told once")
    }

    @Test func tapsInQuickSuccessionCountAsOneGesture() {
        var taps = TapSequence()
        var t: Int64 = 0
        for _ in 0..<3 {
            taps.pressed(atNanos: t)
            #expect(taps.dueNanos == nil, "nothing is decided while the button is down")
            t += 120_000_000
            taps.tap(releasedAtNanos: t)
            #expect(taps.due(atNanos: t + Self.gap / 2) == nil)
            t += Self.gap / 2
        }
        #expect(taps.count == 3)
        #expect(taps.due(atNanos: t - Self.gap / 2 + Self.gap) == 3)
    }

    @Test func aHoldBetweenTheBandsOrALongPressEndsNothingOrEverything() {
        var taps = TapSequence()
        taps.tap(releasedAtNanos: 0)
        taps.pressed(atNanos: Self.gap / 2)
        #expect(taps.due(atNanos: 10 * Self.gap) == nil, "held: the sequence waits")
        taps.released()
        #expect(taps.due(atNanos: 10 * Self.gap) == 1, "released without a tap: the tap before stands")
        taps.tap(releasedAtNanos: 0)
        taps.cancel()
        #expect(taps.dueNanos == nil && taps.count == 0)
    }

    /// A tap taken at once (calling off a start) takes the taps that follow
    /// it closely with it: a double tap calls off and does not call again.
    @Test func tapsRightAfterOneTakenAtOnceMeanNothing() {
        var taps = TapSequence()
        taps.tookAtOnce(releasedAtNanos: 1_000_000_000)
        taps.pressed(atNanos: 1_200_000_000)
        taps.tap(releasedAtNanos: 1_300_000_000)
        taps.pressed(atNanos: 1_500_000_000)       // still within the gap of the last one
        taps.tap(releasedAtNanos: 1_600_000_000)
        #expect(taps.dueNanos == nil && taps.due(atNanos: 5_000_000_000) == nil)
        taps.pressed(atNanos: 2_500_000_000)       // a new gesture
        taps.tap(releasedAtNanos: 2_600_000_000)
        #expect(taps.due(atNanos: 2_600_000_000 + Self.gap) == 1)
    }
}

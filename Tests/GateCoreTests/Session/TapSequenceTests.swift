import Testing
@testable import GateCore

@Suite struct TapSequenceTests {
    static let gap = TapSequence.gapNanos

    @Test func aTapIsATapOnceNoSecondFollowsInTheGap() {
        var taps = TapSequence()
        taps.pressed()
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
            taps.pressed()
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
        taps.pressed()
        #expect(taps.due(atNanos: 10 * Self.gap) == nil, "held: the sequence waits")
        taps.released()
        #expect(taps.due(atNanos: 10 * Self.gap) == 1, "released without a tap: the tap before stands")
        taps.tap(releasedAtNanos: 0)
        taps.cancel()
        #expect(taps.dueNanos == nil && taps.count == 0)
    }
}

import Testing
@testable import GateCore

@Suite struct ButtonGesturesTests {
    func released(after heldSeconds: Double) -> ButtonGestures.Gesture? {
        var g = ButtonGestures()
        #expect(g.edge(pressed: true, atNanos: 10_000_000_000) == nil)
        return g.edge(pressed: false, atNanos: 10_000_000_000 + Int64(heldSeconds * 1e9))
    }

    @Test func classifiesByHowLongTheButtonWasHeld() {
        #expect(released(after: 0.15) == .tap)
        #expect(released(after: 0.999) == .tap)
        #expect(released(after: 1.5) == nil)        // between tap and long press: means nothing
        #expect(released(after: 2.0) == .longPress)
        #expect(released(after: 4.9) == .longPress)
        #expect(released(after: 5.0) == .pairingPress)
        #expect(released(after: 12) == .pairingPress)
    }

    @Test func aReleaseWithoutItsPressIsNothing() {
        var g = ButtonGestures()
        #expect(g.edge(pressed: false, atNanos: 5) == nil)
        #expect(g.edge(pressed: true, atNanos: 10) == nil)
        #expect(g.edge(pressed: false, atNanos: 20) == .tap)
        #expect(g.edge(pressed: false, atNanos: 30) == nil)   // the press was used up
    }
}

@Suite struct TouchPadTests {
    @Test func aHeldPadStartsAtTheReleaseEdge() {
        var pad = TouchPad()
        #expect(pad.edge(pressed: true, atNanos: 1_000_000_000) == nil)
        #expect(pad.isTouched)
        #expect(pad.edge(pressed: false, atNanos: 1_500_000_007) == .start(releaseNanos: 1_500_000_007, heldNanos: 500_000_007))
        #expect(!pad.isTouched)
    }

    @Test func aBrushOfThePadIsNotAStart() {
        var pad = TouchPad()
        _ = pad.edge(pressed: true, atNanos: 0)
        #expect(pad.edge(pressed: false, atNanos: 499_999_999) == .tooShort(heldNanos: 499_999_999))
        #expect(pad.edge(pressed: false, atNanos: 900_000_000) == nil)
    }
}

@Suite struct StartTypeTests {
    @Test func namesRoundTripAndCodesFollowTheProtocol() {
        for type in [StartType.flying, .touchRelease, .countdown] {
            #expect(StartType(name: type.name) == type)
        }
        #expect(StartType.touchRelease.code == "touchRelease")
        #expect(StartType(name: "touchRelease") == nil)
        #expect(!StartType.flying.isExternal && StartType.countdown.isExternal)
    }
}

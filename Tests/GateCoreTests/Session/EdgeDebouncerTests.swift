import Testing
@testable import GateCore

@Suite struct EdgeDebouncerTests {
    typealias T = EdgeDebouncer.Transition
    let ms: Int64 = 1_000_000

    /// Feeds (pressed, milliseconds) edges; returns every transition released, in order.
    func transitions(_ edges: [(Bool, Int64)]) -> [T] {
        var d = EdgeDebouncer()
        var out: [T] = []
        for (pressed, at) in edges {
            let o = d.edge(pressed: pressed, atNanos: at * ms)
            if let f = o.first { out.append(f) }
            if let s = o.second { out.append(s) }
        }
        return out
    }

    @Test func aCleanPressAndReleaseKeepTheirOwnStamps() {
        #expect(transitions([(true, 100), (false, 300)]) == [T(pressed: true, nanos: 100 * ms), T(pressed: false, nanos: 300 * ms)])
    }

    @Test func bounceAfterAnEdgeIsDropped() {
        // Press, two bounces inside 20 ms, settled pressed; release with a bounce.
        let got = transitions([(true, 100), (false, 102), (true, 105), (false, 400), (true, 401), (false, 404)])
        #expect(got == [T(pressed: true, nanos: 100 * ms), T(pressed: false, nanos: 400 * ms)])
    }

    @Test func aRepeatOfTheAcceptedStateIsDropped() {
        #expect(transitions([(true, 100), (true, 200), (false, 300), (false, 301)]).count == 2)
        #expect(transitions([(false, 100)]).isEmpty)   // the line starts released
    }

    /// The VM rig's case: the pad let go, touched again 8 ms later and held
    /// a second. Dropping the touch as bounce lost the start as well.
    @Test func aRealChangeInsideTheWindowIsReportedWhenTheNextEdgeShowsIt() {
        let got = transitions([(true, 4_439), (false, 4_549), (true, 4_557), (false, 5_574)])
        #expect(got == [T(pressed: true, nanos: 4_439 * ms), T(pressed: false, nanos: 4_549 * ms),
                        T(pressed: true, nanos: 4_557 * ms), T(pressed: false, nanos: 5_574 * ms)])
    }

    @Test func aHeldBackEdgeThatBouncesBackIsDropped() {
        // Released at 100, a 3 ms blip at 110 that returns: bounce, nothing more.
        #expect(transitions([(true, 50), (false, 100), (true, 110), (false, 113)]).count == 2)
        // A blip that returns just under the window after it, then a real press later.
        let got = transitions([(true, 50), (false, 100), (true, 110), (false, 129), (true, 500)])
        #expect(got.map(\.pressed) == [true, false, true])
        #expect(got.last?.nanos == 500 * ms)
    }

    @Test func aTouchThatBouncedIsStampedWhereItSettled() {
        // After a release at 100: touched at 105, a bounce pair, still touched until 900.
        let got = transitions([(true, 50), (false, 100), (true, 105), (false, 106), (true, 108), (false, 900)])
        #expect(got.suffix(2) == [T(pressed: true, nanos: 108 * ms), T(pressed: false, nanos: 900 * ms)])
    }
}

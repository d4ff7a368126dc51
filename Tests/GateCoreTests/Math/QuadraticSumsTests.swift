import Testing
@testable import GateCore

@Suite struct QuadraticSumsTests {
    @Test func recoversAnExactQuadraticAndItsLine() throws {
        var sums = QuadraticSums()
        for t in [-3.0, -1.0, 0.5, 2.0, 4.0] { sums.add(t, 2 - 0.5 * t + 0.25 * t * t) }
        let curve = try #require(sums.quadratic())
        #expect(abs(curve.a - 2) < 1e-9 && abs(curve.b + 0.5) < 1e-9 && abs(curve.c - 0.25) < 1e-9, "\(curve)")
        var straight = QuadraticSums()
        for t in [0.0, 1.0, 2.0, 3.0] { straight.add(t, 7 - 0.3 * t) }
        let line = try #require(straight.line())
        #expect(abs(line.a - 7) < 1e-12 && abs(line.b + 0.3) < 1e-12, "\(line)")
        let flat = try #require(straight.quadratic())
        #expect(abs(flat.c) < 1e-12 && abs(flat.b + 0.3) < 1e-12, "\(flat)")
    }

    @Test func tooFewDistinctTimesFixNothing() {
        var sums = QuadraticSums()
        sums.add(1, 3); sums.add(2, 5)
        #expect(sums.quadratic() == nil)
        #expect(sums.line() != nil)
        var same = QuadraticSums()
        same.add(1, 3); same.add(1, 4); same.add(1, 5)
        #expect(same.quadratic() == nil && same.line() == nil)
    }
}

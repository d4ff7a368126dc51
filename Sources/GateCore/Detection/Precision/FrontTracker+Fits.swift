/// The fits the crossing is timed from: a line through the newest samples,
/// a quadratic through those on both sides of the line.
extension FrontTracker {
    /// a + b t + c t^2, t from `origin` (a line when c is 0).
    struct Quadratic {
        var origin: Double; var a: Double; var b: Double; var c: Double
        @inline(__always) func value(at time: Double) -> Double {
            let t = time - origin
            return a + b * t + c * t * t
        }
    }

    struct CurveCrossing { var seconds: Double; var slope: Double; var residualVariance: Double }

    /// The first and last instants of the samples the fits use (seconds from `baseNanos`).
    func includedSpan() -> (first: Double, last: Double) {
        var first = Double.infinity, last = -Double.infinity
        for i in 0..<count where included[i] {
            first = min(first, times[i]); last = max(last, times[i])
        }
        return (first, last)
    }

    /// How far beyond the samples the fits may carry a crossing (seconds
    /// from `baseNanos`): `spans` of their span either way (the
    /// quadratic's a quarter: its bend is a guess beyond them); after a jump
    /// dropped the samples before the line (all kept ones are past it), back
    /// to the last one dropped: the line through samples past it, of a
    /// runner still accelerating, times the crossing late by a good part of
    /// a frame.
    func rootReach(spans: Double = 0.25) -> (earliest: Double, latest: Double) {
        let (first, last) = includedSpan()
        let span = last - first
        return (min(first - spans * span, earliestRoot ?? .infinity), last + spans * span)
    }

    /// Least squares front = a + b t + c t^2 (t from `near`), and the root of
    /// front = gate nearest `near`; nil when the curve never reaches the gate
    /// close to where the line does.
    func fitQuadratic(near: Double) -> CurveCrossing? {
        let n = count
        var sums = QuadraticSums()
        var used = 0
        for i in 0..<n where included[i] {
            used += 1
            sums.add(times[i] - near, fronts[i] - gateX)
        }
        guard let fit = sums.quadratic() else { return nil }
        let (a, b, c) = fit
        // a + b t + c t^2 = 0: the root nearest t = 0 (where the line crosses).
        var root: Double
        if c == 0 {
            guard b != 0 else { return nil }
            root = -a / b
        } else {
            // The stable form: a tiny c leaves a / q, the line's root.
            let disc = b * b - 4 * a * c
            guard disc >= 0 else { return nil }
            let q = -0.5 * (b + (b >= 0 ? 1.0 : -1.0) * disc.squareRoot())
            let r1 = q / c, r2 = q != 0 ? a / q : r1
            root = r1.magnitude < r2.magnitude ? r1 : r2
        }
        let reach = rootReach()
        guard root >= reach.earliest - near, root <= reach.latest - near else { return nil }
        var sse = 0.0
        for i in 0..<n where included[i] {
            let t = times[i] - near
            let r = fronts[i] - gateX - (a + b * t + c * t * t)
            sse += r * r
        }
        return CurveCrossing(seconds: near + root, slope: b + 2 * c * root,
                             residualVariance: sse / Double(max(1, used - 3)))
    }

    /// Least squares front = intercept + slope x t over the kept samples,
    /// or over the `newest` samples only (nil when they have no spread in time).
    func fitLine(newest: Int? = nil) -> LineFit? {
        var sums = LineSums()
        for k in 0..<(newest ?? count) {
            let i = newest != nil ? slot(count - 1 - k) : k
            guard newest != nil || included[i] else { continue }
            sums.add(times[i], fronts[i])
        }
        return sums.fit()
    }
}

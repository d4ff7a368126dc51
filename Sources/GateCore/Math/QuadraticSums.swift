/// Running sums for a least-squares quadratic f = a + b t + c t^2 (and the
/// line f = a + b t through the same points). Sums only: a fit in the
/// per-frame path allocates nothing.
struct QuadraticSums {
    private(set) var count = 0.0
    private var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, f0 = 0.0, f1 = 0.0, f2 = 0.0

    mutating func add(_ t: Double, _ f: Double) {
        let t2 = t * t
        count += 1; s1 += t; s2 += t2; s3 += t2 * t; s4 += t2 * t2
        f0 += f; f1 += f * t; f2 += f * t2
    }

    /// The quadratic's coefficients, by Cramer's rule on the 3x3 normal
    /// equations; nil when fewer than three distinct times fix none.
    func quadratic() -> (a: Double, b: Double, c: Double)? {
        let s0 = count
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        guard det.magnitude > 1e-30 else { return nil }
        let a = (f0 * (s2 * s4 - s3 * s3) - s1 * (f1 * s4 - s3 * f2) + s2 * (f1 * s3 - s2 * f2)) / det
        let b = (s0 * (f1 * s4 - f2 * s3) - f0 * (s1 * s4 - s3 * s2) + s2 * (s1 * f2 - f1 * s2)) / det
        let c = (s0 * (s2 * f2 - s3 * f1) - s1 * (s1 * f2 - s2 * f1) + f0 * (s1 * s3 - s2 * s2)) / det
        return (a, b, c)
    }

    /// The line's intercept and slope; nil without two distinct times.
    func line() -> (a: Double, b: Double)? {
        let spread = count * s2 - s1 * s1
        guard spread > 0 else { return nil }
        let b = (count * f1 - s1 * f0) / spread
        return ((f0 - b * s1) / count, b)
    }
}

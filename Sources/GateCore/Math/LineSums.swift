/// Running sums for a least-squares line f = a + b t, kept about the first
/// point added (a few tenths of a second and a few pixels from it: nothing
/// cancels). Sums only: a fit in the per-frame path allocates nothing.
struct LineSums {
    private var n = 0.0
    private var t0 = 0.0, f0 = 0.0
    private var st = 0.0, sf = 0.0, stt = 0.0, stf = 0.0, sff = 0.0

    mutating func add(_ t: Double, _ f: Double) {
        if n == 0 { t0 = t; f0 = f }
        let dt = t - t0, df = f - f0
        n += 1; st += dt; sf += df; stt += dt * dt; stf += dt * df; sff += df * df
    }

    /// The line through the points; nil without two distinct times.
    func fit() -> LineFit? {
        guard n > 0 else { return nil }
        let ctt = stt - st * st / n, ctf = stf - st * sf / n, cff = sff - sf * sf / n
        guard ctt > 0 else { return nil }
        let slope = ctf / ctt
        let intercept = f0 + sf / n - slope * (t0 + st / n)
        let sse = max(0, cff - slope * ctf)
        return LineFit(intercept: intercept, slope: slope, residualVariance: sse / max(1, n - 2), count: Int(n),
                       meanSeconds: t0 + st / n, spread: ctt)
    }
}

/// A least-squares line f = intercept + slope x t. `meanSeconds` and
/// `spread` (the sum of squared deviations of the points' times from it)
/// say how far from its points' centre a point of the line is known less well.
struct LineFit {
    var intercept: Double; var slope: Double; var residualVariance: Double; var count: Int
    var meanSeconds: Double; var spread: Double

    @inline(__always)
    func value(at seconds: Double) -> Double { intercept + slope * seconds }

    /// The variance of the line's value at `seconds` for points scattered
    /// by `scatter` (variance) about it: the scatter over their number, and
    /// more by the square of the distance from their centre against their spread.
    func variance(at seconds: Double, scatter: Double) -> Double {
        let away = seconds - meanSeconds
        return scatter * (1 / Double(count) + away * away / spread)
    }
}

/// The drift between the two clocks: a least-squares line through the
/// (local time, offset) results of the last few syncs (seed 000 section 10.6,
/// "drift tracking with linear regression"), so the offset can be predicted
/// between syncs. A ring made at init: adding a sync allocates nothing.
public struct DriftTracker {
    private var local: [Int64], offset: [Int64], bound: [Int64]
    private var next = 0
    public private(set) var count = 0
    /// Relative rate assumed until the syncs measure one: two crystals of
    /// +-25 ppm each. A prior, not a measurement; it only ever widens bounds.
    public var priorPpm: Double

    public init(capacity: Int = 16, priorPpm: Double = 50) {
        precondition(capacity >= 2)
        local = Array(repeating: 0, count: capacity); offset = local; bound = local
        self.priorPpm = priorPpm
    }

    public mutating func reset() { count = 0; next = 0 }

    public mutating func add(_ result: ClockSyncResult) {
        local[next] = result.localNanos; offset[next] = result.offsetNanos; bound[next] = result.boundNanos
        next = (next + 1) % local.count
        count = min(count + 1, local.count)
    }

    private func index(_ i: Int) -> Int { (next - count + i + local.count) % local.count }

    /// The newest sync's instant, offset and bound.
    public var latest: (localNanos: Int64, offsetNanos: Int64, boundNanos: Int64)? {
        guard count > 0 else { return nil }
        let i = index(count - 1)
        return (local[i], offset[i], bound[i])
    }

    /// The fitted rate in ppm (offset nanoseconds per local second / 1000)
    /// and how far the true rate can be from it, in ppm; nil before two syncs
    /// at distinct instants.
    ///
    /// The rate's uncertainty is the larger of what the syncs' bounds allow,
    /// taken as if each were one standard deviation of scatter (the slope's
    /// standard error for n points spread over a span is about
    /// sigma * sqrt(12 / n) / span), and twice the standard error the
    /// residuals show (which catches a rate that is not constant); never
    /// more than the prior, which holds whatever was measured.
    public var rate: (ppm: Double, uncertaintyPpm: Double)? {
        guard count >= 2 else { return nil }
        let first = index(0)
        var sums = LineSums()
        var meanBound = 0.0
        var earliest = Int64.max, latest = Int64.min
        for i in 0..<count {
            let k = index(i)
            // Seconds and nanoseconds about the oldest sync: small, exact numbers.
            let t = Double(local[k] &- local[first]) / 1e9
            let f = Double(offset[k] &- offset[first])
            sums.add(t, f)
            meanBound += Double(bound[k]) / Double(count)
            earliest = min(earliest, local[k]); latest = max(latest, local[k])
        }
        guard let fit = sums.fit() else { return nil }
        let span = Double(latest &- earliest) / 1e9
        let n = Double(count)
        let fromBounds = meanBound * (12 / n).squareRoot() / span / 1e3
        let fromResiduals = count >= 3 ? 2 * (fit.residualVariance / fit.spread).squareRoot() / 1e3 : 0
        return (fit.slope / 1e3, min(priorPpm, max(fromBounds, fromResiduals)))
    }

    /// The offset predicted at `atNanos` and its bound: the newest sync's
    /// offset carried along the fitted rate (zero rate before two syncs),
    /// the bound growing by the rate's uncertainty (the prior before two
    /// syncs) times the time since that sync. Nil before any sync.
    public func predict(atNanos t: Int64) -> ClockPrediction? {
        guard let newest = latest else { return nil }
        let elapsed = Double(SyncFilter.distance(t, newest.localNanos)) / 1e9
        let signed = t >= newest.localNanos ? elapsed : -elapsed
        let rate = self.rate
        let ppm = rate?.ppm ?? 0
        let rateUncertainty = rate?.uncertaintyPpm ?? priorPpm
        let moved = (signed * ppm * 1e3).rounded()
        // A garbled rate that would carry the offset out of Int64 moves it not at all.
        var offset = newest.offsetNanos
        if moved.magnitude < 9e18 {
            let (sum, overflow) = offset.addingReportingOverflow(Int64(moved))
            if !overflow { offset = sum }
        }
        return ClockPrediction(offsetNanos: offset,
                               syncBoundNanos: newest.boundNanos,
                               driftBoundNanos: elapsed * rateUncertainty * 1e3,
                               sinceSyncNanos: SyncFilter.distance(t, newest.localNanos),
                               driftPpm: rate?.ppm)
    }
}

/// The offset at one instant between syncs, and what is known of it.
public struct ClockPrediction: Equatable, Sendable {
    /// `t_remote = t_local + offsetNanos` at that instant.
    public var offsetNanos: Int64
    /// The last sync's own bound.
    public var syncBoundNanos: Int64
    /// How far the drift since the last sync may have carried the offset
    /// beyond the prediction.
    public var driftBoundNanos: Double
    public var sinceSyncNanos: Int64
    /// The fitted rate; nil before two syncs.
    public var driftPpm: Double?

    public var syncUncertaintyMs: Double { Double(syncBoundNanos) / 1e6 }
    public var driftUncertaintyMs: Double { driftBoundNanos / 1e6 }
    /// The two bounds added: both are bounds, not standard deviations.
    public var uncertaintyMs: Double { syncUncertaintyMs + driftUncertaintyMs }
}

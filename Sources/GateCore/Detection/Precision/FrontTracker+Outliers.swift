/// Samples off the others' path left out of the fit: a least-median test
/// over quadratics through the samples, their curvature bounded.
extension FrontTracker {
    /// Leaves out of the fits the samples far from the others' curve (a
    /// frame where a limb hid the torso's front): least median of squares
    /// over the quadratics through every three of up to 16 samples spread
    /// over the window, then every sample more than three robust
    /// deviations (at least a third of a pixel) from the best one is out.
    /// Works with up to almost half the samples bad.
    ///
    /// Only quadratics a runner can follow take part: no more curvature
    /// than `curvatureLimit`, plus what fronts half a pixel off would give
    /// the three samples (`curvatureNoisePixels` over their span squared).
    /// Without that bound, a quadratic through a few fronts held back by a
    /// sleeve and a few good ones, bending at 90 m/s^2, could have the
    /// least median.
    ///
    /// With five samples, over the lines through every two instead: the
    /// median of five residuals is always one of the three a quadratic fits
    /// exactly, zero, so every quadratic looked as good as the first and
    /// the samples off it were left out, good or bad. (With six or more the
    /// median reaches a sample the quadratic does not pass through; lines
    /// there left out good samples of a runner accelerating at 30 fps.)
    /// `among`: the first that many samples of the ring in time order
    /// (`removeExcluded`); the others are left as they are.
    func excludeOutliers(among first: Int? = nil) {
        let n = first ?? count
        guard n >= FrontTracker.fewestForOutliers else { return }
        var bestMedian = Double.infinity
        var best = Quadratic(origin: 0, a: 0, b: 0, c: 0)
        if n == 5 {
            for i in 0..<(n - 1) {
                for j in (i + 1)..<n {
                    let ti = times[i], tj = times[j]
                    guard tj != ti else { continue }
                    let line = Quadratic(origin: ti, a: fronts[i], b: (fronts[j] - fronts[i]) / (tj - ti), c: 0)
                    let median = FrontTracker.medianResidual(line, times: times, fronts: fronts, among: n,
                                                             below: bestMedian, residuals: residuals)
                    if median < bestMedian { bestMedian = median; best = line }
                }
            }
        } else {
            // Through at most 16 of the samples, spread over the window
            // (the ring is in time order here): 560 quadratics, not the
            // 3,276 of a full 28 at 240 fps (0.16 ms per crossing on this
            // machine, not 0.8); more than half of them are good, so some
            // three are. (Through 12, a 240 fps clip was 5 ms off.)
            let picks = min(n, FrontTracker.outlierPicks)
            for pi in 0..<(picks - 2) {
                for pj in (pi + 1)..<(picks - 1) {
                    for pk in (pj + 1)..<picks {
                        let i = pi * (n - 1) / (picks - 1), j = pj * (n - 1) / (picks - 1), k = pk * (n - 1) / (picks - 1)
                        // The parabola through three samples (Newton's divided differences).
                        let ti = times[i], tj = times[j], tk = times[k]
                        guard tj != ti && tk != tj && tk != ti else { continue }
                        let dij = (fronts[j] - fronts[i]) / (tj - ti)
                        let djk = (fronts[k] - fronts[j]) / (tk - tj)
                        let c = (djk - dij) / (tk - ti)
                        guard c.magnitude <= curvatureLimit + FrontTracker.curvatureNoisePixels / ((tk - ti) * (tk - ti))
                        else { continue }
                        let curve = Quadratic(origin: ti, a: fronts[i], b: dij - c * (tj - ti), c: c)
                        let median = FrontTracker.medianResidual(curve, times: times, fronts: fronts, among: n,
                                                                 below: bestMedian, residuals: residuals)
                        if median < bestMedian { bestMedian = median; best = curve }
                    }
                }
            }
        }
        guard bestMedian.isFinite else { return }
        let limit = max(1.0 / 3.0, 3 * 1.4826 * bestMedian)
        for m in 0..<n where (fronts[m] - best.value(at: times[m])).magnitude > limit { included[m] = false }
    }

    /// Rebuilds the ring in time order from slot 0 without the samples
    /// marked not `included`, and includes every slot again. A jump
    /// waiting for confirmation is forgotten: its slot has moved (a jump
    /// in the sample that times a crossing is moot for that crossing).
    func removeExcluded() {
        jumpIndex = -1
        var kept = 0
        for k in 0..<count {
            let i = slot(k)
            guard included[i] else { continue }
            spareTimes[kept] = times[i]
            spareFronts[kept] = fronts[i]
            kept += 1
        }
        adoptSpare(kept)
    }

    /// The ring becomes the first `kept` samples of the spare buffers (in
    /// time order), every one included.
    func adoptSpare(_ kept: Int) {
        for i in 0..<settings.fitSamples { included[i] = true }
        times.update(from: spareTimes, count: kept)
        fronts.update(from: spareFronts, count: kept)
        count = kept
        next = kept % settings.fitSamples
    }

    /// The ring index of the `k`-th oldest sample (0: the oldest).
    @inline(__always)
    func slot(_ k: Int) -> Int { (next + settings.fitSamples - count + k) % settings.fitSamples }

    /// After a crossing, a front this many jump limits (a torso half depth)
    /// behind the line rearms the gate as well as one far away: a torso
    /// back on the near side of the line has not crossed it yet, so it is
    /// a runner coming again, or another one.
    ///
    /// Why: two runners 0.5 s apart at a standing start, 30 px apart in
    /// the view (a second renderer's hard runners, 120 fps). The first one's
    /// track lost its torso for a frame past the line and took the second
    /// one's, standing behind it; that runner never came a quarter of the
    /// view from the line before reaching it, and was missed. A standing
    /// runner swaying at the line, or a front measured a few pixels short,
    /// stays within a half depth.
    static let rearmBehindJumpLimits = 2.0

    /// The fewest samples the outlier test leaves outliers out of.
    static let fewestForOutliers = 5

    /// How long after its first sample at the line a pending crossing
    /// waits for a kept sample past it (`finishPending`): a limb leads the
    /// torso by up to about 0.3 m, 100 ms at a standing start's 3 m/s.
    static let pastLineWaitSeconds = 0.1

    /// The outlier test's bound on a path's curvature, in jump limits per
    /// second squared. A jump limit is half a torso half depth, 4.5-7.5 cm,
    /// so this is 13-22 m/s^2 of acceleration: about twice a sprinter's
    /// first steps. Measured on the second renderer's six sets (648
    /// crossings, both modes): on the four plain sets three runners moved,
    /// 12.4 -> 15.3 ms, -8.3 -> -8.7 ms and one 3.9 -> 4.2 ms in one mode,
    /// 3.7 -> 2.7 in the other; on the two hard sets within 5 ms 166 ->
    /// 169: a runner at 240 fps -35.5 -> -4.4 ms, one at 120 fps -7.7 ->
    /// -1.5 ms, one at 30 fps -16.7 -> -11.3 ms, two 1-1.3 ms worse.
    static let curvatureLimits = 150.0

    /// Three fronts each half a pixel off their path bend a quadratic
    /// through them by up to this over their span squared (8 x 0.5 px):
    /// close in time, noise alone bends it far more than a runner can.
    /// (Without it, a runner at 30 fps with sparse fronts went from 16.7
    /// to 47 ms early.)
    static let curvatureNoisePixels = 4.0

    /// Samples the outlier test draws its quadratics through, at most.
    static let outlierPicks = 16

    /// The median of the first `n` samples' distances from `curve`, or
    /// infinity when it is not below `best` (the least median so far);
    /// `residuals`: room for `n` distances, to work in.
    ///
    /// The median is below `best` only if (n + 1) / 2 of the distances
    /// are: for an odd n it is the middle one; for an even n the mean of
    /// the two middle ones, so the lower of them is. Counting them is one
    /// pass; sorting them all, for each of the outlier test's 560 curves,
    /// made the frame that times a crossing cost 0.5 ms at 640x480 (the
    /// others 0.2 ms at most), and most curves are no better than the best
    /// one found early. The curves kept, and so the samples excluded, are
    /// the same: only those that could not have won are not sorted.
    /// Of those that could, only the distances below `best` are sorted:
    /// the median's middle ones are among them, but for an even n's upper
    /// one when exactly n / 2 are below, which is then the least of the rest.
    ///
    /// Two samples at a time, and counted without branches: whether a
    /// distance is below the best so far is what the data decide, and as
    /// a branch it was mispredicted often enough to be most of the cost.
    static func medianResidual(_ curve: Quadratic, times: UnsafePointer<Double>, fronts: UnsafePointer<Double>,
                               among n: Int, below best: Double, residuals: UnsafeMutablePointer<Double>) -> Double {
        let origin = SIMD2(repeating: curve.origin), a = SIMD2(repeating: curve.a)
        let b = SIMD2(repeating: curve.b), c = SIMD2(repeating: curve.c), bound = SIMD2(repeating: best)
        let allButSign = SIMD2<UInt64>(repeating: ~(1 << 63))
        let timePairs = UnsafeRawPointer(times), frontPairs = UnsafeRawPointer(fronts)
        let distancePairs = UnsafeMutableRawPointer(residuals)
        var under = SIMD2<Int64>()
        var m = 0
        while m &+ 2 <= n {
            // `Quadratic.value`'s arithmetic, lane by lane.
            let t = timePairs.loadUnaligned(fromByteOffset: m &* 8, as: SIMD2<Double>.self) - origin
            let off = frontPairs.loadUnaligned(fromByteOffset: m &* 8, as: SIMD2<Double>.self) - (a + b * t + c * t * t)
            let distance = unsafeBitCast(unsafeBitCast(off, to: SIMD2<UInt64>.self) & allButSign, to: SIMD2<Double>.self)
            distancePairs.storeBytes(of: distance, toByteOffset: m &* 8, as: SIMD2<Double>.self)
            // A mask's lanes are -1 where true.
            under &-= unsafeBitCast(distance .< bound, to: SIMD2<Int64>.self)
            m &+= 2
        }
        var count = Int(under[0] &+ under[1])
        if m < n {
            let distance = (fronts[m] - curve.value(at: times[m])).magnitude
            residuals[m] = distance
            count &+= distance < best ? 1 : 0
        }
        guard count >= (n + 1) / 2 else { return .infinity }
        // Those below `best` to the front, in place (a distance moves to
        // the same index or an earlier one), and the least of the others.
        var below = 0
        var rest = Double.infinity
        for m in 0..<n {
            let distance = residuals[m]
            residuals[below] = distance
            let isBelow = distance < best
            below &+= isBelow ? 1 : 0
            rest = min(rest, isBelow ? .infinity : distance)
        }
        FrontTracker.sort(residuals, count: below)
        let middle = n / 2
        if n % 2 == 1 { return residuals[middle] }
        return (residuals[middle - 1] + (below > middle ? residuals[middle] : rest)) / 2
    }

    /// Sorts `count` values in place, by insertion: a handful.
    static func sort(_ values: UnsafeMutablePointer<Double>, count: Int) {
        for i in 1..<max(1, count) {
            let v = values[i]
            var j = i - 1
            while j >= 0 && values[j] > v { values[j + 1] = values[j]; j -= 1 }
            values[j + 1] = v
        }
    }

    /// The median of `count` values (at least one; reordered).
    static func median(_ values: UnsafeMutablePointer<Double>, count: Int) -> Double {
        sort(values, count: count)
        return count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2
    }
}

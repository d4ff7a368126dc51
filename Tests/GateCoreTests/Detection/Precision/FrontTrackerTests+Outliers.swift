import Testing
@testable import GateCore

/// FrontTracker+Outliers: samples off the others' path left out, within a runner's curvature.
extension FrontTrackerTests {
    /// The fronts `PrecisionDetector` measured of a runner (second
    /// renderer, hard profile, 240 fps, 640x480, left to right, gate at
    /// 179.32 px): none for the 30 frames before the line (441-469), the
    /// four after it jittery (192.4, 199.3, 199.4, 199.7), then a postroll's.
    static let gapBeforeTheLine: [(sequence: UInt32, nanos: Int64, front: Double, limit: Double)] = [
        (384, 1602428582, 61.63, 4.61),
        (385, 1606430319, 60.83, 4.03),
        (389, 1623162957, 68.90, 4.03),
        (392, 1635811394, 77.16, 4.50),
        (395, 1648228929, 75.45, 4.00),
        (396, 1652544032, 78.05, 3.91),
        (397, 1656760177, 78.45, 3.81),
        (398, 1660926844, 79.16, 3.91),
        (399, 1664928582, 82.44, 3.91),
        (400, 1669062262, 83.81, 4.00),
        (401, 1673228929, 85.18, 4.03),
        (402, 1677445075, 88.32, 4.47),
        (403, 1681545769, 88.03, 4.47),
        (404, 1685745422, 92.84, 4.47),
        (405, 1689879103, 93.71, 4.47),
        (407, 1698327887, 92.05, 3.81),
        (408, 1702577018, 92.41, 4.27),
        (409, 1706760177, 93.82, 4.03),
        (410, 1710877365, 95.71, 4.03),
        (411, 1715093511, 96.74, 4.50),
        (412, 1719227191, 97.95, 4.61),
        (413, 1723228929, 102.27, 4.92),
        (415, 1731677713, 103.01, 4.61),
        (419, 1748327887, 109.61, 4.47),
        (420, 1752461568, 111.54, 5.15),
        (421, 1756611741, 113.44, 4.00),
        (422, 1760778408, 114.94, 4.53),
        (423, 1765011047, 115.90, 4.74),
        (425, 1773311394, 119.06, 4.74),
        (426, 1777478061, 120.96, 4.47),
        (430, 1793930319, 124.63, 4.00),
        (432, 1802329624, 126.86, 4.12),
        (433, 1806545769, 128.09, 4.27),
        (435, 1814813132, 132.98, 4.00),
        (436, 1818996290, 134.59, 3.64),
        (437, 1823162957, 135.94, 3.50),
        (438, 1827593511, 139.94, 3.61),
        (439, 1831760177, 143.30, 3.54),
        (440, 1835778408, 143.82, 4.00),
        (470, 1960629972, 192.43, 4.03),
        (471, 1965060525, 199.33, 4.00),
        (472, 1969260177, 199.35, 3.50),
        (473, 1973443337, 199.66, 3.54),
        (476, 1985646465, 203.35, 4.47),
        (477, 1989796639, 205.07, 4.24),
        (478, 1993946812, 206.89, 3.91),
        (479, 1998146465, 209.01, 3.81),
        (480, 2002263653, 210.00, 3.81),
        (491, 2048344380, 223.80, 4.27),
        (498, 2077280146, 245.31, 3.64),
        (500, 2085778408, 245.66, 3.64),
        (501, 2089879103, 249.83, 3.81),
        (502, 2093963305, 252.94, 4.00),
        (503, 2098146465, 255.02, 3.50),
        (504, 2102610004, 259.63, 3.54),
        (505, 2106727191, 262.95, 3.91),
        (506, 2110877365, 266.59, 3.64),
        (507, 2114813132, 263.69, 3.64),
    ]

    /// With three samples past the line and 100 ms before it, among the
    /// quadratics the outlier test tried, the one with the least median
    /// bent at hundreds of m/s^2 through the jitter after the gap: 35.5 ms
    /// early. Bounded to what a runner can follow, 4.4 ms. (With the
    /// postroll of 150 ms the samples after the jitter outvote it: 7.5 ms
    /// late, as the detector times it, bound or not.)
    @Test(arguments: [(0 as Int64?, 100_000_000 as Int64?), (nil, nil)])
    func theOutlierTestKeepsToPathsARunnerCanFollow(postrollNanos: Int64?, fitSpanNanos: Int64?) throws {
        try Self.recordedTimedOnce(Self.gapBeforeTheLine, gateX: 179.32, direction: .leftToRight,
                                   truthNanos: 1_921_555_962, within: 8, postrollNanos: postrollNanos,
                                   fitSpanNanos: fitSpanNanos)
    }

    /// The outlier test's median distance from a curve, taken two samples
    /// at a time, is the median of the distances as one at a time gives
    /// them, for any count (an odd one leaves a last sample alone), and
    /// infinity exactly when fewer than half of them, rounded up, lie below
    /// the bound. Only the distances below the bound are sorted: right when
    /// all are below, and when just half are (an even count's upper middle
    /// is then the least of the others).
    @Test func theMedianDistanceFromACurveIsTheOneSampleAtATimeOne() {
        var noise = SplitMix64(seed: 3)
        let capacity = 28
        let times = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let fronts = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let residuals = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        defer { times.deallocate(); fronts.deallocate(); residuals.deallocate() }
        var medians = 0, refused = 0
        for trial in 0..<2000 {
            let n = 1 + (trial / 5) % capacity
            let curve = FrontTracker.Quadratic(origin: noise.unit(), a: 100 * noise.unit(), b: 200 * noise.unit() - 100,
                                               c: trial % 3 == 0 ? 0 : 300 * noise.unit() - 150)
            for m in 0..<n {
                times[m] = Double(m) / 120 + noise.unit() / 1000
                // Half on the curve within a pixel, half anywhere.
                fronts[m] = curve.value(at: times[m]) + (noise.unit() < 0.5 ? noise.unit() - 0.5 : 40 * noise.unit() - 20)
            }
            let distances = (0..<n).map { (fronts[$0] - curve.value(at: times[$0])).magnitude }
            let sorted = distances.sorted()
            let best = [Double.infinity, sorted[n / 2], sorted[n / 2] + 1e-9, 3 * noise.unit(),
                        sorted[(n - 1) / 2] + 1e-9][trial % 5]
            let below = distances.filter { $0 < best }.count
            let expected = below < (n + 1) / 2 ? Double.infinity
                : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
            let median = FrontTracker.medianResidual(curve, times: times, fronts: fronts, among: n, below: best,
                                                     residuals: residuals)
            #expect(median == expected, "trial \(trial), \(n) samples")
            if expected.isFinite { medians += 1 } else { refused += 1 }
        }
        #expect(medians > 300 && refused > 200, "\(medians) medians, \(refused) refused")
    }

    @Test func anOutlierAmongFiveSamplesIsLeftOut() throws {
        // The track starts at frame 10 (the runner came into view, or a
        // jump left the samples before it out), 3 px behind: a limb hid
        // part of the front, not far enough to be a jump. Five samples in
        // all at the postroll; any three of them fit a quadratic exactly,
        // so only lines through two tell the outlier. 11 ms late when the
        // quadratic through the outlier was kept.
        let errors = Self.errorsMs { i, f in i < 10 ? nil : (i == 10 ? f - 3 : f) }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.05)
    }

    @Test func oneSampleAheadIsAnOutlierNotAJump() throws {
        // A limb ahead of the torso for one frame: the next front is back on
        // the path; the history stays and the outlier is left out.
        let errors = Self.errorsMs { i, f in i == 8 ? f + 5 : f }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.05)
    }
}

/// The crossing of a torso followed across the gate line whose front went
/// unread there, timed from the torso's centre and the front's offset from
/// it. Storage is allocated in init; nothing is allocated per frame.
///
/// Why: a track times a crossing from its fronts (`FrontTracker`). A torso
/// whose front cannot be read near the line (a striped shirt like the
/// scene, a lean with no flat row, an arm across it in every frame) is
/// still found and followed by its core, frame after frame: its centre
/// crosses the line, but no front past the line ever comes, and the runner
/// was missed (a second renderer's striped, leaning runner at 30 fps: a
/// front in 5 of the 15 frames before the line, none after). A crossing
/// known to within a few centimetres is worth far more to a coach than
/// none. So the centre's path, moved forward by the median of the offsets
/// the fronts had from it, stands in for the front's; its crossing is
/// reported once the fronts can no longer time it themselves, with the
/// uncertainty of that offset: when the track ends, or `waitSeconds` after
/// the centre's estimate reached the line. (A front past the line after a
/// gap of any length is timed from the fronts on both sides of it, and
/// that interpolation is the better one: a standing start at 60 fps with
/// no front for 20 frames from the line, 85 px, was timed within 0.1 ms
/// by the fronts, 7.8 ms early by the centre.)
final class CentreCrossing {
    /// Per frame the track was seen: the centre's instant (nanoseconds),
    /// the centre (work columns), and the front minus the centre at that
    /// instant (NaN: no front that frame). A ring, the oldest overwritten.
    private let nanos: UnsafeMutablePointer<Int64>
    private let centres: UnsafeMutablePointer<Double>
    private let offsets: UnsafeMutablePointer<Double>
    private let scratch: UnsafeMutablePointer<Double>
    let capacity: Int
    let workWidth: Int
    private var count = 0
    private var next = 0
    /// Where the estimated front was last frame against the line (along the direction).
    private var lastDistance = Double.nan
    /// The first frame whose estimated front was past the line, waiting for the fronts.
    private var candidateNanos: Int64?
    private var candidateSequence: UInt32 = 0
    private var candidateFrameNanos: Int64 = 0
    private var candidateOccupancy = 0.0
    /// The fronts' offset when the candidate began (the fronts before the line).
    private var candidateOffset = (median: 0.0, spread: 0.0)
    /// The front tracker's crossings when the candidate began: one more, and the fronts timed it.
    private var candidateCrossings = 0

    /// The offsets of the last `offsetFronts` fronts, of at most this long
    /// before the newest frame, give the median.
    static let offsetSeconds = 0.5
    static let offsetFronts = 15
    /// The longest a crossing waits for the fronts while the track lasts.
    static let waitSeconds = 1.0
    /// The centre samples within this long of the crossing give its line.
    static let fitSeconds = 0.15
    /// The fewest fronts whose offsets stand for the front (one may be a limb's).
    static let fewestOffsets = 3

    init(capacity: Int, workWidth: Int) {
        self.capacity = capacity
        self.workWidth = workWidth
        nanos = .allocate(capacity: capacity)
        centres = .allocate(capacity: capacity)
        offsets = .allocate(capacity: capacity)
        scratch = .allocate(capacity: CentreCrossing.offsetFronts)
    }

    deinit {
        nanos.deallocate(); centres.deallocate(); offsets.deallocate(); scratch.deallocate()
    }

    func reset() {
        count = 0
        next = 0
        lastDistance = .nan
        candidateNanos = nil
    }

    @inline(__always)
    private func slot(_ k: Int) -> Int { (next + capacity - count + k) % capacity }

    /// Adds a frame: the torso's centre at `atNanos` and, if one was
    /// measured, its front brought to that instant.
    func add(centre: Double, front: Double?, atNanos time: Int64) {
        nanos[next] = time
        centres[next] = centre
        offsets[next] = front.map { $0 - centre } ?? .nan
        next = (next + 1) % capacity
        if count < capacity { count += 1 }
    }

    /// The median offset of the last `offsetFronts` fronts of the last
    /// `offsetSeconds`, or nil with fewer than `fewestOffsets` of them; and
    /// their spread (1.4826 x the median absolute deviation).
    private func offset() -> (median: Double, spread: Double)? {
        guard count > 0 else { return nil }
        let newest = nanos[slot(count - 1)]
        var n = 0
        var k = count - 1
        while k >= 0 && n < CentreCrossing.offsetFronts {
            let i = slot(k)
            guard Double(newest - nanos[i]) / 1e9 <= CentreCrossing.offsetSeconds else { break }
            if !offsets[i].isNaN {
                scratch[n] = offsets[i]
                n += 1
            }
            k -= 1
        }
        guard n >= CentreCrossing.fewestOffsets else { return nil }
        let median = FrontTracker.median(scratch, count: n)
        for k in 0..<n { scratch[k] = (scratch[k] - median).magnitude }
        return (median, 1.4826 * FrontTracker.median(scratch, count: n))
    }

    /// After this frame's `add` and the front tracker's: a crossing when a
    /// candidate's wait is over and the fronts have not timed it (`final`:
    /// the track ends, no more frames will come). `sequence` and
    /// `frameNanos`: this frame's (the first past the line, if a candidate begins).
    ///
    /// `crossings`: how many the track's front tracker has timed;
    /// `armed`: it would time one now; `pending`: it waits for its postroll.
    /// `depth`: the torso's (work pixels); the centre's estimate must be
    /// past the line by that much when the crossing is timed.
    func check(direction: CrossingDirection, gateX: Double, crossings: Int, armed: Bool, pending: Bool,
               minSpeed: Double, depth: Double, sequence: UInt32, frameNanos: Int64, occupancy: Double,
               final: Bool = false) -> DetectedCrossing? {
        guard count > 0 else { return nil }
        let sign = direction == .leftToRight ? 1.0 : -1.0
        let newest = slot(count - 1)
        if let candidate = candidateNanos {
            guard crossings == candidateCrossings else {
                candidateNanos = nil   // the fronts timed it
                return nil
            }
            guard !pending || final else { return nil }
            guard final || Double(nanos[newest] - candidate) / 1e9 >= CentreCrossing.waitSeconds else { return nil }
            candidateNanos = nil
            // Still past the line, by the torso's depth: a torso swaying at
            // the line (a standing start) and turning is no crossing.
            guard (centres[newest] + candidateOffset.median - gateX) * sign > depth else { return nil }
            return timed(offset: candidateOffset, gateX: gateX, sign: sign, minSpeed: minSpeed, near: candidate)
        }
        guard !final, let offset = offset() else { return nil }
        let distance = (centres[newest] + offset.median - gateX) * sign
        defer { lastDistance = distance }
        // Begun while the fronts wait for their postroll too: they may give up.
        if armed && lastDistance < 0 && distance >= 0 {
            candidateNanos = nanos[newest]
            candidateSequence = sequence
            candidateFrameNanos = frameNanos
            candidateOccupancy = occupancy
            candidateCrossings = crossings
            candidateOffset = offset
        }
        return nil
    }

    /// The crossing of the line through the centres within `fitSeconds` of
    /// `near`, moved forward by the offset; its uncertainty is the front
    /// tracker's (`FrontTracker.uncertaintySeconds`) with the offset's spread.
    private func timed(offset: (median: Double, spread: Double), gateX: Double, sign: Double, minSpeed: Double,
                       near: Int64) -> DetectedCrossing? {
        var sums = LineSums()
        for k in 0..<count {
            let i = slot(k)
            let t = Double(nanos[i] - near) / 1e9
            guard t.magnitude <= CentreCrossing.fitSeconds else { continue }
            sums.add(t, centres[i] + offset.median - gateX)
        }
        guard let line = sums.fit(), line.count >= 4, line.slope * sign >= minSpeed else { return nil }
        let root = -line.intercept / line.slope
        // Within the samples' span (a quarter of it beyond): no line carried far.
        guard root.magnitude <= 1.25 * CentreCrossing.fitSeconds else { return nil }
        let timeNanos = near + Int64((root * 1e9).rounded())
        let uncertaintySeconds = FrontTracker.uncertaintySeconds(scatter: line.residualVariance, of: line, at: root,
                                                                 speed: line.slope * sign,
                                                                 other: offset.spread * offset.spread)
        return DetectedCrossing(
            timeNanos: timeNanos,
            frameIndex: candidateSequence,
            interpolationOffsetMs: Double(timeNanos - candidateFrameNanos) / 1e6,
            direction: sign > 0 ? .leftToRight : .rightToLeft,
            velocityWorkPixelsPerSecond: line.slope,
            velocityWidthsPerSecond: line.slope / Double(workWidth),
            uncertaintyMs: uncertaintySeconds * 1000,
            occupancyAtTrigger: candidateOccupancy)
    }
}

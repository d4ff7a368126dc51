/// Step 7 of `PrecisionDetector`: the torso's front. From the edge rows of
/// `TorsoEdges`, the most forward row where the front is locally flat (two
/// of its four neighbours agree; a limb leaving the torso makes a ramp),
/// refined by a parabola through those rows (the round top of a leaning
/// torso's shoulder), or, where an arm hides the top, carried up the
/// torso's lean (`TorsoFront+Lean.swift`, `TorsoFront+Covered.swift`); the
/// sample is taken at that row's exposure instant.
final class TorsoFront: ReadsWorkPlanes {
    typealias Torso = PrecisionDetector.Torso

    let planes: WorkPlanes
    let edges: TorsoEdges
    /// The edge stage's rows (its buffers, held here too: read in every loop).
    let rowEdge: UnsafeMutablePointer<Double>
    let rowAligned: UnsafeMutablePointer<Double>
    let rowBackAligned: UnsafeMutablePointer<Double>
    var leanTolerance: Double { edges.leanTolerance }

    struct FrontSample { var front: Double; var nanos: Int64 }

    init(planes: WorkPlanes, edges: TorsoEdges) {
        self.planes = planes
        self.edges = edges
        rowEdge = edges.rowEdge
        rowAligned = edges.rowAligned
        rowBackAligned = edges.rowBackAligned
    }

    /// The torso's front this frame: each row's sub-pixel edge where the
    /// silhouette agrees with the opened torso, brought to one instant with
    /// the rolling shutter (`TorsoEdges`), and the most forward row that two
    /// of its four nearest rows support.
    /// `neck`: the luma of the neck above the torso, if seen (`neckLuma`).
    func measureFront(_ torso: Torso, candidate c: Int, direction: CrossingDirection, frame: LumaFrame,
                      velocity: Double, neck: Double?, learnt: inout LearntTop) -> FrontSample? {
        guard let rows = edges.read(torso, candidate: c, direction: direction, frame: frame, velocity: velocity,
                                    neck: neck) else { return nil }
        let (forward, firstRow, lastRow) = (rows.forward, rows.firstRow, rows.lastRow)
        let (referenceNanos, speed) = (rows.referenceNanos, rows.speed)
        // The most forward row where the front is locally flat: at least two
        // of its four nearest rows agree with it, to within what a torso's
        // round top allows. A limb leaving the torso at an angle makes a ramp
        // of rows, each ahead of the next: no two of them agree.
        let banded = frontIsBanded(firstRow: firstRow, lastRow: lastRow)
        var bestValue = -Double.infinity
        var bestRow = -1
        for y in firstRow...lastRow {
            let v = rowAligned[y]
            if v.isNaN || v <= bestValue { continue }
            if agreeingRows(y, firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth, banded: banded) >= 2 {
                bestValue = v
                bestRow = y
            }
        }
        // A shoulder hidden by an arm of another colour: the rows of the
        // torso's round top rise towards the arm and stop where it covers
        // them, and the flat rows left are far down a leaning torso's side.
        // Every row is a point of the torso's edge, none ahead of its front:
        // the last row before the arm is the nearest to the hidden front.
        // (A limb of the torso's own colour is not taken: its rows are not
        // set apart by colour.)
        //
        // Rows that rise going down into a limb below them are no shoulder
        // when they lie below the flat front found, within a half depth
        // ahead of it: below it a leaning torso's front falls back, and rows
        // coming forward again there are an arm of the shirt's colour swung
        // forward from the shoulder, joined to the torso, ending in a hand
        // or a seam of another luma (second renderer, standing starts at
        // 240 fps: 7.0 and 3.5 ms early, 0.3 and 0.1 ms with this; on six
        // sets 23 crossings moved by over 0.3 ms for the better, 11 for the
        // worse, the worst 0.3 -> 3.1 ms). Farther ahead they are another
        // runner's front joined to this torso, and still taken (a slim
        // runner joined by the feet to a deeper one is timed by them).
        let flatRow = bestRow
        @inline(__always) func armBelowTheFlatFront(_ y: Int) -> Bool {
            flatRow >= 0 && y > flatRow && rowAligned[y] - rowAligned[flatRow] <= torso.halfDepth
        }
        var hiddenTop = false
        for y in firstRow...lastRow where !rowAligned[y].isNaN && rowAligned[y] > bestValue {
            if (risesIntoALimb(y, step: 1, firstRow: firstRow, lastRow: lastRow) && !armBelowTheFlatFront(y))
                || risesIntoALimb(y, step: -1, firstRow: firstRow, lastRow: lastRow) {
                bestValue = rowAligned[y]
                bestRow = y
                hiddenTop = true
            }
        }
        var coveredRamp = false
        if bestRow < 0, let cap = capUnderALimb(firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth,
                                                learnt: &learnt) {
            bestRow = cap.row
            bestValue = cap.value
            coveredRamp = true
        }
        guard bestRow >= 0 else { return nil }
        var top = hiddenTop || coveredRamp
            ? bestValue
            : parabolaTop(around: bestRow, value: bestValue, firstRow: firstRow, lastRow: lastRow,
                          halfDepth: torso.halfDepth)
        if !hiddenTop && !coveredRamp,
           let ramp = leanRampTop(from: bestRow, firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth) {
            bestRow = ramp.row
            top = max(top, ramp.value)
        }
        if !hiddenTop {
            learnLineEnd(at: bestRow, firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth,
                         into: &learnt.lineEndRows)
        }
        if !coveredRamp, let hidden = frontUnderALimb(above: bestRow, firstRow: firstRow, lastRow: lastRow,
                                                      halfDepth: torso.halfDepth, lineEndRows: learnt.lineEndRows) {
            top = max(top, hidden)
        }
        let bestNanos = rowNanos(bestRow, frame: frame)
        let shift = speed * Double(bestNanos - referenceNanos) / 1e9
        return FrontSample(front: Double(forward) * (top + shift), nanos: bestNanos)
    }

    /// The front at `row` (`value`) with the rows that agree with it: the
    /// top of a parabola through them.
    func parabolaTop(around row: Int, value: Double, firstRow: Int, lastRow: Int, halfDepth: Double) -> Double {
        // With the rows that agree with it, the top of a parabola through
        // them (sensor noise averages out; a round shoulder falls away from
        // its top as dy^2 / 2R, which the parabola undoes), at the best row's instant.
        var m = 0.0, sx = 0.0, su = 0.0, sxx = 0.0, sxu = 0.0
        for dy in -2...2 {
            let yy = row + dy
            guard yy >= firstRow && yy <= lastRow else { continue }
            let u = rowAligned[yy]
            if !u.isNaN && (u - value).magnitude <= 0.15 + 0.75 * Double(dy * dy) / halfDepth {
                let x = Double(dy * dy)
                m += 1; sx += x; su += u; sxx += x * x; sxu += x * u
            }
        }
        var top = su / m
        let spread = m * sxx - sx * sx
        if spread > 0 {
            // The fall-off, no steeper than the torso's own roundness and never a rise.
            let fall = min(0, max(-1 / halfDepth, (m * sxu - sx * su) / spread))
            top = (su - fall * sx) / m
        }
        return top
    }

    /// How many of the front rows (`rowAligned`) nearest to row `y` agree
    /// with its front, to within what a torso's round top allows (the
    /// fall of a cap of radius `halfDepth`, dy^2 / 2R, and a little
    /// noise). The nearest rows are the two above and the two below; on a
    /// banded front (`frontIsBanded`), the first two rows with a front on
    /// each side within four rows, passing over rows left without one but
    /// not over a limb (`rowEdge` infinite).
    func agreeingRows(_ y: Int, firstRow: Int, lastRow: Int, halfDepth: Double, banded: Bool) -> Int {
        let v = rowAligned[y], reach = banded ? 4 : 2
        var agree = 0
        for step in stride(from: -1, through: 1, by: 2) {
            // Two places on this side: rows, or on a banded front rows with a front.
            var places = 0, dy = step
            while places < 2 && dy.magnitude <= reach {
                let yy = y + dy
                guard yy >= firstRow && yy <= lastRow, !(banded && rowEdge[yy].isInfinite) else { break }
                let n = rowAligned[yy]
                if !n.isNaN && (n - v).magnitude <= 0.15 + 0.75 * Double(dy * dy) / halfDepth { agree += 1 }
                if !banded || !n.isNaN { places += 1 }
                dy += step
            }
        }
        return agree
    }

    /// True when the torso's front rows (`rowAligned`, after the colour
    /// test) come in bands: five or more runs of rows, three rows long or
    /// less on average. A striped shirt does that: the stripes of the
    /// other colour are set apart by it (or show no edge where they are
    /// the scene's luma). With stripes two rows deep no row had two
    /// neighbours within two rows, and no front was found at all: a
    /// second renderer's striped shirt at 60 fps was missed in both modes
    /// (+4.8 ms with the bands bridged). A solid shirt under an arm has
    /// one or two long runs.
    ///
    /// On three of its hard sets (322 crossings, both modes; half the
    /// shirts striped or shaded), p95 of |error| 13.7 -> 10.5, 14.7 ->
    /// 9.8 and 5.9 -> 5.3 ms, misses 2 -> 0. On seven plain sets (solid
    /// shirts, 752 crossings) five crossings moved by over 0.3 ms, two
    /// for the better (2.8 -> 1.4 ms) and three for the worse (0.0 -> 1.7
    /// ms and 1.1 -> 2.2 ms the most): solid fronts an arm and noise
    /// break into bands. Four runs, or bands of four rows, took in more
    /// of those: ten moved, seven for the worse.
    func frontIsBanded(firstRow: Int, lastRow: Int) -> Bool {
        var runs = 0, rows = 0
        for y in firstRow...lastRow where !rowAligned[y].isNaN {
            rows += 1
            if y == firstRow || rowAligned[y - 1].isNaN { runs += 1 }
        }
        return runs >= 5 && rows <= 3 * runs
    }

    /// True when the front rows (`rowAligned`) rise through the two rows
    /// before `y` into `y` (going `step`), and stop there: the next row has
    /// no front and, within three rows, one has an edge that is not the
    /// torso's colour (`rowEdge` set, `rowAligned` cleared: a limb).
    func risesIntoALimb(_ y: Int, step: Int, firstRow: Int, lastRow: Int) -> Bool {
        let a = y - 2 * step, b = y - step
        guard a >= firstRow && a <= lastRow && b >= firstRow && b <= lastRow,
              !rowAligned[a].isNaN && !rowAligned[b].isNaN,
              rowAligned[a] <= rowAligned[b] && rowAligned[b] <= rowAligned[y] else { return false }
        let next = y + step
        guard next >= firstRow && next <= lastRow, rowAligned[next].isNaN else { return false }
        for k in 1...3 {
            let yy = y + k * step
            guard yy >= firstRow && yy <= lastRow else { break }
            if rowEdge[yy].isFinite && rowAligned[yy].isNaN { return true }
        }
        return false
    }
}

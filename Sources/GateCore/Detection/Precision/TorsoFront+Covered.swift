/// Step 7 under an arm: the front of a torso's top that a limb covers,
/// from the lean below it, the back's top, and what the track learnt.
extension TorsoFront {
    /// The front of a round top under an arm, when no row of a torso
    /// leaning more than the flat-row rule allows is flat; nil when the
    /// rows below the arm are no straight lean or the torso is a box.
    ///
    /// Leaning 0.34-0.42 rad (over 0.23 px a row) at a standing start, with
    /// an arm swung forward over the top, a torso's front rows are a ramp
    /// with no flat row, up to the arm: no front at all near the line, and
    /// the crossing was a late start timed from fronts tens of milliseconds
    /// past it (a second renderer's runners up to 45 ms late). The ramp's
    /// top row under two covered rows (a limb runs on from the front, or is
    /// of another colour) and the straight lean below it (`leanLine`) give
    /// the front: a capsule's cap meets the line at its tangent row, R(1 +
    /// sin) below the first row, and its apex is R(1 - cos) ahead of the
    /// line there. Carried up the line to the apex's row instead, as
    /// `frontUnderALimb` does, it overshot by R(1/cos - 1), 1 px at this
    /// lean (2.2 ms early).
    ///
    /// Not for a box: its corner lies up the line, higher than a cap's
    /// tangent, and reached from the cap it was 1.3 px late (a second
    /// renderer's box leaning 0.36: 8.9 ms late). A box the track learnt
    /// (`lineEndRows`) or whose back edge shows its corner
    /// (`backTopAhead` under 1 px) gives no front here, as before.
    ///
    /// On the second renderer's seven plain sets (762 crossings, both
    /// modes): within 1 ms 704 -> 708, within 5 ms 753 -> 757, p99 5.4 ->
    /// 4.0 ms; p95 at 60 fps 1.90 -> 1.73 ms, at 240 fps 0.73 -> 0.59; 11
    /// crossings moved by over 0.3 ms for the better (45.6 -> 1.9 ms, 9.5
    /// -> 4.0, 1.75 -> 0.01), 6 for the worse, all boxes whose back edge
    /// did not show the corner (the worst 0.0 -> 3.4 ms and 2.1 -> 4.0).
    ///
    /// Where the back does not show in this frame, the track's average over
    /// the frames it did decides (`LearntTop`): a far arm swung back across
    /// the back edge made a box at a standing start (240 fps) a round top in
    /// the frames after the line, timed 3.4 ms late (0.25 ms with it; `make
    /// test-second`'s seventh check). On the seven plain sets three other
    /// crossings moved, by 0.13-0.43 ms (one better, two worse, all within
    /// 0.5 ms).
    func capUnderALimb(firstRow: Int, lastRow: Int, halfDepth: Double,
                               learnt: inout LearntTop) -> (row: Int, value: Double)? {
        var row = firstRow
        while row < lastRow && rowAligned[row].isNaN { row += 1 }
        guard row >= firstRow + 2, rowAligned[row - 1].isNaN && !rowEdge[row - 1].isNaN,
              rowAligned[row - 2].isNaN && !rowEdge[row - 2].isNaN, !(learnt.lineEndRows < halfDepth),
              let line = leanLine(from: row, lastRow: lastRow, halfDepth: halfDepth) else { return nil }
        // The back's top in this frame, or as the track's last frames
        // showed it: the far arm or the scene behind may hide it in some.
        if let ahead = backTopAhead(firstRow: firstRow, lastRow: lastRow, halfDepth: halfDepth, lean: line.b) {
            LearntTop.average(ahead, into: &learnt.backTopAhead)
            guard ahead >= 1 else { return nil }
        } else {
            guard !(learnt.backTopAhead < 1) else { return nil }
        }
        if let cap = capFront(line, row: row, firstRow: firstRow, halfDepth: halfDepth) { return (row, cap) }
        // The first row and half depth put the cap's tangent below `row`,
        // but the rows say otherwise: the front runs straight up to `row`.
        if leanReaches(row, lastRow: lastRow, halfDepth: halfDepth) {
            return (row, line.a + TorsoFront.capAhead(lean: line.b, halfDepth: halfDepth))
        }
        return (row, line.a)
    }

    /// Whether a leaning front runs straight up to `row`: its front and the
    /// next row's lie on the straight lean of the rows below them
    /// (`leanLine`), each within `leanTolerance`.
    ///
    /// Why: where an arm covers a capsule's top, `capFront` places the cap
    /// by the torso's first row and half depth, and both can be off. A
    /// runner who started from the spot where a second one still stood, and
    /// was one body with them until three frames before the line, was a new
    /// track there, measured with that body: a half depth of 11.3 px against
    /// its own 9.3 (a second renderer's pair at a standing start, 120 fps,
    /// 7.5 ms exposures). The cap's tangent fell 4 rows below the first
    /// row under the arm, while the rows from there down were one straight
    /// lean: the front was taken at that row, behind the apex by R(1 -
    /// cos), and the crossing was 4.0 ms late (0.8 ms with this). A row
    /// that is the cap's, curving away from the line, stays the front, as
    /// before: a capsule leaning 0.45 at 240 fps whose top row under the
    /// arm lay 0.24 px behind the line was 4.7 ms early when the apex was
    /// added to every such row. A row or so of the cap within
    /// `leanTolerance` of the line is taken for the line's, and the front
    /// is then ahead by up to the lean over those rows.
    ///
    /// On the second renderer's seven plain sets (752 crossings, both
    /// modes): within 1 ms 705 -> 708, p99 3.20 -> 2.63 ms; p95 at 60 fps
    /// 1.13 -> 0.95 ms, at 120 fps 1.15 -> 0.90 (11 -> 9 over its target),
    /// at 30 fps 1.21 -> 1.31, at 240 fps 0.49 either way. 8 crossings moved
    /// by over 0.3 ms for the better (4.05 -> 0.78 ms, 1.66 -> 0.42), 5 for
    /// the worse, all within 1.4 ms (the most 0.58 -> 1.34 ms, where the
    /// frame that changed came nearer its truth, 0.54 -> 0.02 px).
    func leanReaches(_ row: Int, lastRow: Int, halfDepth: Double) -> Bool {
        guard !rowAligned[row + 1].isNaN, let below = leanLine(from: row + 2, lastRow: lastRow, halfDepth: halfDepth)
        else { return false }
        return frontOff(row + 1, below, from: row + 2).magnitude <= leanTolerance
            && frontOff(row, below, from: row + 2).magnitude <= leanTolerance
    }

    /// The most forward point of a capsule's round top whose straight front
    /// is `line` (against rows from `row`), or nil when the cap starts at or
    /// below `row`: the cap meets the line at its tangent row, R(1 + sin)
    /// below the first row, and its apex is R(1 - cos) ahead of the line
    /// there. The line carried on up to the apex's row overshoots by
    /// R(1/cos - 1).
    func capFront(_ line: (a: Double, b: Double), row: Int, firstRow: Int, halfDepth: Double) -> Double? {
        // Rows count down the image: a front that leans forward rises with them.
        let cosine = 1 / (1 + line.b * line.b).squareRoot(), sine = -line.b * cosine
        let tangent = Double(firstRow) + halfDepth * (1 + sine) - Double(row)
        guard tangent < 0 else { return nil }
        return line.a + line.b * tangent + TorsoFront.capAhead(lean: line.b, halfDepth: halfDepth)
    }

    /// How far a capsule's apex lies ahead of its straight front at the
    /// cap's tangent row, R(1 - cos), for a front leaning `lean` px a row.
    static func capAhead(lean: Double, halfDepth: Double) -> Double {
        halfDepth * (1 - 1 / (1 + lean * lean).squareRoot())
    }

    /// How far, in all over the three rows below the torso's first row,
    /// its back edge lies ahead of its straight lean carried up: a box's
    /// corner or a round top. Nil when too little of the back shows.
    ///
    /// The back edge over the second half depth is a straight lean, as the
    /// front's (`lean`, within 0.15 px a row). A round top's outline lies
    /// well ahead of it near the top: its cap curves over R(1 - sin) rows
    /// (a second renderer's capsule at R = 10 and lean 0.45: 2.0-4.9 px in
    /// all over the three rows). A box's lies within its corner's rounding
    /// (one leaning 0.36: 0.1-0.9 px in most frames). So under 1 px is a
    /// box (`capUnderALimb`), 2 px or more a round top (`frontUnderALimb`).
    func backTopAhead(firstRow: Int, lastRow: Int, halfDepth: Double, lean: Double) -> Double? {
        let from = firstRow + Int(halfDepth.rounded()), to = min(lastRow, firstRow + Int((2 * halfDepth).rounded()))
        guard from < to, firstRow + 3 <= lastRow else { return nil }
        var sums = QuadraticSums()
        for y in from...to where !rowBackAligned[y].isNaN { sums.add(Double(y - from), rowBackAligned[y]) }
        guard sums.count >= 4, let line = sums.line(), (line.b - lean).magnitude <= 0.15 else { return nil }
        var ahead = 0.0
        for y in (firstRow + 1)...(firstRow + 3) {
            guard !rowBackAligned[y].isNaN else { return nil }
            ahead += rowBackAligned[y] - (line.a + line.b * Double(y - from))
        }
        return ahead
    }

    /// The front of a leaning torso where an arm hides it, or nil when no
    /// limb covers the rows just above `row` (the most forward row seen).
    ///
    /// A leaning torso is most forward near its top, and the arm hangs from
    /// the shoulder there: swung forward, it covers those rows (the
    /// silhouette runs on past the torso's front, or is the arm's colour),
    /// and the rows below stop short of the front by the lean over the
    /// rows covered. In the second renderer one arm or the other is ahead
    /// most of the time, and leaning runners were timed 1-2 px late (a
    /// standing start at 120 fps 5.1 ms; 3.9 ms with this).
    ///
    /// The front rows below, over one and a half half depths, are fitted
    /// with a line or, when they bend back, a quadratic of no more curvature
    /// than the torso's own (with a line alone, round torsos were timed up
    /// to 7 ms early), and followed up through the covered rows: to the
    /// curve's top, or to where a rounded top is most forward (a half depth
    /// below the torso's first row; one and a quarter did worse), at most
    /// three quarters of a half depth (without that bound three runners
    /// were 2.6-3.8 ms off, 0.2-1.5 ms with it; a few others moved by up to
    /// a millisecond either way). A lean of more than a pixel a row is no
    /// torso's. Where the torso's outline shows again above the arm, the
    /// front is no less than it (a box's corner: below). Where the track
    /// learnt that its straight front ends higher than a half depth below
    /// the first row (`lineEndRows`, a box's corner), it is carried up to
    /// that row instead.
    func frontUnderALimb(above row: Int, firstRow: Int, lastRow: Int, halfDepth: Double,
                                 lineEndRows: Double) -> Double? {
        var coveredTop = row
        while coveredTop > firstRow && rowAligned[coveredTop - 1].isNaN && !rowEdge[coveredTop - 1].isNaN {
            coveredTop -= 1
        }
        let reachRows = lineEndRows.isNaN ? halfDepth : min(halfDepth, lineEndRows)
        let target = max(coveredTop, firstRow + Int(reachRows.rounded()))
        guard target < row else { return nil }
        let sums = frontSums(row, through: frontFitEnd(row, lastRow: lastRow, halfDepth: halfDepth))
        guard sums.count >= 3, let line = sums.line() else { return nil }
        var (a, b, c) = (line.a, line.b, 0.0)
        if sums.count >= 4, let curve = sums.quadratic(), curve.c < 0 {
            (a, b, c) = (curve.a, curve.b, max(curve.c, -1 / halfDepth))
        }
        // Rows count down the image: a front that leans forward rises with them.
        guard b < 0 else { return nil }
        @inline(__always) func reach(_ t: Double) -> Double { min(a + b * t + c * t * t, a - t) }
        var t = max(Double(target - row), -0.75 * halfDepth)
        if c < 0 { t = max(t, -b / (2 * c)) }
        guard t < 0 else { return nil }
        // A round top (the back edge shows it, `backTopAhead`; no box end
        // learnt) over a straight front: its cap, reached from the line
        // (`capFront`). The line carried up to a half depth below the
        // first row overshot it by R(1/cos - 1): a capsule leaning 0.15-0.2
        // under an arm swung 0.8-1 rad forward, in `PrecisionScene`, was
        // 0.5-1.8 ms early, 0.1-1.0 ms with this. On the second renderer's
        // seven plain sets (762 crossings, both modes): p95 at 60 fps 1.73
        // -> 1.52 ms, at 240 fps 0.59 -> 0.50; 6 crossings moved by over 0.3
        // ms for the better (the most 1.8 -> 0.6 ms), 1 for the worse (0.7
        // -> 1.1 ms). A curved front (the quadratic) is left as it was: its
        // own top is nearer.
        if c == 0, !(lineEndRows < halfDepth),
           let ahead = backTopAhead(firstRow: firstRow, lastRow: lastRow, halfDepth: halfDepth, lean: b), ahead >= 2 {
            return capFront((a, b), row: row, firstRow: firstRow, halfDepth: halfDepth)
        }
        let front = reach(t)
        // The torso's outline above the covered rows, where it shows again:
        // a point of the torso's edge, so its front lies at least that far
        // forward. A box's straight front runs on to its top corner, higher
        // than a rounded top's most forward row; the arm hid it, and the
        // front above stopped a pixel short (a second renderer's box torso
        // under a sleeve at 60 fps, 5.4 ms late; 0.9 and 1.6 ms with this).
        // The front carried up the straight line to that row is as far as
        // it can reach there: a rounded top falls back from the line.
        //
        // Only where the outline shows over three rows or more: a row or
        // two between the arm and the top are the arm's edge, blended with
        // the top's, ahead of both (a capsule under a sleeve swung 1.2 rad
        // forward, in `PrecisionScene`: 2.9 ms early with them, 0.6 ms
        // without). On the second renderer's seven plain sets (762
        // crossings, both modes): within 1 ms 681 -> 693; p95 at 60 fps
        // 2.22 -> 1.90 ms, at 240 fps 1.45 -> 0.92; at 120 fps 1.98 either way.
        let shown = coveredTop - 1
        guard shown - 2 >= firstRow, !rowAligned[shown].isNaN, !rowAligned[shown - 1].isNaN,
              !rowAligned[shown - 2].isNaN else { return front }
        return max(front, min(reach(Double(shown - row)), rowAligned[shown]))
    }
}

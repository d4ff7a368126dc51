/// Step 7, the lean: the line of a leaning torso's straight front, and the
/// rows that ramp up it to a top an arm does not cover.
extension TorsoFront {
    /// How many rows past a row the fronts that tell the torso's lean
    /// reach: one and a half half depths, at least three rows.
    func frontFitRows(_ halfDepth: Double) -> Int { max(3, Int((1.5 * halfDepth).rounded())) }

    /// The last of the rows below `row` whose fronts tell the torso's lean.
    func frontFitEnd(_ row: Int, lastRow: Int, halfDepth: Double) -> Int {
        min(lastRow, row + frontFitRows(halfDepth))
    }

    /// The fronts (`rowAligned`) of rows `row` through `end`, against rows from `row`.
    func frontSums(_ row: Int, through end: Int) -> QuadraticSums {
        frontSums(row...end, from: row)
    }

    /// The fronts (`rowAligned`) of `rows`, against rows from `origin`.
    func frontSums(_ rows: ClosedRange<Int>, from origin: Int) -> QuadraticSums {
        var sums = QuadraticSums()
        for y in rows where !rowAligned[y].isNaN { sums.add(Double(y - origin), rowAligned[y]) }
        return sums
    }

    /// The line (against rows from `row`) of a leaning torso's straight
    /// front from `row` down, over one and a half half depths; nil when
    /// they are no straight lean (`leanLine(_:from:)`).
    func leanLine(from row: Int, lastRow: Int, halfDepth: Double) -> (a: Double, b: Double)? {
        leanLine(row...frontFitEnd(row, lastRow: lastRow, halfDepth: halfDepth), from: row)
    }

    /// The line (against rows from `origin`) through the fronts of `rows`
    /// when they are a straight lean: at least four rows on a line leaning
    /// 0.1 to 1 px a row, to within `leanTolerance` (RMS); nil otherwise.
    func leanLine(_ rows: ClosedRange<Int>, from origin: Int) -> (a: Double, b: Double)? {
        let sums = frontSums(rows, from: origin)
        // Rows count down the image: a front that leans forward rises with them.
        guard sums.count >= 4, let line = sums.line(), line.b < -0.1 && line.b >= -1 else { return nil }
        var squares = 0.0
        for y in rows where !rowAligned[y].isNaN {
            let off = frontOff(y, line, from: origin)
            squares += off * off
        }
        return squares <= leanTolerance * leanTolerance * sums.count ? line : nil
    }

    /// How far row `y`'s front lies ahead of `line` (against rows from
    /// `origin`), pixels; behind it, negative.
    @inline(__always)
    func frontOff(_ y: Int, _ line: (a: Double, b: Double), from origin: Int) -> Double {
        rowAligned[y] - (line.a + line.b * Double(y - origin))
    }

    /// Learns, from a frame whose top the arm left open, how many rows
    /// below the torso's first row its straight front ends (`lineEndRows`,
    /// the track's, nan until learnt): where `frontUnderALimb` carries the
    /// front up to when an arm covers the top again.
    ///
    /// A leaning box's front runs straight up to its top front corner, 2R
    /// sin(lean) rows below the first row (the back corner) and its most
    /// forward point; a round top's most forward row is R below, R(1/cos -
    /// 1) behind its front's line carried up. So the most forward row
    /// `row` counts when the rows below it lie on a straight lean and it
    /// lies on that line carried up a row, with the outline above it
    /// showing (the row above it has a front: no arm over the top). An
    /// average (weight 0.3) over such frames: one frame's rows are few.
    /// A capsule's round top learns about R, its apex row, or nothing:
    /// where the front was carried to already.
    ///
    /// Without it a box under a bare arm was carried to R below the first
    /// row, short of its corner by the lean over the rows between (second
    /// renderer, standing start at 120 fps: 5.6 ms late; 0.1 ms with this).
    /// On its seven plain sets (762 crossings, both modes): within 1 ms 697
    /// -> 704, p95 at 120 fps 1.98 -> 1.59 ms, at 240 fps 0.87 -> 0.73 ms;
    /// 18 crossings moved by over 0.3 ms for the better, 5 for the worse
    /// (the worst a capsule leaning 0.38 at 60 fps, -2.1 -> -3.2 ms).
    func learnLineEnd(at row: Int, firstRow: Int, lastRow: Int, halfDepth: Double,
                              into lineEndRows: inout Double) {
        guard row > firstRow && row < lastRow && !rowAligned[row - 1].isNaN,
              let line = leanLine(from: row + 1, lastRow: lastRow, halfDepth: halfDepth),
              frontOff(row, line, from: row + 1).magnitude <= 0.25 else { return }
        LearntTop.average(Double(row - firstRow), into: &lineEndRows)
    }

    /// The top of a leaning torso's straight front, from `row` (a row the
    /// flat-row rule took) up; nil when neither the rows below `row` nor
    /// those above it are a straight lean, or the rows above leave it.
    ///
    /// A straight front leaning by more than the flat-row rule allows (0.15
    /// px a row and the torso's roundness) is a ramp of rows, each ahead of
    /// the one below: no row of it agrees with two of its neighbours, and the
    /// row taken is wherever sensor noise made two agree, far down the ramp
    /// (a second renderer's runner leaning 0.23 rad was 15.7 ms late, fronts
    /// 19 rows down). Where the rows below `row`, over one and a half half
    /// depths, are a straight lean (`leanLine`: 0.1 to 1 px a row, within
    /// the edges' noise), the rows above that stay within 0.2 px of it are
    /// the torso's too, up to the last. An arm leaving the torso at an
    /// angle is off that line.
    ///
    /// The row taken may be the ramp's foot instead: below it the front
    /// comes forward again (a forearm across the chest below it, the
    /// hips), and the rows below are no lean. Then the line is the ramp's
    /// own, over the same span of rows above `row`, followed up from the
    /// highest of them on it (a limb may cross the ramp). A second
    /// renderer's box leaning 0.36 rad at 120 fps, an upper arm swung over
    /// its top and a forearm across its chest: the ramp between them was
    /// seven rows, the row taken its foot, fronts up to 4.9 px late, the
    /// crossing 7.6 ms early through the fit (`make test-second`'s eighth
    /// check). Also when the line below ends at `row` itself (no row above
    /// on it): the ramp above is then another lean than the rows below.
    ///
    /// On the second renderer's seven plain sets (762 crossings, both
    /// modes): within 1 ms 709 -> 713, within 5 ms 757 -> 759; p95 at 60
    /// fps 1.52 -> 1.34 ms (9 -> 7 over its target), at 120 fps 1.60 ->
    /// 1.22 (16 -> 13 over), at 240 fps 0.49 either way. 8 crossings moved
    /// by over 0.3 ms for the better (10.3 -> 0.1 ms, 7.6 -> 0.8, 4.7 ->
    /// 2.0), 3 for the worse, all at 30 fps and within 2.7 ms (the most
    /// -0.2 -> +1.6 ms: a front 7.9 px late became 0.9 px late, and the fit
    /// no longer left it out).
    func leanRampTop(from row: Int, firstRow: Int, lastRow: Int, halfDepth: Double) -> (row: Int, value: Double)? {
        if let line = leanLine(from: row, lastRow: lastRow, halfDepth: halfDepth),
           let top = rampTop(line, row: row, from: row, firstRow: firstRow) {
            return top
        }
        let start = max(firstRow, row - frontFitRows(halfDepth))
        guard let line = leanLine(start...row, from: row) else { return nil }
        var highest = row
        for y in start...row where !rowAligned[y].isNaN && onRamp(y, line, row: row) { highest = y; break }
        return rampTop(line, row: row, from: highest, firstRow: firstRow)
    }

    /// True when row `y`'s front lies within 0.2 px of `line` (against rows from `row`).
    @inline(__always)
    func onRamp(_ y: Int, _ line: (a: Double, b: Double), row: Int) -> Bool {
        frontOff(y, line, from: row).magnitude <= 0.2
    }

    /// The last of the rows up from `top` on `line` (against rows from
    /// `row`) and the line there; nil when that is `row` itself.
    func rampTop(_ line: (a: Double, b: Double), row: Int, from top: Int, firstRow: Int)
        -> (row: Int, value: Double)? {
        var top = top
        while top > firstRow && !rowAligned[top - 1].isNaN && onRamp(top - 1, line, row: row) { top -= 1 }
        guard top < row else { return nil }
        return (top, line.a + line.b * Double(top - row))
    }
}

/// Step 5, the spine: the core pixels through which the core runs on for
/// a spine's length, along its axis or a lean, and the union of their discs.
extension TorsoFinder {
    /// The torso candidates of body `g` in `box`: its cores at `halfDepth`,
    /// their spines, and each one's opened fronts per row.
    func findCores(in g: Int, box body: Body, halfDepth: Double) {
        // The core is where the body holds a disc of 0.65 R (connected
        // enough to follow along the torso); only its pixels holding a disc of
        // `torsoCoreFraction` x R (more than a head's) make the torso.
        let coreSquared = coreSquared(halfDepth)
        let boxWidth = body.maxX - body.minX + 1
        for y in body.minY...body.maxY {
            // Only the body's pixels have a distance above 0 in its box.
            let d = distance.squared + y * width + body.minX, c = core + y * width + body.minX
            for i in 0..<boxWidth { c[i] = d[i] >= coreSquared ? 1 : 0 }
        }
        coreRuns.label(core, stride: width, value: 1, x0: body.minX, x1: body.maxX, y0: body.minY, y1: body.maxY)
        let discRadius = settings.torsoCoreFraction * halfDepth
        let discSquared = discSquared(halfDepth)
        let spineLength = settings.torsoSpineHalfDepths * halfDepth
        // A spine pixel's walk along the core reaches `spineLength` pixels
        // (itself and `need` steps) forwards and backwards together.
        let need = min(axisStepsCapacity, max(0, Int((spineLength - 1).rounded(.up))))
        for k in 0..<TorsoFinder.spineDirections {
            let direction = TorsoFinder.spineDirection(k)
            fillSteps(k + 1, ax: direction.x, ay: direction.y, count: need)
        }
        for r in 0..<coreRuns.count where coreRuns.root(r) == r {
            guard candidateCount < TorsoFinder.maxCandidates else { return }
            let coreHeight = Double(coreRuns.maxY[r] - coreRuns.minY[r] + 1)
            guard coreHeight >= 0.8 * halfDepth else { continue }
            // The core's axis from its second moments; a torso stands within 60 degrees of vertical.
            var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0
            var i = r
            while i >= 0 {
                let y = Double(coreRuns.row[i])
                for x in Int(coreRuns.start[i])...Int(coreRuns.end[i]) {
                    let fx = Double(x)
                    n += 1; sx += fx; sy += y; sxx += fx * fx; sxy += fx * y; syy += y * y
                }
                i = Int(coreRuns.next[i])
            }
            let mx = sx / n, my = sy / n
            let cxx = sxx / n - mx * mx, cxy = sxy / n - mx * my, cyy = syy / n - my * my
            let half = (cxx - cyy) / 2
            let lambda = (cxx + cyy) / 2 + (half * half + cxy * cxy).squareRoot()
            var ax = cxy, ay = lambda - cxx
            if ax * ax + ay * ay < 1e-12 { ax = lambda - cyy; ay = cxy }
            if ax * ax + ay * ay < 1e-12 { ax = 0; ay = 1 }
            let norm = (ax * ax + ay * ay).squareRoot()
            ax /= norm; ay /= norm
            guard ay.magnitude >= 0.5 else { continue }
            fillSteps(0, ax: ax, ay: ay, count: need)
            // Mark this core and walk along the axis from each of its pixels.
            let mark = UInt8(2 + candidateCount)
            i = r
            while i >= 0 {
                let line = core + Int(coreRuns.row[i]) * width
                for x in Int(coreRuns.start[i])...Int(coreRuns.end[i]) { line[x] = mark }
                i = Int(coreRuns.next[i])
            }
            let c = candidateCount
            let right = rightFront + c * height, left = leftFront + c * height
            for y in 0..<height { right[y] = .nan; left[y] = .nan }
            var discs = 0.0, cx = 0.0, cy = 0.0
            var firstRow = Int.max, lastRow = Int.min
            // The spine: core pixels holding the disc whose core runs on
            // along an axis. Listed first (`spinePixels`), marked once all are found
            // (the walks read this core's mark).
            var spineCount = 0
            i = r
            while i >= 0 {
                let y = Int(coreRuns.row[i])
                for x in Int(coreRuns.start[i])...Int(coreRuns.end[i]) {
                    guard distance.squared[y * width + x] >= discSquared else { continue }
                    // Along the core's axis, or along a torso's own lean (the
                    // axis of a whole body leans less than its torso).
                    var long = false
                    for k in 0...TorsoFinder.spineDirections where !long {
                        long = coreRunsOn(x: x, y: y, steps: k, need: need, mark: mark, body: body)
                    }
                    guard long else { continue }
                    discs += 1; cx += Double(x) + 0.5; cy += Double(y) + 0.5
                    spinePixels[spineCount] = Int32(y * width + x)
                    spineCount += 1
                }
                i = Int(coreRuns.next[i])
            }
            for k in 0..<spineCount { core[Int(spinePixels[k])] = TorsoFinder.spine }
            // The torso: the union of the spine pixels' own largest discs (a
            // pixel's distance reaches the next pixel's centre; the edge lies
            // half a pixel short of it), as a left and a right front per row.
            for k in 0..<spineCount {
                let p = Int(spinePixels[k])
                guard !discInsideNeighbours(p) else { continue }
                let y = p / width, x = p - y * width
                let squared = distance.squared[p]
                let reach = discRows.reach(squared)
                let halfWidths = discRows.halfWidths(squared)
                firstRow = min(firstRow, max(0, y - reach)); lastRow = max(lastRow, min(height - 1, y + reach))
                // Rows dy above and below share the disc's half width.
                for dy in 0...reach {
                    let h = halfWidths[dy]
                    let r1 = Double(x) + 0.5 + h, l1 = Double(x) + 0.5 - h
                    // Selects, not branches (which way they go is data): a row
                    // without a disc yet (NaN) takes this one's.
                    @inline(__always) func widen(_ row: Int) {
                        let r0 = right[row], l0 = left[row]
                        right[row] = r0 >= r1 ? r0 : r1
                        left[row] = l0 <= l1 ? l0 : l1
                    }
                    if y - dy >= 0 { widen(y - dy) }
                    if dy > 0 && y + dy < height { widen(y + dy) }
                }
            }
            guard discs > 0 else { continue }
            candidates[c] = Torso(group: g, halfDepth: halfDepth, discRadius: discRadius, centroidX: cx / discs,
                                  centroidY: cy / discs, firstRow: firstRow, lastRow: lastRow, matched: false,
                                  discs: discs)
            candidateCount += 1
        }
    }

    /// A spine pixel's mark in `core` once its torso's spine is found.
    static let spine: UInt8 = 255

    /// True when the disc of spine pixel `p` lies inside the disc of a spine
    /// pixel beside it (left, right, above or below), and so adds nothing to
    /// the torso. Distances change by at most one from a pixel to the next,
    /// so that happens exactly where they are whole numbers one apart: the
    /// discs touch at one point, on the row or column through both (their
    /// fronts there are the same exact value), and elsewhere the inner one
    /// lies well inside. Most of a torso's spine is such steps across it;
    /// painting only the rest is most of the saving.
    @inline(__always)
    func discInsideNeighbours(_ p: Int) -> Bool {
        let root = discRows.wholeRoot(distance.squared[p])
        guard root >= 0 else { return false }
        // Spine pixels are two or more pixels inside the body's box: their
        // neighbours are in it.
        let outer = Int32((root + 1) * (root + 1))
        @inline(__always) func holds(_ q: Int) -> Bool {
            core[q] == TorsoFinder.spine && distance.squared[q] == outer
        }
        return holds(p - 1) || holds(p + 1) || holds(p - width) || holds(p + width)
    }

    /// Directions tried for a spine besides the core's axis: vertical and
    /// leaning 0.4 and 0.8 rad either way (unit vectors).
    static let spineDirections = 5
    static func spineDirection(_ k: Int) -> (x: Double, y: Double) {
        switch k {
        case 0: return (0, 1)
        case 1: return (0.389_418, 0.921_061)
        case 2: return (-0.389_418, 0.921_061)
        case 3: return (0.717_356, 0.696_707)
        default: return (-0.717_356, 0.696_707)
        }
    }

    /// Step table `table` (0: the core's axis, k: `spineDirection(k - 1)`):
    /// the first `count` steps along (ax, ay), step s being the pixel
    /// nearest to s x (ax, ay) from the start; the way back is its negation.
    func fillSteps(_ table: Int, ax: Double, ay: Double, count: Int) {
        let steps = axisSteps + 2 * axisStepsCapacity * table, offsets = axisOffsets + axisStepsCapacity * table
        for s in 0..<count {
            steps[2 * s] = Int32(PortableMath.nearest(Double(s + 1) * ax))
            steps[2 * s + 1] = Int32(PortableMath.nearest(Double(s + 1) * ay))
            offsets[s] = Int(steps[2 * s + 1]) * width + Int(steps[2 * s])
        }
    }

    /// True when the core (marked `mark`) runs on from (x, y) for `need`
    /// steps of table `steps`, forwards and backwards together.
    func coreRunsOn(x: Int, y: Int, steps table: Int, need: Int, mark: UInt8, body: Body) -> Bool {
        let steps = axisSteps + 2 * axisStepsCapacity * table
        guard need > 0 else { return true }
        // Steps grow along the line: the last is the farthest in x and in y.
        let reachX = Int(steps[2 * (need - 1)].magnitude), reachY = Int(steps[2 * (need - 1) + 1].magnitude)
        if x - reachX >= body.minX && x + reachX <= body.maxX && y - reachY >= body.minY && y + reachY <= body.maxY {
            // Every step both ways stays in the body's box: no bounds to check.
            let offsets = axisOffsets + axisStepsCapacity * table, p = y * width + x
            var found = 0
            while found < need && core[p + offsets[found]] == mark { found += 1 }
            guard found < need else { return true }
            var s = 0
            while found < need && core[p - offsets[s]] == mark { found += 1; s += 1 }
            return found >= need
        }
        var found = 0
        var sign = 1
        while true {
            var s = 0
            while found < need {
                let px = x + sign * Int(steps[2 * s]), py = y + sign * Int(steps[2 * s + 1])
                guard px >= body.minX && px <= body.maxX && py >= body.minY && py <= body.maxY,
                      core[py * width + px] == mark else { break }
                found += 1
                s += 1
            }
            if sign < 0 || found >= need { return found >= need }
            sign = -1
        }
    }
}

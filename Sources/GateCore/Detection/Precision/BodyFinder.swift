/// Step 3 of `PrecisionDetector`: bodies. The silhouette's regions of some
/// size, grouped when they overlap in x, kept when tall enough to be a
/// person, painted into the mask as 2 + g, and mended: hidden pixels that
/// continue a body's rows in its luma given back, short camouflaged gaps
/// and enclosed holes filled. Reads the silhouette (`mask` 1 and hidden);
/// gives the next stage `groups[0..<groupCount]` and the labelled mask.
final class BodyFinder: ReadsWorkPlanes {
    typealias Body = PrecisionDetector.Body

    let planes: WorkPlanes
    let settings: DetectorSettings
    let runs: PrecisionRuns
    let holes: PrecisionHoles
    static let maxPieces = 64
    static let maxGroups = 4
    /// The silhouette's sizeable regions (their roots in `runs`), and a
    /// union-find over them that groups those overlapping in x.
    let pieceRoot: UnsafeMutablePointer<Int32>
    let pieceParent: UnsafeMutablePointer<Int32>
    var pieceCount = 0
    /// The bodies this frame: body g is `groups[g]`, its pixels 2 + g in the mask.
    let groups: UnsafeMutablePointer<Body>
    private(set) var groupCount = 0

    init(planes: WorkPlanes, settings: DetectorSettings) {
        self.planes = planes
        self.settings = settings
        runs = PrecisionRuns(width: planes.width, height: planes.height)
        holes = PrecisionHoles(width: planes.width, height: planes.height)
        pieceRoot = .allocate(capacity: BodyFinder.maxPieces)
        pieceParent = .allocate(capacity: BodyFinder.maxPieces)
        groups = .allocate(capacity: BodyFinder.maxGroups)
        groups.initialize(repeating: Body(), count: BodyFinder.maxGroups)
    }

    deinit { pieceRoot.deallocate(); pieceParent.deallocate(); groups.deallocate() }

    /// Silhouette regions of some size, grouped when they overlap in x
    /// (a body falls apart where a limb matches the background), kept when
    /// the group is tall enough to be a person.
    func findBodies() {
        runs.label(mask, stride: width, value: 1, x0: 0, x1: width - 1, y0: 0, y1: height - 1, spans: silhouetteSpans)
        pieceCount = 0
        groupCount = 0
        let minPiece = max(6, pixelCount / 4000)
        for r in 0..<runs.count where runs.root(r) == r && Int(runs.area[r]) >= minPiece {
            guard pieceCount < BodyFinder.maxPieces else { break }
            pieceRoot[pieceCount] = Int32(r)
            pieceParent[pieceCount] = Int32(pieceCount)
            pieceCount += 1
        }
        guard pieceCount > 0 else { return }
        let margin = Int32(max(1, width / 64))
        for i in 0..<pieceCount {
            for j in (i + 1)..<max(i + 1, pieceCount) {
                let a = Int(pieceRoot[i]), b = Int(pieceRoot[j])
                if runs.maxX[a] + margin >= runs.minX[b] && runs.maxX[b] + margin >= runs.minX[a] {
                    let ra = pieceFind(i), rb = pieceFind(j)
                    if ra != rb { pieceParent[max(ra, rb)] = Int32(min(ra, rb)) }
                }
            }
        }
        // Half the person's height here: legs that match the track behind them
        // vanish; the torso check below asks for the whole person.
        let minHeight = 0.5 * settings.minBlobHeightFraction * Double(height)
        for i in 0..<pieceCount where pieceFind(i) == i {
            var body = Body(minX: Int.max, maxX: Int.min, minY: Int.max, maxY: Int.min, area: 0)
            for j in 0..<pieceCount where pieceFind(j) == i {
                let k = Int(pieceRoot[j])
                body.minX = min(body.minX, Int(runs.minX[k])); body.maxX = max(body.maxX, Int(runs.maxX[k]))
                body.minY = min(body.minY, Int(runs.minY[k])); body.maxY = max(body.maxY, Int(runs.maxY[k]))
                body.area += Int(runs.area[k])
            }
            guard Double(body.maxY - body.minY + 1) >= minHeight else { continue }
            if groupCount < BodyFinder.maxGroups {
                groups[groupCount] = body
                groupCount += 1
            } else {
                // Keep the largest bodies.
                var smallest = 0
                for g in 1..<groupCount where groups[g].area < groups[smallest].area { smallest = g }
                if groups[smallest].area < body.area { groups[smallest] = body }
            }
        }
        // Paint each body's pixels with its number (2 + g).
        for g in 0..<groupCount {
            var body = groups[g]
            // Its pieces are the sizeable regions inside its box (groups are apart in x).
            for r in 0..<runs.count {
                let k = runs.root(r)
                guard Int(runs.area[k]) >= minPiece, runs.minX[k] >= Int32(body.minX), runs.maxX[k] <= Int32(body.maxX),
                      runs.minY[k] >= Int32(body.minY), runs.maxY[k] <= Int32(body.maxY) else { continue }
                let line = mask + Int(runs.row[r]) * width
                for x in Int(runs.start[r])...Int(runs.end[r]) { line[x] = UInt8(2 + g) }
            }
            reclaimHidden(&body, value: UInt8(2 + g))
            groups[g] = body
            fillCamouflage(body, value: UInt8(2 + g))
            fillCamouflageVertically(body, value: UInt8(2 + g))
            fillHoles(body, value: UInt8(2 + g))
        }
    }

    /// Gives a body back the hidden pixels that continue its rows in its own
    /// luma, and grows its box over them.
    ///
    /// Why: a body of one colour (dressed, or seen, in one luma) that moves
    /// slowly leaves the pixels behind its front unchanged for longer than
    /// `hideStillNanos`: at 2 m/s a torso 0.3 m deep takes 150 ms to pass a
    /// pixel. The back of its torso would be hidden, the torso measured half
    /// as deep and its front taken from a limb. What is hidden for good
    /// reason (the scene where a runner stood while the background was
    /// learnt, an object put down) continues a body's rows in the body's own
    /// luma only by chance. Along rows only: bodies move across the view,
    /// so what they keep covering lies behind them in the same row. No
    /// farther than a quarter of the body's height (a torso is at most half
    /// that deep).
    func reclaimHidden(_ body: inout Body, value: UInt8) {
        let longest = max(2, (body.maxY - body.minY + 1) / 4)
        var minX = body.minX, maxX = body.maxX
        // Only rows where `segment` hid pixels have any to give back.
        for y in body.minY...body.maxY where silhouetteSpans[y].hidden {
            let line = mask + y * width, pixels = current + y * width
            let limit = 2 * Int(threshold[y])
            // Each run of the body's pixels, from its first pixel leftwards
            // and from its last rightwards (never from pixels just given back).
            var x = body.minX
            while x <= body.maxX {
                guard line[x] == value else { x += 1; continue }
                var end = x
                while end < body.maxX && line[end + 1] == value { end += 1 }
                minX = min(minX, reclaim(line, pixels, from: x, step: -1, longest: longest, limit: limit, value: value))
                let last = reclaim(line, pixels, from: end, step: 1, longest: longest, limit: limit, value: value)
                maxX = max(maxX, last)
                x = last + 1
            }
        }
        body.minX = minX
        body.maxX = maxX
    }

    /// Gives the body the hidden pixels beyond its pixel `from` (`step` -1:
    /// to the left) whose luma is within `limit` of its own, if what ends
    /// them is an edge: the frame's, a body's, or the scene in another luma.
    /// A hidden run that ends in the scene in its own luma is the scene
    /// itself (where a body stood: the pixel now and the scene beyond it are
    /// one surface, it is the background model that differs); one that
    /// runs on for more than `longest` pixels is no torso's back either.
    /// Returns the body's last pixel that way.
    @inline(__always)
    func reclaim(_ line: UnsafeMutablePointer<UInt8>, _ pixels: UnsafeMutablePointer<UInt8>, from: Int, step: Int,
                         longest: Int, limit: Int, value: UInt8) -> Int {
        let luma = Int(pixels[from])
        var k = from
        while k + step >= 0 && k + step < width && line[k + step] == PrecisionDetector.hidden {
            guard BodyFinder.agree(Int(pixels[k + step]), luma, within: limit),
                  (k + step - from) * step <= longest else { return from }
            k += step
        }
        guard k != from else { return from }
        let next = k + step
        if next >= 0 && next < width && line[next] == 0
            && BodyFinder.agree(Int(pixels[next]), luma, within: limit) { return from }
        var i = from
        while i != k { i += step; line[i] = value }
        return k
    }

    /// Two lumas that differ by no more than `limit`.
    @inline(__always)
    static func agree(_ a: Int, _ b: Int, within limit: Int) -> Bool {
        let difference = a - b
        return difference <= limit && difference >= -limit
    }

    /// Fills short gaps in a body's rows between pixels of the same luma
    /// where what lies between departs from the scene
    /// (`gapDepartsFromScene`): an arm across the torso that happens to
    /// match the background cuts a hole through the torso's silhouette
    /// (its anti-aliased edges may remain), not a gap between two parts.
    /// An arm ahead of the torso differs from the torso: it stays apart.
    func fillCamouflage(_ body: Body, value: UInt8) {
        let longest = max(2, (body.maxY - body.minY + 1) / 10)
        for y in body.minY...body.maxY {
            let start = y * width, line = mask + start
            let limit = 2 * Int(threshold[y])
            forEachGapStart(line, after: line - 1, from: body.minX + 1, through: body.maxX, value: value) { x in
                fillGap(at: x, start: start, stride: 1, range: body.minX...body.maxX, longest: longest,
                        value: value, limit: limit)
            }
        }
    }

    /// The same down each column: a camouflaged forearm across the torso
    /// cuts it in two, one above the other. Done row by row across the
    /// columns, which reads the mask in memory order: a fill changes only
    /// its own column, at and below the row where its gap starts, so each
    /// column sees the same checks in the same order as walking it alone.
    func fillCamouflageVertically(_ body: Body, value: UInt8) {
        let longest = max(2, (body.maxY - body.minY + 1) / 10)
        guard body.maxY > body.minY else { return }
        for y in (body.minY + 1)...body.maxY {
            let line = mask + y * width
            let limit = 2 * Int(threshold[y])
            forEachGapStart(line, after: line - width, from: body.minX, through: body.maxX, value: value) { x in
                fillGap(at: y, start: x, stride: width, range: body.minY...body.maxY, longest: longest,
                        value: value, limit: limit)
            }
        }
    }

    /// Calls `fill(x)`, x rising from `first` through `last`, where a gap
    /// starts: `here[x]` is not `value` and `previous[x]` (the pixel before
    /// it along the line being filled) is. Eight positions at a time where
    /// none starts one (most of a body); each check reads the mask as the
    /// fills before it left it.
    @inline(__always)
    func forEachGapStart(_ here: UnsafeMutablePointer<UInt8>, after previous: UnsafeMutablePointer<UInt8>,
                                 from first: Int, through last: Int, value: UInt8, _ fill: (Int) -> Void) {
        let v = SIMD8<UInt8>(repeating: value)
        var x = first
        while x <= last {
            if x + 8 <= last + 1 {
                let h = UnsafeRawPointer(here + x).loadUnaligned(as: SIMD8<UInt8>.self)
                let p = UnsafeRawPointer(previous + x).loadUnaligned(as: SIMD8<UInt8>.self)
                if !any((h .!= v) .& (p .== v)) {
                    x += 8
                    continue
                }
            }
            if here[x] != value && previous[x] == value { fill(x) }
            x += 1
        }
    }

    /// Along one line of the mask (positions `range`, `stride` apart from
    /// `start`: 1 along a row, `width` down a column), fills the gap that
    /// starts at position x after a body pixel, if it ends within `longest`
    /// at a body pixel of the same luma (within `limit`): from the body
    /// pixel nearest before the gap back, the first such end.
    ///
    /// The body pixels that may end it (up to `longest` past x) are listed
    /// once, with their luma, in `scratch`: each pixel before the gap is
    /// then matched against that short list, not against every position of
    /// the line again (most gaps have none: the scene between the legs,
    /// past the body's end). At most `longest` entries, less than a line:
    /// within `scratchCapacity`, and nothing else holds `scratch` while
    /// the masks are mended.
    @inline(__always)
    func fillGap(at x: Int, start: Int, stride: Int, range: ClosedRange<Int>, longest: Int, value: UInt8,
                         limit: Int) {
        var ends = 0
        var b = x + 1
        while b <= min(range.upperBound, x + longest) {
            let i = start + b * stride
            if mask[i] == value {
                scratch[ends] = Int32(truncatingIfNeeded: b << 8 | Int(current[i]))
                ends += 1
            }
            b += 1
        }
        guard ends > 0 else { return }
        var a = x - 1
        while a >= max(range.lowerBound, x - 1 - longest / 2) {
            if mask[start + a * stride] == value {
                let luma = Int(current[start + a * stride])
                let last = min(range.upperBound, a + longest + 1)
                for k in 0..<ends {
                    let end = Int(scratch[k] >> 8)
                    guard end <= last else { break }
                    if BodyFinder.agree(Int(scratch[k] & 255), luma, within: limit) {
                        guard gapDepartsFromScene(from: a + 1, to: end, start: start, stride: stride) else { return }
                        for gap in (a + 1)..<end { mask[start + gap * stride] = value }
                        return
                    }
                }
            }
            a -= 1
        }
    }

    /// True when what lies in the gap at positions `first..<end` of a line
    /// (as in `fillGap`) is on average farther from the gained background
    /// than a third of the threshold: something is there, not the scene.
    ///
    /// Why: two parts of one luma with the scene between them (a hand
    /// raised beside the head, an arm beside the thigh, the legs) leave a
    /// gap just like a camouflaged limb across the torso does, and filling
    /// it joins them into a mass as deep as a torso (a hand and head so
    /// joined: 50 ms early). Each of the gap's scene pixels (not in the
    /// silhouette) is within the threshold (four sigmas of the row's
    /// noise) of the background; but a limb or a stripe that matches the
    /// scene only that closely still departs from it, in one direction,
    /// pixel after pixel, while the scene itself departs by noise that
    /// averages out: over n pixels the mean is off by sigma / sqrt(n), and
    /// a third of the threshold is 1.3 sigmas. Scene pixels beside a
    /// silhouette pixel are left out where others remain: anti-aliased
    /// edges of the parts, they lean towards the parts' luma. A gap of
    /// silhouette pixels only (another luma, hidden) holds something.
    @inline(__always)
    func gapDepartsFromScene(from first: Int, to end: Int, start: Int, stride: Int) -> Bool {
        var departure = 0, thresholds = 0, edgeDeparture = 0, edgeThresholds = 0
        // Along a row every position is in that row; down a column, position p is row p.
        let lineRow = stride == 1 ? start / width : -1
        for p in first..<end {
            let i = start + p * stride
            guard mask[i] == 0 else { continue }
            let row = stride == 1 ? lineRow : p
            // background is luma x 65536, gain x 4096.
            let d = Int(current[i]) - ((Int(background[i]) * Int(gain[row]) + (1 << 27)) >> 28)
            // The gap's ends are body pixels: positions first - 1 and end are in the line.
            if mask[i - stride] != 0 || mask[i + stride] != 0 {
                edgeDeparture += d; edgeThresholds += Int(threshold[row])
            } else {
                departure += d; thresholds += Int(threshold[row])
            }
        }
        if thresholds == 0 { departure = edgeDeparture; thresholds = edgeThresholds }
        return 3 * abs(departure) >= thresholds
    }

    /// Fills the holes of a body: background enclosed by it. A hole is
    /// camouflage (a limb across the torso matching the background), not
    /// space the camera sees through: little on a runner encloses
    /// background. Except a raised arm whose hand reaches the head: the
    /// scene between forearm, upper arm and head is then a hole as deep as
    /// a torso, and filled it became one, its front the forearm's (a second
    /// renderer's runner at 240 fps, 16 px ahead of the torso for 17 frames:
    /// 52 ms early). So a hole of at least a twelfth of the body's height
    /// both ways (wider than a limb across the torso) that ends in the
    /// upper third of the body (by the head, not across the chest or the
    /// hips) is filled only where it departs from the scene as a gap must
    /// (`PrecisionHoles.fill`, `gapDepartsFromScene`). Lower, the test
    /// itself is wrong where the background still holds a runner who stood
    /// there while it was learnt: the runner leaving matches that ghost,
    /// and left open, the hole across the torso timed a standing start in
    /// view 83 ms late (precision mode, GateSim's corpus at 240 fps).
    func fillHoles(_ body: Body, value: UInt8) {
        holes.fill(mask, stride: width, value: value, x0: body.minX, x1: body.maxX, y0: body.minY, y1: body.maxY) { i, y in
            // background is luma x 65536, gain x 4096.
            (departure: Int(current[i]) - ((Int(background[i]) * Int(gain[y]) + (1 << 27)) >> 28),
             threshold: Int(threshold[y]))
        }
    }

    func pieceFind(_ i: Int) -> Int {
        var r = i
        while Int(pieceParent[r]) != r { r = Int(pieceParent[r]) }
        return r
    }
}

extension PrecisionDetector {
    /// A body's box in the work image and its silhouette's area.
    struct Body {
        var minX = 0, maxX = 0, minY = 0, maxY = 0
        var area = 0
    }
}

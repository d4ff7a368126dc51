/// Step 6 of `PrecisionDetector`: a torso's edge rows. For one side of a
/// torso, from its top down 3.25 R (the shoulder over the chest, never the
/// hips), per row where the silhouette's edge is the torso's (it ends
/// where the opened torso does), the edge to a fraction of a pixel from
/// the luma between torso and background (`subPixelEdge`: an area sum, so
/// motion blur and anti-aliasing cancel), brought to one instant with the
/// rolling shutter; then only the rows in the torso's colour (a limb or
/// the head crossing its front is another). Gives the front stage the
/// rows (`rowAligned`, `rowEdge`, `rowBackAligned`) and `leanTolerance`.
final class TorsoEdges: ReadsWorkPlanes {
    typealias Torso = PrecisionDetector.Torso

    let planes: WorkPlanes
    let settings: DetectorSettings
    let bodies: BodyFinder
    let torsos: TorsoFinder
    /// The torso stage's opened fronts (its buffers, held here too).
    let rightFront: UnsafeMutablePointer<Double>
    let leftFront: UnsafeMutablePointer<Double>
    /// Per row of the torso being measured: its front edge (NaN: no clean
    /// edge; infinite: a limb runs on from the torso's front), that edge
    /// brought to one instant (NaN also where the edge is not the torso's
    /// colour: a limb), and the torso's luma behind it.
    let rowEdge: UnsafeMutablePointer<Double>
    let rowAligned: UnsafeMutablePointer<Double>
    let rowLuma: UnsafeMutablePointer<Double>
    /// The torso's luma behind its back edge per row (NaN: no clean edge).
    let rowBackLuma: UnsafeMutablePointer<Double>
    /// Its back edge, brought to one instant as `rowAligned` is, in the
    /// same sense (forward positive; NaN: no clean edge, or not measured).
    let rowBackAligned: UnsafeMutablePointer<Double>
    /// How far (RMS, pixels) the fronts of a straight lean may lie from
    /// their line in the rows last read (`TorsoFront.leanLine`).
    var leanTolerance = TorsoEdges.leanToleranceFloor

    /// The rows `read` filled, and how to bring a row to their instant.
    struct Rows {
        /// 1 when the front is on the right (moving right), -1 on the left.
        var forward: Int
        var firstRow: Int
        var lastRow: Int
        /// The instant the aligned rows are brought to: the middle row's.
        var referenceNanos: Int64
        /// The front's speed along `forward`, work pixels a second.
        var speed: Double
    }

    init(planes: WorkPlanes, settings: DetectorSettings, bodies: BodyFinder, torsos: TorsoFinder) {
        self.planes = planes
        self.settings = settings
        self.bodies = bodies
        self.torsos = torsos
        rightFront = torsos.rightFront
        leftFront = torsos.leftFront
        rowEdge = .allocate(capacity: planes.height)
        rowAligned = .allocate(capacity: planes.height)
        rowLuma = .allocate(capacity: planes.height)
        rowBackLuma = .allocate(capacity: planes.height)
        rowBackAligned = .allocate(capacity: planes.height)
    }

    deinit {
        rowEdge.deallocate(); rowAligned.deallocate(); rowLuma.deallocate(); rowBackLuma.deallocate()
        rowBackAligned.deallocate()
    }

    /// The edge rows of candidate `c`'s side facing `direction` this frame,
    /// those not in the torso's colour left out; nil when fewer than three.
    /// `neck`: the luma of the neck above the torso, if seen (`neckLuma`).
    func read(_ torso: Torso, candidate c: Int, direction: CrossingDirection, frame: LumaFrame,
              velocity: Double, neck: Double?) -> Rows? {
        let forward = direction == .leftToRight ? 1 : -1
        let opened = (forward > 0 ? rightFront : leftFront) + c * height
        let value = UInt8(2 + torso.group)
        // From the top of the torso down over the chest (3.25 R, about half
        // a metre): the most forward point of a torso is its shoulder or its
        // flat front, never lower. Lower, towards the hips, a leaning
        // torso's front falls back by the lean; when an arm hides the chest,
        // the flat rows found there are a hand's or the lower torso's, up to
        // most of a torso's depth behind the front (with rows down to the
        // hips, 5 R, leaning runners of a second renderer were timed up to
        // 39 ms late; 3.4 ms with these rows). With 3 R, more of those
        // runners were missed; with 3.5 R, two were 11 and 33 ms late.
        let firstRow = torso.firstRow
        let lastRow = min(torso.lastRow, torso.firstRow + Int(3.25 * torso.halfDepth))
        guard firstRow <= lastRow else { return nil }
        let referenceNanos = rowNanos((firstRow + lastRow) / 2, frame: frame)
        let speed = Double(forward) * velocity
        let blur = velocity.magnitude * Double(settings.exposureNanos) / 1e9
        var edgeNoise = 0.0, edges = 0.0
        for y in firstRow...lastRow {
            rowAligned[y] = .nan
            rowEdge[y] = .nan
            let o = opened[y]
            guard !o.isNaN, let run = silhouetteRun(row: y, opened: o, radius: torso.discRadius, forward: forward,
                                                    value: value) else { continue }
            if limbJoins(last: run.last, opened: o, radius: torso.discRadius, forward: forward) {
                // Infinite: a limb runs on from the torso's front here (`frontUnderALimb`).
                rowEdge[y] = .infinity
                continue
            }
            guard let edge = subPixelEdge(row: y, run: run, forward: forward, value: value, blur: blur) else { continue }
            rowEdge[y] = edge.position
            rowLuma[y] = edge.torsoLuma
            edgeNoise += TorsoEdges.edgeNoise(threshold: Double(threshold[y]), blur: blur,
                                                     contrast: edge.torsoLuma - edge.sceneLuma)
            edges += 1
            let lag = Double(rowNanos(y, frame: frame) - referenceNanos) / 1e9
            rowAligned[y] = Double(forward) * edge.position - speed * lag
        }
        // Rows whose edge is not the torso's colour are a limb's (an arm
        // crossing the torso's front) or the head's. The torso's colour: the
        // one most rows of the upper part share (the arm hangs from the
        // shoulder over the lower part; the head covers a few top rows),
        // counting the rows of its back edge as well: the near arm lies
        // across the front or the back, seldom both, and a slim torso's
        // front may be the arm's over most of its rows.
        var n = 0
        for y in firstRow...lastRow where !rowAligned[y].isNaN { n += 1 }
        guard n >= 3 else { return nil }
        leanTolerance = max(TorsoEdges.leanToleranceFloor, 1.5 * edgeNoise / edges)
        let upper = max(3, (n * 3 + 4) / 5)
        var upperEnd = firstRow, seen = 0
        for y in firstRow...lastRow where !rowAligned[y].isNaN && seen < upper { seen += 1; upperEnd = y }
        let back = (forward > 0 ? leftFront : rightFront) + c * height
        for y in firstRow...lastRow { rowBackAligned[y] = .nan }
        for y in firstRow...upperEnd {
            rowBackLuma[y] = .nan
            let o = back[y]
            // Unlike the scene beside it: the scene where a runner stood
            // when it was learnt, still attached to their back, is not.
            guard !o.isNaN, let run = silhouetteRun(row: y, opened: o, radius: torso.discRadius, forward: -forward,
                                                    value: value),
                  !limbJoins(last: run.last, opened: o, radius: torso.discRadius, forward: -forward),
                  let edge = subPixelEdge(row: y, run: run, forward: -forward, value: value, blur: blur,
                                          thirdColours: false),
                  (edge.sceneLuma - edge.torsoLuma).magnitude > 2 * Double(threshold[y]) else { continue }
            rowBackLuma[y] = edge.torsoLuma
            rowBackAligned[y] = Double(forward) * edge.position
                - speed * Double(rowNanos(y, frame: frame) - referenceNanos) / 1e9
        }
        // The rows down to `end` whose front (and, with `back`, whose back)
        // is of this luma.
        @inline(__always) func support(_ luma: Double, through end: Int, back: Bool) -> Int {
            var count = 0
            for b in firstRow...end {
                let tolerance = 2 * Double(threshold[b])
                if !rowAligned[b].isNaN && (rowLuma[b] - luma).magnitude <= tolerance { count += 1 }
                if back && !rowBackLuma[b].isNaN && (rowBackLuma[b] - luma).magnitude <= tolerance { count += 1 }
            }
            return count
        }
        var bestCount = 0
        var torsoLuma = 0.0
        for a in firstRow...upperEnd {
            if !rowAligned[a].isNaN {
                let count = support(rowLuma[a], through: upperEnd, back: true)
                if count > bestCount { bestCount = count; torsoLuma = rowLuma[a] }
            }
            if !rowBackLuma[a].isNaN {
                let count = support(rowBackLuma[a], through: upperEnd, back: true)
                if count > bestCount { bestCount = count; torsoLuma = rowBackLuma[a] }
            }
        }
        // Bare skin can outvote a shirt: the neck's rows at the top of the
        // torso are skin on both edges, and a bare arm lying along the back
        // over the torso's length adds as many rows as the shirt's front
        // has (second renderer: no front at all for the six frames at the
        // line at 30 fps, or the front taken from the neck). So when the
        // colour chosen is the neck's and the front rows mostly share
        // another, that other is the torso's: an arm of the neck's colour
        // across the front is the rows left out (a ramp, or not flat). A
        // bare torso, or a shirt of the skin's colour, has front rows of the
        // neck's colour, and nothing changes.
        if let neck, (torsoLuma - neck).magnitude <= 2 * Double(threshold[firstRow]) {
            var frontCount = 0, frontLuma = 0.0
            for a in firstRow...lastRow where !rowAligned[a].isNaN {
                let count = support(rowLuma[a], through: lastRow, back: false)
                if count > frontCount { frontCount = count; frontLuma = rowLuma[a] }
            }
            if frontCount >= 3 && (frontLuma - neck).magnitude > 2 * Double(threshold[firstRow]) { torsoLuma = frontLuma }
        }
        for y in firstRow...lastRow where !rowAligned[y].isNaN {
            if (rowLuma[y] - torsoLuma).magnitude > 2 * Double(threshold[y]) { rowAligned[y] = .nan }
        }
        return Rows(forward: forward, firstRow: firstRow, lastRow: lastRow, referenceNanos: referenceNanos, speed: speed)
    }

    /// The least `leanTolerance`, pixels: the outline's own roughness (a
    /// pixel grid, anti-aliasing), what a sharp edge in little noise shows.
    static let leanToleranceFloor = 0.1

    /// The noise (one sigma, pixels) of a front read by `subPixelEdge`: each
    /// pixel of the blurred ramp (`blur` pixels long, and the two at its
    /// ends) adds its luma's noise over the `contrast` between torso and
    /// scene; `threshold` is four sigmas of the row's noise.
    ///
    /// Why `leanLine` allows 1.5 times this: a straight lean read in noise
    /// lies off its line by about this, RMS, and its fit over ten rows or
    /// so passes 1.5 times it all but always. A fixed 0.1 px turned away
    /// blurred, low-contrast fronts: a second renderer's box at 120 fps,
    /// 7.4 ms exposures (3.5 px of blur) and 52 luma of contrast, had fronts
    /// 0.11 px off their line (RMS) where this noise is 0.075 px; no ramp
    /// was followed up and fronts after the line were 2-4 px late, the
    /// crossing 2.4 ms late in precision mode (0.1 ms with this). Clean
    /// edges keep 0.1 px. On the second renderer's seven plain sets (762
    /// crossings, both modes): within 5 ms 759 -> 760, p99 3.8 -> 3.2 ms;
    /// p95 at 60 fps 1.34 -> 1.14 ms (7 -> 5 over its target), at 120 fps
    /// 1.22 -> 1.13 (13 -> 11 over), at 240 fps 0.49 either way; 9
    /// crossings moved by over 0.3 ms for the better (3.95 -> 0.03 ms, 5.8
    /// -> 0.2, 2.4 -> 0.1), 8 for the worse, by up to 1.3 ms and all
    /// within 1.5 ms. 1.25 times did about as well (120 fps 12 over), 2
    /// times as 1.5 did.
    static func edgeNoise(threshold: Double, blur: Double, contrast: Double) -> Double {
        threshold / 4 * (blur + 2).squareRoot() / max(16, contrast.magnitude)
    }

    /// How many pixels at each side of the neck `neckLuma` leaves out.
    static let neckInset = 2

    /// The neck's luma: the median of the body's pixels in the rows just
    /// above the torso (half a half depth), over the columns of its top
    /// half depth, leaving out the two at each side of the neck (fewer
    /// than four left: all of them); nil when the body has no rows above
    /// the torso there.
    ///
    /// Why the sides go: the neck is thin (about 10 cm), and its side
    /// pixels blend it with the scene, the more so when it is blurred. A
    /// second renderer's runner at 120 fps (skin 200, shirt 135, scene 97,
    /// 7.5 ms exposures): with them the neck's median was 171, too far from
    /// the skin (199) chosen as the torso's colour for `measureFront`'s
    /// bare-skin rule to apply, and the front was read off an arm: 5.6 ms
    /// late in photo-finish mode, 2.6 in precision (0.5 and 0.7 ms late
    /// without them). On six sets 23 crossings moved by over 0.3 ms for
    /// the better, 4 for the worse (the worst: 0.5 ms early -> 3.4 ms
    /// late); three pixels a side did about as well.
    func neckLuma(_ torso: Torso, candidate c: Int, value: UInt8) -> Double? {
        let rows = max(2, Int(0.5 * torso.halfDepth))
        let top = torso.firstRow
        guard top - rows >= bodies.groups[torso.group].minY else { return nil }
        let left = leftFront + c * height, right = rightFront + c * height
        var minX = Double.infinity, maxX = -Double.infinity
        for y in top...min(torso.lastRow, top + Int(torso.halfDepth)) where !left[y].isNaN && !right[y].isNaN {
            minX = min(minX, left[y]); maxX = max(maxX, right[y])
        }
        guard minX < maxX else { return nil }
        let x0 = max(0, Int(minX.rounded(.down))), x1 = min(width - 1, Int(maxX.rounded(.up)))
        var n = gatherBody((top - rows)..<top, columns: x0...x1, value: value, inset: TorsoEdges.neckInset)
        if n < 4 { n = gatherBody((top - rows)..<top, columns: x0...x1, value: value, inset: 0) }
        guard n >= 4 else { return nil }
        return Double(PrecisionDetector.select(scratch, count: n, rank: n / 2))
    }

    /// Copies to `scratch` the luma of the pixels of body `value` in `rows`
    /// and `columns` whose `inset` neighbours on each side in the row are
    /// the body's too; returns how many.
    func gatherBody(_ rows: Range<Int>, columns: ClosedRange<Int>, value: UInt8, inset: Int) -> Int {
        let first = max(columns.lowerBound, inset), last = min(columns.upperBound, width - 1 - inset)
        guard first <= last else { return 0 }
        var n = 0
        for y in rows {
            let line = mask + y * width, pixels = current + y * width
            pixel: for x in first...last where line[x] == value && n < scratchCapacity {
                for k in stride(from: 1, through: inset, by: 1) where line[x - k] != value || line[x + k] != value {
                    continue pixel
                }
                scratch[n] = Int32(pixels[x]); n += 1
            }
        }
        return n
    }

    /// The torso's silhouette in row `y` going `forward`: from `deep`, a
    /// pixel `radius` inside the opened front, to its `last` pixel; nil when
    /// the deep pixel is not the torso's or the silhouette reaches the
    /// frame's side.
    func silhouetteRun(row y: Int, opened o: Double, radius: Double, forward: Int,
                               value: UInt8) -> (deep: Int, last: Int)? {
        let line = mask + y * width
        let deep = forward > 0 ? Int((o - radius).rounded(.down)) : Int((o + radius).rounded(.down))
        guard deep >= 1 && deep < width - 1, line[deep] == value else { return nil }
        var last = deep
        while last + forward >= 0 && last + forward < width && line[last + forward] == value { last += forward }
        guard last + forward >= 1 && last + forward < width - 1 else { return nil }
        return (deep, last)
    }

    /// True when the silhouette (ending at `last`) runs on past the opened
    /// torso's front: a limb joins the torso in that row.
    func limbJoins(last: Int, opened o: Double, radius: Double, forward: Int) -> Bool {
        let silhouetteEdge = forward > 0 ? Double(last + 1) : Double(last)
        return (silhouetteEdge - o) * Double(forward) > max(1.5, 0.25 * radius / settings.torsoCoreFraction)
    }

    /// The torso's edge in row `y` (its silhouette `run`, no limb joining
    /// it: `limbJoins`) to a fraction of a pixel, or nil when the torso is
    /// too close to the background's luma.
    /// From a pixel of the torso just behind its (motion-blurred) edge, each
    /// pixel's coverage is its luma's place between background and torso;
    /// their sum is the edge. Also the torso's luma, and the luma of the
    /// first pixel past the silhouette (the scene beside the edge).
    /// `thirdColours`: the edge may be read against a colour between torso
    /// and scene (`thirdColour`); only where its position is used.
    func subPixelEdge(row y: Int, run: (deep: Int, last: Int), forward: Int, value: UInt8,
                              blur: Double, thirdColours: Bool = true)
        -> (position: Double, torsoLuma: Double, sceneLuma: Double)? {
        let line = mask + y * width
        let (deep, last) = run
        // The torso's own luma: the first pixel behind the (motion-blurred)
        // edge that the next one in agrees with; none before the deep pixel:
        // an arm across the torso, a seam, no clean edge, no estimate.
        let pixels = current + y * width
        let model = background + y * width
        let g = Double(gain[y]) / 268_435_456
        let tolerance = Double(threshold[y])
        var anchor = last - forward * max(1, Int(blur.rounded(.down)))
        while (anchor - deep) * forward > 0
                && (Double(pixels[anchor - forward]) - Double(pixels[anchor])).magnitude > tolerance {
            anchor -= forward
        }
        guard (anchor - deep) * forward > 0 else { return nil }
        let torso = Double(pixels[anchor])
        let minimumContrast = max(16, 3 * tolerance)
        // A torso pixel unlike its own background (a filled hole is not torso).
        guard (torso - Double(model[anchor]) * g).magnitude >= minimumContrast else { return nil }
        var sum = 0.0
        var x = anchor + forward
        // Through the silhouette's end and one pixel past it (the faint end
        // of a blurred edge), if that one is background.
        let stop = last + forward
        while x >= 0 && x < width {
            let beyond = (x - last) * forward > 0
            if beyond && line[x] != 0 && line[x] != PrecisionDetector.hidden { break }
            let b = Double(model[x]) * g
            let contrast = torso - b
            guard contrast.magnitude >= minimumContrast else {
                if beyond { break }
                return nil
            }
            sum += min(1, max(0, (Double(pixels[x]) - b) / contrast))
            if x == stop { break }
            x += forward
        }
        // Where another colour lies between the torso and the scene, the
        // edge is the torso's against it: each pixel's coverage is its
        // place between that colour and the torso, up to it.
        if thirdColours,
           let third = thirdColour(row: y, anchor: anchor, last: last, forward: forward, torso: torso, blur: blur) {
            var covered = 0.0
            var x = anchor + forward
            while x != third.at {
                covered += min(1, max(0, (Double(pixels[x]) - third.luma) / (torso - third.luma)))
                x += forward
            }
            if sum - covered <= TorsoEdges.thirdColourMostPixels { sum = covered }
        }
        return (forward > 0 ? Double(anchor) + 1 + sum : Double(anchor) - sum, torso, Double(pixels[last + forward]))
    }

    /// The most a third colour may move an edge back (pixels): a sliver
    /// of a limb short of joining the torso (`limbJoins`: a quarter of a
    /// half depth past the opened front, 2-3 pixels) in a luma between the
    /// torso's and the scene's moves it by about a pixel. More is no
    /// sliver: a striped shirt's band meeting the edge is the torso too,
    /// and its edge is read as before (the second renderer's striped
    /// runner at 60 fps had fronts 4.7 px behind with no bound).
    static let thirdColourMostPixels = 1.5

    /// The first of two neighbouring pixels of the silhouette past the
    /// torso's `anchor` pixel, up to its `last`, whose luma lies between
    /// the torso's and the scene's, clearly unlike both and the same in
    /// both pixels, and that luma; nil when there are none.
    ///
    /// Why: the far arm hangs behind the torso, and as it swings forward a
    /// sliver of it shows past the torso's front, too little to be a limb
    /// joining the torso. Each of its pixels lies between torso and scene
    /// in luma and was taken for one the torso covers in part: the edge
    /// up to a pixel ahead (a second renderer's leaning runner at 240 fps,
    /// bare arms between a dark shirt and the scene: fronts 0.8 px ahead
    /// at the line, 3.3 ms early; 0.3-0.5 ms with this). A blurred edge is
    /// a ramp whose neighbouring pixels differ by about the contrast over
    /// the blur, so two alike are no ramp unless the blur is long (then no
    /// test is made). Unlike the scene by as much as unlike the torso: a
    /// pixel blending the torso, a leg behind it and a post of the scene
    /// (`aSlimRunnerJoinedByTheFeetToADeeperOneIsTimed`) was taken for the
    /// third colour within two noise thresholds of the post, and the slim
    /// runner's last front went.
    ///
    /// Measured on the second renderer's eight sets, both modes: fronts
    /// within 60 ms of the line more than 0.5 px ahead of the truth 8.5%
    /// -> 8.0% (photo-finish), 8.2% -> 7.6% (precision); on the seven plain
    /// sets (762 crossings) within 1 ms 693 -> 697, over the target at
    /// 120 fps 24 -> 21 and at 240 fps 17 -> 15.
    func thirdColour(row y: Int, anchor: Int, last: Int, forward: Int, torso: Double,
                             blur: Double) -> (luma: Double, at: Int)? {
        let pixels = current + y * width
        let model = background + y * width
        let g = Double(gain[y]) / 268_435_456
        let tolerance = Double(threshold[y])
        // Unlike: beyond twice the noise threshold, and 16 luma at least.
        let unlike = max(2 * tolerance, 16)
        var k = anchor + forward
        while (last - k) * forward > 0 {
            let p0 = Double(pixels[k]), p1 = Double(pixels[k + forward])
            let b0 = Double(model[k]) * g, b1 = Double(model[k + forward]) * g
            // A ramp's steps here would be four noise thresholds or more.
            if (torso - b0).magnitude / max(1, blur) >= 4 * tolerance, (p0 - p1).magnitude <= 2.5 * tolerance,
               (p0 - torso).magnitude > unlike, (p1 - torso).magnitude > unlike,
               (p0 - b0).magnitude > unlike, (p1 - b1).magnitude > unlike,
               (p0 - torso) * (p0 - b0) < 0 {
                return (p0, k)
            }
            k += forward
        }
        return nil
    }
}

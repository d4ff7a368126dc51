/// Step 5 of `PrecisionDetector`: torsos. Per body (or person in it): the
/// core (where the body holds a disc of 0.65 R), its pixels holding a disc
/// of `torsoCoreFraction` x R with a run of `torsoSpineHalfDepths` x R
/// through the core (the spine, `TorsoSpine.swift`), and the union of those
/// pixels' largest discs: the torso opened, limbs and head cut off, as a
/// left and a right front per row. A head above a larger piece is dropped;
/// pieces of one body a few R apart are one torso. Gives the next stages
/// `candidates[0..<candidateCount]` and their `rightFront` / `leftFront`.
final class TorsoFinder: ReadsWorkPlanes {
    typealias Body = PrecisionDetector.Body
    typealias Torso = PrecisionDetector.Torso

    let planes: WorkPlanes
    let settings: DetectorSettings
    let bodies: BodyFinder
    let depth: TorsoDepth
    /// The depth stage's distances and people (its own, held here too).
    let distance: PrecisionDistance
    let people: UnsafeMutablePointer<Body>
    /// Core pixels (1), those of candidate c marked 2 + c.
    let core: UnsafeMutablePointer<UInt8>
    let coreRuns: PrecisionRuns
    let discRows: DiscRows
    /// The spine pixels of a core, one slot per pixel.
    let spinePixels: UnsafeMutablePointer<Int32>
    /// The steps of the walks along a core: per direction, dx and dy of each step.
    let axisSteps: UnsafeMutablePointer<Int32>
    /// The same steps as offsets in the image (dy x width + dx).
    let axisOffsets: UnsafeMutablePointer<Int>
    let axisStepsCapacity: Int
    static let maxCandidates = 6
    let candidates: UnsafeMutablePointer<Torso>
    var candidateCount = 0
    /// Per candidate and row: the torso's opened front, right (ahead when
    /// moving right) and left; NaN where the torso has no disc in the row.
    let rightFront: UnsafeMutablePointer<Double>
    let leftFront: UnsafeMutablePointer<Double>
    /// This frame's instant (`dropHead` remembers when a head stood apart).
    var frameNanos = Int64.min
    /// When a head was last seen apart from its torso (`dropHead`): the
    /// silhouette's top row, the rows from it to the torso's, and the time.
    var headTopRow = 0
    var headGapRows = 0
    var headGapNanos = Int64.min / 2
    static let headGapMemoryNanos: Int64 = 500_000_000
    /// How recent that frame must be for a short piece at the top to be
    /// taken for the head joined to the shoulder (`dropHead`).
    static let headShoulderMemoryNanos: Int64 = 50_000_000

    init(planes: WorkPlanes, settings: DetectorSettings, bodies: BodyFinder, depth: TorsoDepth) {
        self.planes = planes
        self.settings = settings
        self.bodies = bodies
        self.depth = depth
        distance = depth.distance
        people = depth.people
        let (width, height) = (planes.width, planes.height)
        core = .allocate(capacity: planes.pixelCount)
        core.initialize(repeating: 0, count: planes.pixelCount)
        coreRuns = PrecisionRuns(width: width, height: height)
        discRows = DiscRows(width: width, height: height)
        spinePixels = .allocate(capacity: planes.pixelCount)
        // A walk needs at most a spine length of steps: 1.2 half depths, and
        // a half depth is at most a quarter of the height.
        axisStepsCapacity = height + 1
        axisSteps = .allocate(capacity: 2 * axisStepsCapacity * (TorsoFinder.spineDirections + 1))
        axisOffsets = .allocate(capacity: axisStepsCapacity * (TorsoFinder.spineDirections + 1))
        candidates = .allocate(capacity: TorsoFinder.maxCandidates)
        candidates.initialize(repeating: Torso(), count: TorsoFinder.maxCandidates)
        rightFront = .allocate(capacity: TorsoFinder.maxCandidates * height)
        leftFront = .allocate(capacity: TorsoFinder.maxCandidates * height)
    }

    deinit {
        core.deallocate(); spinePixels.deallocate(); axisSteps.deallocate(); axisOffsets.deallocate()
        candidates.deallocate(); rightFront.deallocate(); leftFront.deallocate()
    }

    /// Forgets the head last seen apart (the scene was reset).
    func reset() { headGapNanos = Int64.min / 2 }

    /// Per body: distance transform, torso half depth, core, spine, and the
    /// opened torso's left and right front per row.
    func findTorsos(frameNanos: Int64) {
        self.frameNanos = frameNanos
        candidateCount = 0
        for g in 0..<bodies.groupCount {
            let body = bodies.groups[g]
            let value = UInt8(2 + g)
            // Exact distances in the rows the half depth is measured on; in
            // the rest, where a core can be, once the half depth tells where.
            distance.compute(mask, value: value, x0: body.minX, x1: body.maxX, y0: body.minY, y1: body.maxY,
                             exactThrough: TorsoDepth.upperRow(of: body))
            guard let halfDepth = depth.torsoHalfDepth(body, countColumns: true) else { continue }
            let count = depth.splitPeople(body)
            if count < 2 {
                distance.finish(below: min(coreSquared(halfDepth), discSquared(halfDepth)))
                findTorsos(in: g, box: body, halfDepth: halfDepth)
                continue
            }
            for k in 0..<count {
                guard let own = depth.torsoHalfDepth(people[k], countColumns: false) else { continue }
                findTorsos(in: g, box: people[k], halfDepth: own)
            }
        }
    }

    /// The least squared distance of a core pixel (`findCores`: a disc of 0.65 R).
    func coreSquared(_ halfDepth: Double) -> Int32 {
        let coreRadius = 0.65 * halfDepth
        return Int32((coreRadius * coreRadius).rounded(.up))
    }

    /// The least squared distance of a spine pixel's disc (`torsoCoreFraction` x R).
    func discSquared(_ halfDepth: Double) -> Int32 {
        let discRadius = settings.torsoCoreFraction * halfDepth
        return Int32((discRadius * discRadius).rounded(.up))
    }

    /// The torsos of body `g` in `box` (the whole body's, or one person's).
    func findTorsos(in g: Int, box: Body, halfDepth: Double) {
        let bodyHeight = Double(box.maxY - box.minY + 1)
        // A person: the torso is deep enough to be seen and between a
        // thirtieth and a quarter of the silhouette's height (not a line of
        // pixels from a shifted edge, not a blob); and a person is about
        // 12 torso half depths tall, however much of the silhouette is
        // seen: a far figure is too small.
        guard halfDepth >= max(2.0, 0.012 * Double(height)), halfDepth * 30 >= bodyHeight,
              halfDepth * 4 <= bodyHeight,
              max(bodyHeight, 12 * halfDepth) >= settings.minBlobHeightFraction * Double(height) else { return }
        let first = candidateCount
        findCores(in: g, box: box, halfDepth: halfDepth)
        dropHead(from: first, top: box.minY, halfDepth: halfDepth)
        mergePieces(from: first, halfDepth: halfDepth)
    }

    /// A leaning torso's core often breaks in two (the shoulder end and the
    /// hip end, where an arm or the thighs join); the pieces of one body
    /// within three half depths of each other in x are one torso.
    func mergePieces(from first: Int, halfDepth: Double) {
        var i = first
        while i < candidateCount {
            var j = i + 1
            while j < candidateCount {
                guard (candidates[j].centroidX - candidates[i].centroidX).magnitude < 3 * halfDepth else { j += 1; continue }
                let a = candidates[i], b = candidates[j]
                let right = rightFront + i * height, left = leftFront + i * height
                let rightB = rightFront + j * height, leftB = leftFront + j * height
                for y in b.firstRow...b.lastRow {
                    if !(right[y] >= rightB[y]) && !rightB[y].isNaN { right[y] = rightB[y] }
                    if !(left[y] <= leftB[y]) && !leftB[y].isNaN { left[y] = leftB[y] }
                }
                let discs = a.discs + b.discs
                candidates[i].centroidX = (a.centroidX * a.discs + b.centroidX * b.discs) / discs
                candidates[i].centroidY = (a.centroidY * a.discs + b.centroidY * b.discs) / discs
                candidates[i].discs = discs
                candidates[i].firstRow = min(a.firstRow, b.firstRow)
                candidates[i].lastRow = max(a.lastRow, b.lastRow)
                removeCandidate(j)
            }
            i += 1
        }
    }

    /// Side on, a head (~0.2 m) is about as deep as a slim torso (chests
    /// are 0.2-0.25 m deep), so its core can hold the torso's discs; the
    /// neck between them is too thin to join it to the torso's core. A
    /// piece that begins within R of the silhouette's top and ends above
    /// (at most R / 2 into) a larger piece of the same body is that head:
    /// no torso, and ahead of the torso's front when the runner leans.
    /// (Once merged as the torso's shoulder end: 17-45 ms early.)
    ///
    /// The neck is not always thin enough: in some frames the head's core
    /// joins the torso's. So where the torso began below the top of the
    /// silhouette, in a frame whose head stood apart, is remembered for
    /// `headGapMemoryNanos`; in the meantime a piece that begins within R of
    /// the same top holds the head, and begins as a torso that many rows
    /// below the top. (A head joined in every other frame: 58 ms early at
    /// 60 fps.)
    ///
    /// The torso's core may also break in two below the shoulder (a sleeve
    /// of the shirt's colour across it), and the head join the shoulder's
    /// piece alone: a piece too short to be cut to a torso's height, above
    /// a larger piece that it overlaps by more than R / 2. Within
    /// `headShoulderMemoryNanos` of the frame whose head stood apart (the
    /// posture is the same a frame or two later) it is cut as well, or
    /// dropped if it ends above the torso's top. Merged whole, the head
    /// led the torso: a second renderer's leaning runner at 60 fps, 52 ms
    /// early. (With the whole memory, 500 ms, at 30 fps arms of the shirt's
    /// colour were cut into torsos: two runners 30 and 60 ms worse.)
    func dropHead(from first: Int, top: Int, halfDepth: Double) {
        let reach = Int(halfDepth.rounded(.up))
        // The last row of the heads dropped; Int.max once one was longer
        // than a head (a spine of more than 4 R: a head is about 2 R tall).
        var headEnd = Int.min
        var j = first
        while j < candidateCount {
            if candidates[j].firstRow <= top + reach && hasLargerPiece(than: j, from: first, below: candidates[j].lastRow - reach / 2) {
                headEnd = candidates[j].discs <= 4 * halfDepth ? max(headEnd, candidates[j].lastRow) : Int.max
                removeCandidate(j)
            } else {
                j += 1
            }
        }
        var torsoRow = Int.max
        for k in first..<candidateCount { torsoRow = min(torsoRow, candidates[k].firstRow) }
        guard torsoRow < Int.max else { return }
        let gap = torsoRow - top
        if gap > reach {
            // Learnt from a head wholly above the torso's core, a neck of at
            // most 1.5 R between them, and 2.25 to 4 R in all: else the
            // piece dropped may have been a leaning torso's shoulder, or the
            // torso's top is missing (a shirt like the scene).
            if headEnd > Int.min && headEnd < torsoRow && Double(torsoRow - headEnd) <= 1.5 * halfDepth
                && Double(gap) >= 2.25 * halfDepth && Double(gap) <= 4 * halfDepth {
                headTopRow = top
                headGapRows = gap
                headGapNanos = frameNanos
            }
        } else if frameNanos - headGapNanos <= TorsoFinder.headGapMemoryNanos && abs(top - headTopRow) <= reach {
            // The top is the head's as it was then (not a torso's whose head
            // the scene hides); cut while the rest is a torso's height.
            let recent = frameNanos - headGapNanos <= TorsoFinder.headShoulderMemoryNanos
            var k = first
            while k < candidateCount {
                if candidates[k].firstRow <= top + reach {
                    if top + headGapRows + 2 * reach <= candidates[k].lastRow {
                        candidates[k].firstRow = top + headGapRows
                    } else if recent && hasLargerPiece(than: k, from: first, below: top + reach + 1) {
                        // The head joined to the shoulder, a torso below it.
                        if candidates[k].lastRow < top + headGapRows {
                            removeCandidate(k)
                            continue
                        }
                        candidates[k].firstRow = top + headGapRows
                    }
                }
                k += 1
            }
        }
    }

    /// True when a piece from `first` on other than `j`, with more discs, begins at or below `row`.
    func hasLargerPiece(than j: Int, from first: Int, below row: Int) -> Bool {
        for k in first..<candidateCount where k != j {
            if candidates[k].discs > candidates[j].discs && candidates[k].firstRow >= row { return true }
        }
        return false
    }

    /// Moves the last candidate into `j`'s place.
    func removeCandidate(_ j: Int) {
        let last = candidateCount - 1
        if j != last {
            candidates[j] = candidates[last]
            (rightFront + j * height).update(from: rightFront + last * height, count: height)
            (leftFront + j * height).update(from: leftFront + last * height, count: height)
        }
        candidateCount -= 1
    }
}

extension PrecisionDetector {
    /// A torso found this frame: its body, R, its spine's centroid and the rows it spans.
    struct Torso {
        var group = 0
        var halfDepth = 0.0
        var discRadius = 0.0
        var centroidX = 0.0, centroidY = 0.0
        var firstRow = 0, lastRow = -1
        var matched = false
        /// Spine pixels (discs) it is made of.
        var discs = 0.0
    }
}

/// Step 4 of `PrecisionDetector`: each body's distance transform and its
/// torso half depth R (the depth the deepest 30% of the upper 60% of its
/// rows reach), and, where two runners are one body, the people in it
/// (`splitPeople`). Gives the next stage `distance` and `people`.
final class TorsoDepth: ReadsWorkPlanes {
    typealias Body = PrecisionDetector.Body

    let planes: WorkPlanes
    /// Squared distances to the nearest pixel outside the body being measured.
    let distance: PrecisionDistance
    /// Per column of the body being split: its rows in the body's upper part (`splitPeople`).
    let columnRows: UnsafeMutablePointer<Int32>
    /// The boxes of the people `splitPeople` told apart.
    let people: UnsafeMutablePointer<Body>
    /// People told apart in one body (`splitPeople`), at most.
    static let maxPeople = 4

    init(planes: WorkPlanes) {
        self.planes = planes
        distance = PrecisionDistance(width: planes.width, height: planes.height)
        columnRows = .allocate(capacity: planes.width)
        people = .allocate(capacity: TorsoDepth.maxPeople)
        people.initialize(repeating: Body(), count: TorsoDepth.maxPeople)
    }

    deinit { columnRows.deallocate(); people.deallocate() }

    /// The torso half depth of the body in `box` (its pixels have a
    /// distance above 0 there): the depth that the deepest 30% of the upper
    /// 60% of its rows reach (head, torso, hips: legs side by side are as
    /// deep, and below). With `countColumns`, each column's rows in that
    /// upper part go to `columnRows` (from the box's first column).
    func torsoHalfDepth(_ box: Body, countColumns: Bool) -> Double? {
        var rows = 0
        let upper = TorsoDepth.upperRow(of: box)
        let boxWidth = box.maxX - box.minX + 1
        if countColumns { for i in 0..<boxWidth { columnRows[i] = 0 } }
        for y in box.minY...upper {
            var deepest: Int32 = 0
            let d = distance.squared + y * width + box.minX   // 0 where the box is not this body
            // Counted from 0 with no overflow check: in vector lanes.
            for i in 0..<boxWidth { deepest = max(deepest, d[i]) }
            if countColumns {
                for i in 0..<boxWidth { columnRows[i] &+= d[i] > 0 ? 1 : 0 }
            }
            if deepest > 0 { scratch[rows] = deepest; rows += 1 }
        }
        guard rows >= 4 else { return nil }
        let k = Int(0.7 * Double(rows - 1))
        return Double(PrecisionDetector.select(scratch, count: rows, rank: k)).squareRoot()
    }

    /// The last of the upper 60% of `box`'s rows, where `torsoHalfDepth` looks.
    static func upperRow(of box: Body) -> Int { box.minY + Int(0.6 * Double(box.maxY - box.minY)) }
    /// Two runners close behind each other, a leg of one across the other's,
    /// are one body. Its half depth is the larger runner's, and the other's
    /// torso, slimmer in the view (farther, or leaning more), may hold no
    /// core at all: it was missed for 14 frames at the line (a second
    /// renderer's pair, 120 fps, 8 and 12 px half depths). So the body's
    /// upper part (`columnRows`) is split where no pixel is: each run of
    /// columns that holds a torso's height somewhere (three tenths of the
    /// upper rows; an arm or a hand on its own does not) is a person, and
    /// the columns between two people are shared at the middle of the gap.
    /// Fills `people` with each person's box (rows: where its columns have
    /// pixels) and returns how many; below 2, the body is one person.
    func splitPeople(_ body: Body) -> Int {
        let boxWidth = body.maxX - body.minX + 1
        let upperRows = Int(0.6 * Double(body.maxY - body.minY)) + 1
        let tall = Int32(max(4, (3 * upperRows) / 10))
        var count = 0
        var i = 0
        // `people` first holds each person's columns (box-relative).
        while i < boxWidth {
            guard columnRows[i] > 0 else { i += 1; continue }
            let start = i
            var highest: Int32 = 0
            while i < boxWidth && columnRows[i] > 0 { highest = max(highest, columnRows[i]); i += 1 }
            guard highest >= tall else { continue }
            guard count < TorsoDepth.maxPeople else { return 1 }
            people[count] = Body(minX: start, maxX: i - 1, minY: 0, maxY: 0, area: 0)
            count += 1
        }
        guard count >= 2 else { return count }
        // Each person's own half depth and cores: every distance exact.
        distance.finish(below: 0)
        var firstColumn = body.minX
        for k in 0..<count {
            let lastColumn = k == count - 1 ? body.maxX : body.minX + (people[k].maxX + people[k + 1].minX) / 2
            var top = Int.max, bottom = Int.min
            for y in body.minY...body.maxY {
                let d = distance.squared + y * width
                var any = false
                for x in firstColumn...lastColumn where d[x] > 0 { any = true; break }
                if any { top = min(top, y); bottom = y }
            }
            people[k] = Body(minX: firstColumn, maxX: lastColumn, minY: top == Int.max ? body.minY : top,
                             maxY: bottom == Int.min ? body.minY : bottom, area: 0)
            firstColumn = lastColumn + 1
        }
        return count
    }
}

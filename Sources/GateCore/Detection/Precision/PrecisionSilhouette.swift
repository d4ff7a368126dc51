/// The root of node `i` in a union-find forest kept as parent indices
/// (a root is its own parent), compressing the path on the way.
@inline(__always)
func unionFindRoot(_ parent: UnsafeMutablePointer<Int32>, _ i: Int) -> Int {
    var r = i
    while Int(parent[r]) != r { r = Int(parent[r]) }
    var node = i
    while Int(parent[node]) != r {
        let next = Int(parent[node])
        parent[node] = Int32(r)
        node = next
    }
    return r
}

/// Joins the trees of nodes `a` and `b`; the lower root stays the root, so
/// a region's root is its first node.
@inline(__always)
func unionFindJoin(_ parent: UnsafeMutablePointer<Int32>, _ a: Int, _ b: Int) {
    let ra = unionFindRoot(parent, a), rb = unionFindRoot(parent, b)
    if ra < rb { parent[rb] = Int32(ra) } else if rb < ra { parent[ra] = Int32(rb) }
}

/// Columns first...last of one row (first > last: none), and whether any
/// of them is hidden (`PrecisionDetector.hidden`).
struct ColumnSpan {
    var first: Int32
    var last: Int32
    var hidden = false
}

/// Connected regions of a mask as row runs joined by union-find (8-connected),
/// inside a rectangle of an image, with each region's area and bounding box.
/// It keeps every region and each run's label, and links each region's runs
/// in a list (`next`, in the order they were found), so a caller visits a
/// region's runs without going through the others'. Storage is allocated in init.
final class PrecisionRuns {
    let capacity: Int
    let row: UnsafeMutablePointer<Int32>
    let start: UnsafeMutablePointer<Int32>
    let end: UnsafeMutablePointer<Int32>   // inclusive
    private let parent: UnsafeMutablePointer<Int32>
    let area: UnsafeMutablePointer<Int32>
    let minX: UnsafeMutablePointer<Int32>, maxX: UnsafeMutablePointer<Int32>
    let minY: UnsafeMutablePointer<Int32>, maxY: UnsafeMutablePointer<Int32>
    /// The run after run i in its region, or -1. A region's first run is its root.
    let next: UnsafeMutablePointer<Int32>
    private let last: UnsafeMutablePointer<Int32>
    private(set) var count = 0

    init(width: Int, height: Int) {
        capacity = ((width + 1) / 2) * height + 1
        row = .allocate(capacity: capacity); start = .allocate(capacity: capacity); end = .allocate(capacity: capacity)
        parent = .allocate(capacity: capacity); area = .allocate(capacity: capacity)
        minX = .allocate(capacity: capacity); maxX = .allocate(capacity: capacity)
        minY = .allocate(capacity: capacity); maxY = .allocate(capacity: capacity)
        next = .allocate(capacity: capacity); last = .allocate(capacity: capacity)
    }

    deinit {
        row.deallocate(); start.deallocate(); end.deallocate(); parent.deallocate(); area.deallocate()
        minX.deallocate(); maxX.deallocate(); minY.deallocate(); maxY.deallocate()
        next.deallocate(); last.deallocate()
    }

    @inline(__always)
    func root(_ i: Int) -> Int { unionFindRoot(parent, i) }

    /// Labels the pixels of `mask` (row stride `stride`) equal to `value`
    /// inside columns x0...x1, rows y0...y1. Afterwards each root run
    /// (`root(i) == i`) holds its region's area and box. `spans`, if given,
    /// holds per row the only columns where the mask may hold `value`
    /// (a frame's silhouette is a few bodies: most rows are empty, and the
    /// scan of the rest was a tenth of a frame's cost).
    func label(_ mask: UnsafePointer<UInt8>, stride: Int, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int,
               spans: UnsafePointer<ColumnSpan>? = nil) {
        count = 0
        guard x0 <= x1 && y0 <= y1 else { return }
        var aboveFirst = 0, aboveEnd = 0
        for y in y0...y1 {
            let line = mask + y * stride
            let first = count
            var x = x0, stop = x1
            if let spans {
                x = max(x0, Int(spans[y].first))
                stop = min(x1, Int(spans[y].last))
            }
            while x <= stop {
                // Most of a frame's mask is empty: eight empty bytes at a time.
                if value != 0 && x &+ 8 <= stop &+ 1
                    && UnsafeRawPointer(line + x).loadUnaligned(as: UInt64.self) == 0 {
                    x &+= 8
                    continue
                }
                if line[x] == value {
                    let s = x
                    while x <= stop && line[x] == value { x += 1 }
                    row[count] = Int32(y); start[count] = Int32(s); end[count] = Int32(x - 1)
                    parent[count] = Int32(count)
                    count += 1
                } else {
                    x += 1
                }
            }
            var p = aboveFirst
            if first < count {
                for r in first..<count {
                    let s = start[r] - 1, e = end[r] + 1
                    while p < aboveEnd && end[p] < s { p += 1 }
                    var q = p
                    while q < aboveEnd && start[q] <= e {
                        unionFindJoin(parent, r, q)
                        q += 1
                    }
                }
            }
            aboveFirst = first
            aboveEnd = count
        }
        for r in 0..<count where parent[r] == Int32(r) {
            area[r] = 0
            minX[r] = Int32.max; maxX[r] = Int32.min; minY[r] = Int32.max; maxY[r] = Int32.min
        }
        // A root is its region's first run (unions keep the lower index), so
        // appending in index order starts each list at its root.
        for r in 0..<count {
            let k = root(r)
            next[r] = -1
            if k != r { next[Int(last[k])] = Int32(r) }
            last[k] = Int32(r)
            area[k] += end[r] - start[r] + 1
            if start[r] < minX[k] { minX[k] = start[r] }
            if end[r] > maxX[k] { maxX[k] = end[r] }
            if row[r] < minY[k] { minY[k] = row[r] }
            if row[r] > maxY[k] { maxY[k] = row[r] }
        }
    }
}

/// Squared Euclidean distance from each pixel of a region to the nearest
/// pixel outside it (Meijster, Roerdink and Hesselink's two-pass
/// algorithm), inside a rectangle whose outside counts as outside the
/// region. Storage for the largest rectangle is allocated in init.
final class PrecisionDistance {
    private let width: Int
    private let columns: UnsafeMutablePointer<Int32>
    private let s: UnsafeMutablePointer<Int32>
    private let t: UnsafeMutablePointer<Int32>
    private let g2: UnsafeMutablePointer<Int32>
    /// `nearest`'s squared column distances around one run, and its results.
    private let window: UnsafeMutablePointer<UInt16>
    private let nearest16: UnsafeMutablePointer<UInt16>
    /// Squared distances, indexed like the image (only the last rectangle is valid).
    let squared: UnsafeMutablePointer<Int32>

    init(width: Int, height: Int) {
        self.width = width
        columns = .allocate(capacity: (width + 2) * (height + 2))
        s = .allocate(capacity: width + 2); t = .allocate(capacity: width + 2); g2 = .allocate(capacity: width + 2)
        squared = .allocate(capacity: width * height)
        // A run and `nearestReach` columns either side, in whole vectors.
        window = .allocate(capacity: width + 2 * PrecisionDistance.nearestReach + 16)
        nearest16 = .allocate(capacity: width + 16)
    }

    deinit {
        columns.deallocate(); s.deallocate(); t.deallocate(); g2.deallocate(); squared.deallocate()
        window.deallocate(); nearest16.deallocate()
    }

    /// The rectangle of the last `compute` (its table's columns and rows,
    /// an outside one on each side) and how many of its rows have their
    /// distances (the rest: `finish`).
    private var x0 = 0, y0 = 0, columnCount = 0, rowCount = 0, exactRows = 0

    /// Distances for the pixels of `mask` equal to `value` in columns
    /// x0...x1 and rows y0...y1: exact in rows y0...`exactThrough` (all
    /// rows by default), the rest once `finish` is called.
    func compute(_ mask: UnsafePointer<UInt8>, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int, exactThrough: Int? = nil) {
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        guard w > 0 && h > 0 else { rowCount = 0; exactRows = 0; return }
        let n = w + 2          // one outside column each side
        let rows = h + 2       // one outside row above and below
        let far = Int32(rows + n)
        self.x0 = x0; self.y0 = y0; columnCount = n; rowCount = rows
        // Phase 1: per column, the distance to the nearest outside pixel in
        // that column: down the rows, then up. Row after row, so that the
        // mask and the table are read in memory order (and in vector lanes).
        for c in 0..<n {
            columns[c] = 0
            columns[(rows - 1) * n + c] = 0
        }
        for r in 1...h {
            let line = mask + (y0 + r - 1) * width + x0 - 1, above = columns + (r - 1) * n, here = columns + r * n
            here[0] = 0
            here[n - 1] = 0
            // Without a branch (in vector lanes): all ones inside, zero outside.
            for c in 1..<(w &+ 1) {
                let inside = Int32(truncatingIfNeeded: Int8(bitPattern: line[c] == value ? 0xFF : 0))
                here[c] = min(far, above[c] &+ 1) & inside
            }
        }
        for r in stride(from: h, through: 1, by: -1) {
            let below = columns + (r + 1) * n, here = columns + r * n
            for c in 1..<(w &+ 1) { here[c] = min(here[c], below[c] &+ 1) }
        }
        exactRows = 0
        let last = min(y1, exactThrough ?? y1)
        if last >= y0 { envelopes(through: last - y0 + 1, below: 0) }
    }

    /// The distances of the rows `compute` left, exact where they can reach
    /// `minimum`: a run of a row's pixels that holds no pixel with a
    /// distance of `minimum` or more (none is farther from the run's ends,
    /// nor from the outside above or below, than the square root of
    /// `minimum`) gets 1 for each of its pixels, the least a pixel inside
    /// has. Its pixels' distances are below `minimum`, and above 0.
    ///
    /// Why: a torso's core (`PrecisionDetector.findCores`) is where the
    /// distance reaches a share of the torso's depth, which the upper rows
    /// give first (`torsoHalfDepth`); below them, a runner's legs are thin
    /// runs that cannot reach it. Leaving them out took a tenth off the
    /// distances' cost on frames of a runner at 640x480.
    func finish(below minimum: Int32) {
        envelopes(through: rowCount - 2, below: minimum)
    }

    /// Phase 2 for table rows exactRows + 1...last: per row, the least
    /// (x - i)^2 + g(i)^2 over the columns i. An outside pixel (g = 0) is
    /// nearer to every pixel beyond it than any column further on, so each
    /// run of inside pixels needs only the columns from the outside pixel
    /// before it to the one after it: all of them within its reach
    /// (`nearest`), or the lower envelope of their parabolas.
    private func envelopes(through last: Int, below minimum: Int32) {
        guard last > exactRows else { return }
        let n = columnCount, w = n - 2
        for r in (exactRows + 1)...last {
            let g = columns + r * n
            let out = squared + (y0 + r - 1) * width + x0 - 1   // out[c] is column c of the table
            var c = 1
            while c <= w {
                if g[c] == 0 { out[c] = 0; c &+= 1; continue }
                var end = c, deepest = g[c]
                while g[end &+ 1] != 0 { end &+= 1; deepest = max(deepest, g[end]) }   // column n - 1 is outside
                // No pixel of the run is farther than half its length (rounded
                // up) from its ends, nor than its deepest g from the outside
                // above or below. Below the table's width: squared, no overflow.
                let reach = min(deepest, Int32(truncatingIfNeeded: (end - c + 2) / 2))
                if reach &* reach < minimum {
                    for x in c...end { out[x] = 1 }
                } else if reach <= PrecisionDistance.nearestReach {
                    nearest(g, from: c, through: end, reach: Int(reach), into: out)
                } else {
                    envelope(g, from: c - 1, to: end + 1, into: out)
                }
                c = end &+ 1
            }
        }
        exactRows = last
    }

    /// The largest `reach` that `nearest` takes: its sums stay within 16
    /// bits (a run 256 columns wide and as deep: the envelope does those).
    static let nearestReach = 127

    /// Writes the least (u - i)^2 + g(i)^2 over the row for each u in
    /// c...end (a run of inside pixels, outside at c - 1 and end + 1), none
    /// of which is farther than `reach` from the outside: by trying each
    /// column i within `reach` of u, eight u at a time in 16-bit lanes.
    ///
    /// Why not the envelope: there each column waits on the one before
    /// (its stack, and a division), about 15 cycles a pixel; here the
    /// columns are independent, and a torso's run of 30 pixels needs about
    /// 15 steps of 4 vectors. The distances of a runner's frame at 640x480
    /// took 22 us with the envelope, 14.5 us so.
    ///
    /// Exact: u's squared distance is at most reach^2, and a column more
    /// than `reach` from u gives a term above that. A column past the
    /// run's outside ends gives one above the end's term (its (u - i)^2 is
    /// larger), so it cannot be the least either: those columns, and any
    /// g^2 above the cap, are given the cap, 65535 - reach^2 (above reach^2
    /// too), and no sum overflows 16 bits.
    @inline(__always)
    private func nearest(_ g: UnsafeMutablePointer<Int32>, from c: Int, through end: Int, reach: Int,
                         into out: UnsafeMutablePointer<Int32>) {
        let vectors = (end - c + 8) >> 3
        let cap = 65535 - reach * reach
        let cap16 = UInt16(truncatingIfNeeded: cap)
        // window[i] is column c - reach + i: the run, its two outside ends,
        // and the cap out to `reach` past the last vector's lanes.
        let count = 8 * vectors + 2 * reach, lo = reach - 1, hi = end - c + reach + 1
        let w = window
        var i = 0
        while i < lo { w[i] = cap16; i &+= 1 }
        while i <= hi {
            let v = Int(g[c &- reach &+ i])
            w[i] = UInt16(truncatingIfNeeded: min(v &* v, cap))
            i &+= 1
        }
        while i < count { w[i] = cap16; i &+= 1 }
        let terms = UnsafeRawPointer(w), results = UnsafeMutableRawPointer(nearest16)
        for j in 0..<vectors {
            // No lane's u is farther than `steps` from the run's ends.
            let u0 = c &+ 8 &* j, u1 = min(end, u0 &+ 7), middle = (c &+ end) >> 1
            let steps = min(reach, middle < u0 ? end &+ 1 &- u0 : (middle > u1 ? u1 &- c &+ 1 : (end &- c &+ 2) >> 1))
            let at = 2 &* (reach &+ 8 &* j)   // byte offset of u0's term
            var least = terms.loadUnaligned(fromByteOffset: at, as: SIMD8<UInt16>.self)
            var k = 1
            while k <= steps {
                let left = terms.loadUnaligned(fromByteOffset: at &- 2 &* k, as: SIMD8<UInt16>.self)
                let right = terms.loadUnaligned(fromByteOffset: at &+ 2 &* k, as: SIMD8<UInt16>.self)
                let step = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: k &* k))
                least = pointwiseMin(least, pointwiseMin(left, right) &+ step)
                k &+= 1
            }
            results.storeBytes(of: least, toByteOffset: 16 &* j, as: SIMD8<UInt16>.self)
        }
        for x in c...end { out[x] = Int32(truncatingIfNeeded: nearest16[x &- c]) }
    }

    /// Writes the least (u - i)^2 + g(i)^2 over i in lo...hi for each u
    /// strictly between lo and hi (Meijster's second pass on that range).
    /// Columns lo and hi are outside (g = 0). In 32-bit arithmetic without
    /// overflow checks: every term is below the table's size squared.
    @inline(__always)
    private func envelope(_ g: UnsafeMutablePointer<Int32>, from lo: Int, to hi: Int, into out: UnsafeMutablePointer<Int32>) {
        // The stack: each column's index (s), the start of its span (t) and
        // g^2 (kept beside them: read through the index, it was a load
        // waiting on a load in every test).
        let s = self.s, t = self.t, g2 = self.g2
        let hi32 = Int32(truncatingIfNeeded: hi)
        // Column lo is at distance 0 from itself, nearer than any other
        // column can be: it is never dropped, so the stack never empties.
        var q = 0
        s[0] = Int32(truncatingIfNeeded: lo); t[0] = s[0]; g2[0] = 0
        var u = Int32(truncatingIfNeeded: lo) &+ 1
        while u <= hi32 {
            let gu = g[Int(u)]
            let gu2 = gu &* gu
            var i = s[q], start = t[q], gi2 = g2[q]
            while true {
                // Is column i no nearer than u at the start of its span?
                let a = start &- i, b = start &- u
                if a &* a &+ gi2 <= b &* b &+ gu2 { break }
                q &-= 1
                i = s[q]; start = t[q]; gi2 = g2[q]
            }
            let numerator = u &* u &- i &* i &+ gu2 &- gi2, denominator = 2 &* (u &- i)
            // Never negative, so plain division is the floor: the top column
            // i is at least as near as u at `start` (the loop above), so
            // (start - i)^2 + gi2 <= (start - u)^2 + gu2, that is
            // numerator >= 2 x start x (u - i), and start >= lo >= 0.
            let sep = numerator / denominator
            let wv = 1 &+ sep
            if wv <= hi32 { q &+= 1; s[q] = u; t[q] = wv; g2[q] = gu2 }
            u &+= 1
        }
        if hi32 == t[q] { q &-= 1 }
        var x = hi32 &- 1
        while x > Int32(truncatingIfNeeded: lo) {
            let d = x &- s[q]
            out[Int(x)] = d &* d &+ g2[q]
            if x == t[q] { q &-= 1 }
            x &-= 1
        }
    }
}

/// The half widths of a pixel's largest disc on each row it reaches: for a
/// squared distance d, the radius r = sqrt(d) - 0.5 (the edge lies half a
/// pixel short of the nearest outside pixel's centre) and sqrt(r^2 - dy^2)
/// for dy = 0...Int(r). A torso's spine has hundreds of pixels but a few
/// dozen distances, so each distance's rows are computed once, when first
/// asked for, and kept: the square roots were most of the cost of painting
/// the discs. Storage is allocated in init.
final class DiscRows {
    /// Squared distances below this are kept (a radius below 31.5 pixels).
    static let keptSquared = 1024
    private let start: UnsafeMutablePointer<Int32>   // per squared distance, into `rows`; -1: not yet
    private let rows: UnsafeMutablePointer<Double>
    private let spare: UnsafeMutablePointer<Double>  // a larger distance's rows, made each time
    private var used = 0
    /// Per squared distance: Int(radius), and the whole square root (-1: none).
    private let reaches: UnsafeMutablePointer<Int32>
    private let wholeRoots: UnsafeMutablePointer<Int32>

    init(width: Int, height: Int) {
        start = .allocate(capacity: DiscRows.keptSquared)
        start.initialize(repeating: -1, count: DiscRows.keptSquared)
        reaches = .allocate(capacity: DiscRows.keptSquared)
        wholeRoots = .allocate(capacity: DiscRows.keptSquared)
        wholeRoots.initialize(repeating: -1, count: DiscRows.keptSquared)
        for d in 0..<DiscRows.keptSquared { reaches[d] = Int32(DiscRows.radius(Int32(d))) }
        var root = 0
        while root * root < DiscRows.keptSquared { wholeRoots[root * root] = Int32(root); root += 1 }
        // One row count per distance, each at most sqrt(d) + 1.
        var capacity = 0
        for d in 0..<DiscRows.keptSquared { capacity += Int(Double(d).squareRoot()) + 1 }
        rows = .allocate(capacity: capacity)
        spare = .allocate(capacity: width + height + 2)
    }

    deinit { start.deallocate(); rows.deallocate(); spare.deallocate(); reaches.deallocate(); wholeRoots.deallocate() }

    /// The radius for squared distance `squared`.
    @inline(__always)
    static func radius(_ squared: Int32) -> Double { Double(squared).squareRoot() - 0.5 }

    /// Int(radius(squared)): the disc's last row either side of its centre.
    /// Kept per distance, like the half widths: the square roots taken per
    /// spine pixel, here and in `wholeRoot`, were a sixth of the time
    /// `findCores` took.
    @inline(__always)
    func reach(_ squared: Int32) -> Int {
        Int(squared) < DiscRows.keptSquared ? Int(reaches[Int(squared)]) : Int(DiscRows.radius(squared))
    }

    /// The whole square root of `squared`, or -1 when it is no square.
    @inline(__always)
    func wholeRoot(_ squared: Int32) -> Int {
        let d = Int(squared)
        if d < DiscRows.keptSquared { return Int(wholeRoots[d]) }
        let root = Int(Double(d).squareRoot())
        return root * root == d ? root : -1
    }

    /// The half widths for squared distance `squared` (at least 1), rows 0...Int(radius).
    @inline(__always)
    func halfWidths(_ squared: Int32) -> UnsafePointer<Double> {
        let d = Int(squared)
        guard d < DiscRows.keptSquared else {
            _ = fill(spare, squared)
            return UnsafePointer(spare)
        }
        if start[d] < 0 {
            start[d] = Int32(used)
            used += fill(rows + used, squared)
        }
        return UnsafePointer(rows + Int(start[d]))
    }

    /// Writes the half widths to `out`; returns how many.
    private func fill(_ out: UnsafeMutablePointer<Double>, _ squared: Int32) -> Int {
        let radius = DiscRows.radius(squared)
        let reach = Int(radius)
        guard reach >= 0 else { return 0 }
        for dy in 0...reach { out[dy] = (radius * radius - Double(dy * dy)).squareRoot() }
        return reach + 1
    }
}

/// The holes of a region: the pixels of its box not in it that no
/// 4-connected path of such pixels joins to the box's border. Found as row
/// runs joined by union-find, so its cost is one read of the box plus a few
/// operations per run (a flood from the border touched every pixel around
/// the region several times). Storage is allocated in init.
final class PrecisionHoles {
    private let row: UnsafeMutablePointer<Int32>
    private let start: UnsafeMutablePointer<Int32>
    private let end: UnsafeMutablePointer<Int32>   // inclusive
    private let parent: UnsafeMutablePointer<Int32>
    /// Per hole (at its root run): the scene pixels' departures from the
    /// scene and their thresholds, inside and beside the region (`fill`'s `scene`).
    private let departure: UnsafeMutablePointer<Int>
    private let thresholds: UnsafeMutablePointer<Int>
    private let edgeDeparture: UnsafeMutablePointer<Int>
    private let edgeThresholds: UnsafeMutablePointer<Int>
    /// Per hole (at its root run): its first and last row and its widest run.
    private let firstRow: UnsafeMutablePointer<Int32>
    private let lastRow: UnsafeMutablePointer<Int32>
    private let widest: UnsafeMutablePointer<Int32>

    init(width: Int, height: Int) {
        // A row holds at most (width + 1) / 2 runs apart; run 0 is the outside.
        let capacity = ((width + 1) / 2) * height + 1
        row = .allocate(capacity: capacity); start = .allocate(capacity: capacity)
        end = .allocate(capacity: capacity); parent = .allocate(capacity: capacity)
        departure = .allocate(capacity: capacity); thresholds = .allocate(capacity: capacity)
        edgeDeparture = .allocate(capacity: capacity); edgeThresholds = .allocate(capacity: capacity)
        firstRow = .allocate(capacity: capacity); lastRow = .allocate(capacity: capacity)
        widest = .allocate(capacity: capacity)
    }

    deinit {
        row.deallocate(); start.deallocate(); end.deallocate(); parent.deallocate()
        departure.deallocate(); thresholds.deallocate(); edgeDeparture.deallocate(); edgeThresholds.deallocate()
        firstRow.deallocate(); lastRow.deallocate(); widest.deallocate()
    }

    /// Sets to `value` every hole of the region of pixels equal to `value`
    /// in columns x0...x1, rows y0...y1 of `mask` (row stride `stride`).
    func fill(_ mask: UnsafeMutablePointer<UInt8>, stride: Int, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int) {
        fill(mask, stride: stride, value: value, x0: x0, x1: x1, y0: y0, y1: y1) { _, _ in (departure: 1, threshold: 0) }
    }

    /// Sets to `value` the holes of the region, the large ones in its upper
    /// part only where they depart from the scene. A hole is large when it
    /// spans at least a twelfth of the box's rows both down and across (at
    /// least 4 pixels), and in the upper part when it ends in the upper
    /// third of the box's rows. `scene(i, y)` gives scene pixel i's (mask 0, row y)
    /// departure from the scene and its threshold, and a large hole is
    /// filled when the sum of its departures is at least a third of the
    /// sum of its thresholds (its pixels beside the region left out where
    /// others remain: their anti-aliased edges lean towards the region's
    /// luma), as `PrecisionDetector.gapDepartsFromScene` asks of a gap. A
    /// hole of no scene pixels (silhouette of another luma, hidden) is filled.
    func fill(_ mask: UnsafeMutablePointer<UInt8>, stride: Int, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int,
              scene: (_ index: Int, _ row: Int) -> (departure: Int, threshold: Int)) {
        guard x0 <= x1 && y0 <= y1 else { return }
        // Run 0 stands for the outside: runs on the box's border join it, and
        // unions keep the lower index, so a run is a hole's unless its root is 0.
        parent[0] = 0
        var count = 1
        let region = UInt64(value) &* 0x0101_0101_0101_0101
        var aboveFirst = 1, aboveEnd = 1
        for y in y0...y1 {
            let line = mask + y * stride
            let first = count
            let edgeRow = y == y0 || y == y1
            var x = x0
            while x <= x1 {
                // Most of a region's box is the region: eight of its pixels at a time.
                if x &+ 8 <= x1 &+ 1 && UnsafeRawPointer(line + x).loadUnaligned(as: UInt64.self) == region {
                    x &+= 8
                    continue
                }
                if line[x] == value { x &+= 1; continue }
                let s = x
                while x <= x1 && line[x] != value { x &+= 1 }
                row[count] = Int32(y); start[count] = Int32(s); end[count] = Int32(x - 1)
                parent[count] = edgeRow || s == x0 || x - 1 == x1 ? 0 : Int32(count)
                count += 1
            }
            // 4-connected: a run joins the runs above that share a column.
            var p = aboveFirst
            if first < count {
                for r in first..<count {
                    while p < aboveEnd && end[p] < start[r] { p += 1 }
                    var q = p
                    while q < aboveEnd && start[q] <= end[r] {
                        unionFindJoin(parent, r, q)
                        q += 1
                    }
                }
            }
            aboveFirst = first
            aboveEnd = count
        }
        for r in 1..<count {
            departure[r] = 0; thresholds[r] = 0; edgeDeparture[r] = 0; edgeThresholds[r] = 0
            firstRow[r] = Int32.max; lastRow[r] = Int32.min; widest[r] = 0
        }
        for r in 1..<count {
            let root = unionFindRoot(parent, r)
            guard root != 0 else { continue }
            firstRow[root] = min(firstRow[root], row[r]); lastRow[root] = max(lastRow[root], row[r])
            widest[root] = max(widest[root], end[r] - start[r] + 1)
        }
        let large = Int32(max(4, (y1 - y0 + 1) / 12)), upper = Int32(y0 + (y1 - y0 + 1) / 3)
        // A hole's runs are inside the box, off its border: every pixel has
        // its four neighbours in it.
        for r in 1..<count {
            let root = unionFindRoot(parent, r)
            guard root != 0, widest[root] >= large, lastRow[root] - firstRow[root] + 1 >= large, lastRow[root] < upper else { continue }
            let y = Int(row[r])
            for x in Int(start[r])...Int(end[r]) {
                let i = y * stride + x
                guard mask[i] == 0 else { continue }
                let (d, t) = scene(i, y)
                if mask[i - 1] == value || mask[i + 1] == value || mask[i - stride] == value || mask[i + stride] == value {
                    edgeDeparture[root] += d; edgeThresholds[root] += t
                } else {
                    departure[root] += d; thresholds[root] += t
                }
            }
        }
        for r in 1..<count {
            let root = unionFindRoot(parent, r)
            guard root != 0 else { continue }
            let tested = widest[root] >= large && lastRow[root] - firstRow[root] + 1 >= large && lastRow[root] < upper
            let inside = thresholds[root] > 0
            let d = inside ? departure[root] : edgeDeparture[root], t = inside ? thresholds[root] : edgeThresholds[root]
            guard !tested || 3 * abs(d) >= t else { continue }
            let line = mask + Int(row[r]) * stride
            for x in Int(start[r])...Int(end[r]) { line[x] = value }
        }
    }
}

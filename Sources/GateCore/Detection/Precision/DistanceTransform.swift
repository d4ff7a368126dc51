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

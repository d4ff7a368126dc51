/// Connected regions of a mask as row runs joined by union-find (8-connected),
/// inside a rectangle of an image, with each region's area and bounding box.
/// It keeps every region and each run's label,
/// so a caller can visit a region's runs. Storage is allocated in init.
final class PrecisionRuns {
    let capacity: Int
    let row: UnsafeMutablePointer<Int32>
    let start: UnsafeMutablePointer<Int32>
    let end: UnsafeMutablePointer<Int32>   // inclusive
    private let parent: UnsafeMutablePointer<Int32>
    let area: UnsafeMutablePointer<Int32>
    let minX: UnsafeMutablePointer<Int32>, maxX: UnsafeMutablePointer<Int32>
    let minY: UnsafeMutablePointer<Int32>, maxY: UnsafeMutablePointer<Int32>
    private(set) var count = 0

    init(width: Int, height: Int) {
        capacity = ((width + 1) / 2) * height + 1
        row = .allocate(capacity: capacity); start = .allocate(capacity: capacity); end = .allocate(capacity: capacity)
        parent = .allocate(capacity: capacity); area = .allocate(capacity: capacity)
        minX = .allocate(capacity: capacity); maxX = .allocate(capacity: capacity)
        minY = .allocate(capacity: capacity); maxY = .allocate(capacity: capacity)
    }

    deinit {
        row.deallocate(); start.deallocate(); end.deallocate(); parent.deallocate(); area.deallocate()
        minX.deallocate(); maxX.deallocate(); minY.deallocate(); maxY.deallocate()
    }

    @inline(__always)
    func root(_ i: Int) -> Int {
        var r = Int32(i)
        while parent[Int(r)] != r { r = parent[Int(r)] }
        var node = Int32(i)
        while parent[Int(node)] != r {
            let next = parent[Int(node)]
            parent[Int(node)] = r
            node = next
        }
        return Int(r)
    }

    /// Labels the pixels of `mask` (row stride `stride`) equal to `value`
    /// inside columns x0...x1, rows y0...y1. Afterwards each root run
    /// (`root(i) == i`) holds its region's area and box.
    func label(_ mask: UnsafePointer<UInt8>, stride: Int, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int) {
        count = 0
        guard x0 <= x1 && y0 <= y1 else { return }
        var aboveFirst = 0, aboveEnd = 0
        for y in y0...y1 {
            let line = mask + y * stride
            let first = count
            var x = x0
            while x <= x1 {
                // Most of a frame's mask is empty: eight empty bytes at a time.
                if value != 0 && x &+ 8 <= x1 &+ 1
                    && UnsafeRawPointer(line + x).loadUnaligned(as: UInt64.self) == 0 {
                    x &+= 8
                    continue
                }
                if line[x] == value {
                    let s = x
                    while x <= x1 && line[x] == value { x += 1 }
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
                        let a = root(r), b = root(q)
                        if a != b { if a < b { parent[b] = Int32(a) } else { parent[a] = Int32(b) } }
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
        for r in 0..<count {
            let k = root(r)
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
    private let g: UnsafeMutablePointer<Int32>
    /// Squared distances, indexed like the image (only the last rectangle is valid).
    let squared: UnsafeMutablePointer<Int32>

    init(width: Int, height: Int) {
        self.width = width
        columns = .allocate(capacity: (width + 2) * (height + 2))
        s = .allocate(capacity: width + 2); t = .allocate(capacity: width + 2); g = .allocate(capacity: width + 2)
        squared = .allocate(capacity: width * height)
    }

    deinit {
        columns.deallocate(); s.deallocate(); t.deallocate(); g.deallocate(); squared.deallocate()
    }

    /// Distances for the pixels of `mask` equal to `value` in columns
    /// x0...x1 and rows y0...y1.
    func compute(_ mask: UnsafePointer<UInt8>, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int) {
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        guard w > 0 && h > 0 else { return }
        let n = w + 2          // one outside column each side
        let rows = h + 2       // one outside row above and below
        let far = Int32(rows + n)
        // Phase 1: per column, the distance to the nearest outside pixel in that column.
        for c in 0..<n {
            columns[c] = 0
            columns[(rows - 1) * n + c] = 0
        }
        for r in 1...h {
            columns[r * n] = 0
            columns[r * n + n - 1] = 0
        }
        for c in 1...w {
            let x = x0 + c - 1
            var d: Int32 = 0
            for r in 1...h {
                d = mask[(y0 + r - 1) * width + x] == value ? min(far, d + 1) : 0
                columns[r * n + c] = d
            }
            d = 0
            for r in stride(from: h, through: 1, by: -1) {
                let here = columns[r * n + c]
                d = here == 0 ? 0 : min(here, d + 1)
                columns[r * n + c] = d
            }
        }
        // Phase 2: per row, the lower envelope of the parabolas (x - i)^2 + g(i)^2.
        for r in 1...h {
            for c in 0..<n { g[c] = columns[r * n + c] }
            var q = 0
            s[0] = 0; t[0] = 0
            for u in 1..<n {
                while q >= 0 && f(Int(t[q]), Int(s[q])) > f(Int(t[q]), u) { q -= 1 }
                if q < 0 {
                    q = 0; s[0] = Int32(u)
                } else {
                    let i = Int(s[q])
                    let gi = Int(g[i]), gu = Int(g[u])
                    let numerator = u * u - i * i + gu * gu - gi * gi, denominator = 2 * (u - i)
                    // Floor division: the numerator may be negative.
                    let sep = numerator >= 0 ? numerator / denominator : -((-numerator + denominator - 1) / denominator)
                    let wv = 1 + sep
                    if wv < n { q += 1; s[q] = Int32(u); t[q] = Int32(wv) }
                }
            }
            for u in stride(from: n - 1, through: 0, by: -1) {
                if u >= 1 && u <= w {
                    squared[(y0 + r - 1) * width + x0 + u - 1] = Int32(f(u, Int(s[q])))
                }
                if u == Int(t[q]) { q -= 1 }
            }
        }
    }

    @inline(__always)
    private func f(_ x: Int, _ i: Int) -> Int {
        let d = x - i
        let gi = Int(g[i])
        return d * d + gi * gi
    }
}

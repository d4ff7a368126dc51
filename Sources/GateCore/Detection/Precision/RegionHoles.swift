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

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

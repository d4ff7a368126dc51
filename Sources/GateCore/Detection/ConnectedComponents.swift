/// 8-connected components of a thresholded image, by row runs and
/// union-find, in storage allocated once for the largest possible image.
///
/// Only what the detector needs is kept per component: area, bounding box
/// and the sum of x (for the centroid).
public final class ConnectedComponents {
    public struct Component: Equatable {
        public var area: Int
        public var minX: Int, maxX: Int, minY: Int, maxY: Int
        /// Twice the sum of the x of every pixel (exact in integers).
        public var sumX: Int
        public var height: Int { maxY - minY + 1 }
        public var centroidX: Double { Double(sumX) / Double(2 * area) }
    }

    private let width: Int
    private let height: Int
    private let capacity: Int
    private let runRow: UnsafeMutablePointer<Int32>
    private let runStart: UnsafeMutablePointer<Int32>
    private let runEnd: UnsafeMutablePointer<Int32>   // inclusive
    private let parent: UnsafeMutablePointer<Int32>
    private let area: UnsafeMutablePointer<Int32>
    private let box: UnsafeMutablePointer<Int32>      // minX, maxX, minY, maxY per run slot
    private let sumX: UnsafeMutablePointer<Int>
    public private(set) var runCount = 0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        // At most one run per two pixels of a row, rounded up.
        capacity = ((width + 1) / 2) * height
        runRow = .allocate(capacity: capacity)
        runStart = .allocate(capacity: capacity)
        runEnd = .allocate(capacity: capacity)
        parent = .allocate(capacity: capacity)
        area = .allocate(capacity: capacity)
        box = .allocate(capacity: capacity * 4)
        sumX = .allocate(capacity: capacity)
    }

    deinit {
        runRow.deallocate(); runStart.deallocate(); runEnd.deallocate(); parent.deallocate()
        area.deallocate(); box.deallocate(); sumX.deallocate()
    }

    @inline(__always)
    private func find(_ i: Int32) -> Int32 {
        var root = i
        while parent[Int(root)] != root { root = parent[Int(root)] }
        var node = i
        while parent[Int(node)] != root {
            let next = parent[Int(node)]
            parent[Int(node)] = root
            node = next
        }
        return root
    }

    @inline(__always)
    private func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra == rb { return }
        if ra < rb { parent[Int(rb)] = ra } else { parent[Int(ra)] = rb }
    }

    /// Labels the pixels of `image` (width x height, row-major) whose value
    /// exceeds `threshold` and returns the largest component, or nil if none.
    public func largest(in image: UnsafePointer<UInt8>, threshold: UInt8) -> Component? {
        runCount = 0
        labelled = false
        var previousRowFirst = 0, previousRowEnd = 0
        for y in 0..<height {
            let row = image + y * width
            let rowFirst = runCount
            var x = 0
            while x < width {
                if row[x] > threshold {
                    let start = x
                    while x < width && row[x] > threshold { x += 1 }
                    let r = runCount
                    runRow[r] = Int32(y)
                    runStart[r] = Int32(start)
                    runEnd[r] = Int32(x - 1)
                    parent[r] = Int32(r)
                    runCount += 1
                } else {
                    x += 1
                }
            }
            // Join with overlapping (8-connected) runs of the row above.
            var p = previousRowFirst
            for r in rowFirst..<runCount {
                let s = runStart[r] - 1, e = runEnd[r] + 1
                while p < previousRowEnd && runEnd[p] < s { p += 1 }
                var q = p
                while q < previousRowEnd && runStart[q] <= e {
                    union(Int32(r), Int32(q))
                    q += 1
                }
            }
            previousRowFirst = rowFirst
            previousRowEnd = runCount
        }
        guard runCount > 0 else { return nil }
        for r in 0..<runCount where parent[r] == Int32(r) {
            area[r] = 0
            box[4 * r] = Int32.max; box[4 * r + 1] = Int32.min
            box[4 * r + 2] = Int32.max; box[4 * r + 3] = Int32.min
            sumX[r] = 0
        }
        var best = -1
        var bestArea: Int32 = 0
        for r in 0..<runCount {
            let root = Int(find(Int32(r)))
            let length = runEnd[r] - runStart[r] + 1
            area[root] += length
            if runStart[r] < box[4 * root] { box[4 * root] = runStart[r] }
            if runEnd[r] > box[4 * root + 1] { box[4 * root + 1] = runEnd[r] }
            if runRow[r] < box[4 * root + 2] { box[4 * root + 2] = runRow[r] }
            if runRow[r] > box[4 * root + 3] { box[4 * root + 3] = runRow[r] }
            // Twice the sum of x over the run: length * (start + end), kept exact.
            sumX[root] += Int(length) * Int(runStart[r] + runEnd[r])
            if area[root] > bestArea { bestArea = area[root]; best = root }
        }
        guard best >= 0 else { return nil }
        labelled = true
        return Component(area: Int(area[best]), minX: Int(box[4 * best]), maxX: Int(box[4 * best + 1]),
                         minY: Int(box[4 * best + 2]), maxY: Int(box[4 * best + 3]), sumX: sumX[best])
    }

    private var labelled = false

    /// After `largest`: the union of every component of at least `minArea`
    /// pixels that reaches into the columns `columns`. A body seen by frame
    /// differencing often falls into several pieces (edges of head, torso,
    /// legs); together they have the body's height.
    public func union(touchingColumns columns: ClosedRange<Int>, minArea: Int) -> Component? {
        guard labelled else { return nil }
        var result: Component?
        for r in 0..<runCount where parent[r] == Int32(r) && Int(area[r]) >= minArea {
            let minX = Int(box[4 * r]), maxX = Int(box[4 * r + 1])
            guard maxX >= columns.lowerBound && minX <= columns.upperBound else { continue }
            let c = Component(area: Int(area[r]), minX: minX, maxX: maxX, minY: Int(box[4 * r + 2]),
                              maxY: Int(box[4 * r + 3]), sumX: sumX[r])
            if var u = result {
                u.area += c.area; u.sumX += c.sumX
                u.minX = min(u.minX, c.minX); u.maxX = max(u.maxX, c.maxX)
                u.minY = min(u.minY, c.minY); u.maxY = max(u.maxY, c.maxY)
                result = u
            } else {
                result = c
            }
        }
        return result
    }
}

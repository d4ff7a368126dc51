import Testing
@testable import GateCore

@Suite struct RegionToolsTests {
    /// A mask with a `fill` share of pixels set (`share` of them to `value`,
    /// the rest to `other`), and a rectangle that is any large part of it.
    static func randomMask(_ random: inout SplitMix64, width: Int, height: Int, fill: Double, share: Double,
                           of value: UInt8, else other: UInt8) -> ([UInt8], Int, Int, Int, Int) {
        var mask = [UInt8](repeating: 0, count: width * height)
        for i in mask.indices where random.unit() < fill { mask[i] = random.unit() < share ? value : other }
        let x0 = Int(random.unit() * 10), x1 = width - 1 - Int(random.unit() * 10)
        let y0 = Int(random.unit() * 8), y1 = height - 1 - Int(random.unit() * 8)
        return (mask, x0, x1, y0, y1)
    }

    /// The squared distance from (x, y) to the nearest pixel of the
    /// rectangle's outside or of the rectangle not equal to `value`, by trying
    /// every pixel: what PrecisionDistance must give exactly.
    static func bruteForce(_ mask: [UInt8], width: Int, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int,
                           x: Int, y: Int) -> Int32 {
        guard mask[y * width + x] == value else { return 0 }
        var best = Int.max
        for oy in (y0 - 1)...(y1 + 1) {
            for ox in (x0 - 1)...(x1 + 1) {
                let inside = ox >= x0 && ox <= x1 && oy >= y0 && oy <= y1 && mask[oy * width + ox] == value
                if !inside { best = min(best, (ox - x) * (ox - x) + (oy - y) * (oy - y)) }
            }
        }
        return Int32(best)
    }

    @Test(arguments: [0.2, 0.6, 0.95])
    func distancesAreExactForAnyShapeInARectangle(fill: Double) {
        let width = 40, height = 30
        var random = SplitMix64(seed: UInt64(fill * 1000))
        let distance = PrecisionDistance(width: width, height: height)
        for trial in 0..<20 {
            // Blobs of 1s and 2s; the rectangle is any part of the image.
            let (mask, x0, x1, y0, y1) = Self.randomMask(&random, width: width, height: height, fill: fill,
                                                         share: 0.8, of: 1, else: 2)
            mask.withUnsafeBufferPointer { distance.compute($0.baseAddress!, value: 1, x0: x0, x1: x1, y0: y0, y1: y1) }
            for y in y0...y1 {
                for x in x0...x1 {
                    let expected = Self.bruteForce(mask, width: width, value: 1, x0: x0, x1: x1, y0: y0, y1: y1, x: x, y: y)
                    let got = distance.squared[y * width + x]
                    #expect(got == expected, "trial \(trial), pixel (\(x), \(y)) in \(x0)...\(x1) x \(y0)...\(y1)")
                    if got != expected { return }
                }
            }
        }
    }

    /// Runs deeper and longer than `PrecisionDistance.nearestReach` go to
    /// the envelope, the rest to the short path; both are exact. Two
    /// blocks, one of each (a block's distance is to its nearest side).
    @Test(arguments: [(5, 284, 5, 274), (40, 239, 30, 229)])
    func distancesAreExactInBlocksDeeperThanTheShortPathReaches(block: (Int, Int, Int, Int)) {
        let (bx0, bx1, by0, by1) = block
        let width = 300, height = 280
        var mask = [UInt8](repeating: 0, count: width * height)
        for y in by0...by1 { for x in bx0...bx1 { mask[y * width + x] = 1 } }
        let distance = PrecisionDistance(width: width, height: height)
        mask.withUnsafeBufferPointer { distance.compute($0.baseAddress!, value: 1, x0: 0, x1: width - 1, y0: 0, y1: height - 1) }
        var deepest = 0
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= bx0 && x <= bx1 && y >= by0 && y <= by1
                let nearest = min(x - bx0 + 1, bx1 + 1 - x, y - by0 + 1, by1 + 1 - y)
                let expected = inside ? Int32(nearest * nearest) : 0
                deepest = max(deepest, inside ? nearest : 0)
                let got = distance.squared[y * width + x]
                #expect(got == expected, "pixel (\(x), \(y)) in \(block)")
                if got != expected { return }
            }
        }
        // The first block's middle runs are past the short path's reach, the second's within it.
        #expect((deepest > PrecisionDistance.nearestReach) == (bx1 - bx0 > 2 * PrecisionDistance.nearestReach))
    }

    /// Distances left to `finish(below:)` are exact in the rows asked for
    /// at once, and wherever they reach the least distance asked for later;
    /// below it, 1 or more but still below it (what a core's threshold, a
    /// disc's and "inside" ask of them); and 0 outside. With 0 asked, exact
    /// everywhere. The masks hold blobs, thin runs and broad ones.
    @Test(arguments: [0.6, 0.95])
    func distancesFinishedBelowALeastDistanceAreExactWhereTheyReachIt(fill: Double) {
        let width = 40, height = 30
        var random = SplitMix64(seed: UInt64(fill * 1000) + 7)
        let distance = PrecisionDistance(width: width, height: height)
        var skipped = 0
        for trial in 0..<30 {
            let (mask, x0, x1, y0, y1) = Self.randomMask(&random, width: width, height: height, fill: fill,
                                                         share: 0.8, of: 1, else: 2)
            let exactThrough = y0 - 1 + Int(random.unit() * Double(y1 - y0 + 2))
            let least = Int32(trial % 5 == 0 ? 0 : 1 + Int(random.unit() * 20))
            mask.withUnsafeBufferPointer {
                distance.compute($0.baseAddress!, value: 1, x0: x0, x1: x1, y0: y0, y1: y1, exactThrough: exactThrough)
            }
            distance.finish(below: least)
            for y in y0...y1 {
                for x in x0...x1 {
                    let expected = Self.bruteForce(mask, width: width, value: 1, x0: x0, x1: x1, y0: y0, y1: y1, x: x, y: y)
                    let got = distance.squared[y * width + x]
                    let exact = y <= exactThrough || expected >= least || expected == 0
                    let right = exact ? got == expected : got >= 1 && got < least
                    if !exact && got != expected { skipped += 1 }
                    #expect(right, "trial \(trial), pixel (\(x), \(y)): \(got) for \(expected), rows to \(exactThrough) exact, least \(least)")
                    if !right { return }
                }
            }
        }
        #expect(skipped > 100, "\(skipped) distances left inexact")
    }

    /// The mask with the holes of the region of `value` in the rectangle
    /// filled, by flooding the other pixels from the rectangle's border one
    /// pixel at a time (4-connected): what PrecisionHoles must give exactly.
    static func floodedHoles(_ mask: [UInt8], width: Int, value: UInt8, x0: Int, x1: Int, y0: Int, y1: Int) -> [UInt8] {
        var outside = [Bool](repeating: false, count: mask.count)
        var pending: [(Int, Int)] = []
        for y in y0...y1 { for x in x0...x1 where x == x0 || x == x1 || y == y0 || y == y1 { pending.append((x, y)) } }
        while let (x, y) = pending.popLast() {
            guard x >= x0 && x <= x1 && y >= y0 && y <= y1 else { continue }
            let i = y * width + x
            guard mask[i] != value && !outside[i] else { continue }
            outside[i] = true
            pending += [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        }
        var filled = mask
        for y in y0...y1 { for x in x0...x1 where mask[y * width + x] != value && !outside[y * width + x] {
            filled[y * width + x] = value
        } }
        return filled
    }

    @Test func aHoleIsFilledAndANotchOpenToTheBorderIsNot() {
        // A ring of 2s with a hole (0 and 1: any other value) and a notch
        // reaching the box's right edge through a gap one pixel wide.
        let rows = ["........",
                    ".222222.",
                    ".201022.",
                    ".200022.",
                    ".222200.",
                    ".222222.",
                    "........"]
        let width = 8
        var mask = rows.flatMap { $0.map { $0 == "2" ? UInt8(2) : $0 == "1" ? 1 : 0 } }
        let holes = PrecisionHoles(width: width, height: rows.count)
        mask.withUnsafeMutableBufferPointer { holes.fill($0.baseAddress!, stride: width, value: 2, x0: 1, x1: 6, y0: 1, y1: 5) }
        let filled = mask
        // The hole (rows 2 and 3) is now the region's, the notch (row 4) is not:
        // a diagonal step does not close it, as the region is 8-connected.
        #expect(Array(filled[(2 * width + 1)...(2 * width + 6)]) == [2, 2, 2, 2, 2, 2])
        #expect(Array(filled[(3 * width + 1)...(3 * width + 6)]) == [2, 2, 2, 2, 2, 2])
        #expect(Array(filled[(4 * width + 1)...(4 * width + 6)]) == [2, 2, 2, 2, 0, 0])
        #expect(filled[0 * width + 3] == 0 && filled[3 * width + 7] == 0, "outside the box: untouched")
    }

    /// A body 48 rows tall (a large hole: 4 rows and columns; its upper
    /// third: rows 0-15) with two holes: a large one (5 x 5, rows `top` to
    /// `top` + 4) and a small one (3 x 3, rows 30-32). `departure` says how
    /// far each hole pixel departs from the scene.
    static func twoHoles(top: Int = 10, departure: (_ x: Int, _ y: Int) -> Int) -> [UInt8] {
        let width = 12, height = 48
        var mask = [UInt8](repeating: 2, count: width * height)
        for y in top...(top + 4) { for x in 3...7 { mask[y * width + x] = 0 } }
        for y in 30...32 { for x in 4...6 { mask[y * width + x] = 0 } }
        let holes = PrecisionHoles(width: width, height: height)
        mask.withUnsafeMutableBufferPointer {
            holes.fill($0.baseAddress!, stride: width, value: 2, x0: 0, x1: width - 1, y0: 0, y1: height - 1) { i, y in
                (departure: departure(i % width, y), threshold: 12)
            }
        }
        return mask
    }

    @Test func aLargeHoleOfTheSceneStaysOpen() {
        // The scene itself (noise about it): a forearm raised to the head encloses it.
        let noise = [3, -2, 0, 1, -3, 2, -1]
        let open = Self.twoHoles { x, y in noise[(x + 3 * y) % noise.count] }
        #expect(open[12 * 12 + 5] == 0 && open[10 * 12 + 3] == 0, "the large hole is left open")
        #expect(open[31 * 12 + 5] == 2, "a small hole is filled whatever lies in it (a limb across the torso)")
        // Its edge pixels (beside the body) lean towards it; only the inner ones count.
        let leaning = Self.twoHoles { x, y in x == 3 || x == 7 || y == 10 || y == 14 ? 12 : 0 }
        #expect(leaning[12 * 12 + 5] == 0)
        // Ending below the upper third (row 16 on): across the chest, filled
        // as camouflage whatever the background says (it may hold a ghost).
        let lower = Self.twoHoles(top: 12) { x, y in noise[(x + 3 * y) % noise.count] }
        #expect(lower[14 * 12 + 5] == 2)
    }

    @Test func aLargeHoleThatDepartsFromTheSceneIsFilled() {
        // A camouflaged part: every pixel a third of the threshold off the scene, the same way.
        let filled = Self.twoHoles { _, _ in 4 }
        #expect(filled[12 * 12 + 5] == 2 && filled[10 * 12 + 3] == 2 && filled[31 * 12 + 5] == 2)
        let below = Self.twoHoles { _, _ in 3 }
        #expect(below[12 * 12 + 5] == 0)
    }

    @Test(arguments: [0.3, 0.55, 0.8])
    func holesAreThoseAFloodFromTheBorderFinds(fill: Double) {
        let width = 40, height = 30
        var random = SplitMix64(seed: UInt64(fill * 1000) + 7)
        let holes = PrecisionHoles(width: width, height: height)
        for trial in 0..<40 {
            let (drawn, x0, x1, y0, y1) = Self.randomMask(&random, width: width, height: height, fill: fill,
                                                          share: 0.9, of: 3, else: 1)
            var mask = drawn
            let expected = Self.floodedHoles(mask, width: width, value: 3, x0: x0, x1: x1, y0: y0, y1: y1)
            mask.withUnsafeMutableBufferPointer {
                holes.fill($0.baseAddress!, stride: width, value: 3, x0: x0, x1: x1, y0: y0, y1: y1)
            }
            let wrong = mask.indices.first { mask[$0] != expected[$0] }
            #expect(wrong == nil, "trial \(trial), box \(x0)...\(x1) x \(y0)...\(y1): pixel \(wrong ?? 0) % \(width)")
            if wrong != nil { return }
        }
    }

    /// A disc's rows, its reach and whole square root come back as the
    /// square roots would give them, bit for bit: from the kept tables
    /// (asked twice, and after other distances filled them) and past them,
    /// for every squared distance a torso of the work image can have.
    @Test func discRowsAreTheSquareRootsExactly() {
        let rows = DiscRows(width: 320, height: 240)
        for pass in 0..<2 {
            for squared in Int32(1)...Int32(DiscRows.keptSquared + 300) {
                let radius = Double(squared).squareRoot() - 0.5
                #expect(DiscRows.radius(squared) == radius)
                #expect(rows.reach(squared) == Int(radius), "squared \(squared)")
                let root = Int(Double(squared).squareRoot())
                #expect(rows.wholeRoot(squared) == (root * root == Int(squared) ? root : -1), "squared \(squared)")
                let halfWidths = rows.halfWidths(squared)
                for dy in 0...Int(radius) {
                    let expected = (radius * radius - Double(dy * dy)).squareRoot()
                    #expect(halfWidths[dy].bitPattern == expected.bitPattern, "pass \(pass), squared \(squared), row \(dy)")
                    if halfWidths[dy] != expected { return }
                }
            }
        }
    }
}

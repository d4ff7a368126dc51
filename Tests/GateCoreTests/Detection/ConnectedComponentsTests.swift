import Testing
@testable import GateCore

@Suite struct ConnectedComponentsTests {
    func image(_ rows: [String]) -> [UInt8] {
        rows.flatMap { $0.map { $0 == "#" ? UInt8(200) : UInt8(0) } }
    }

    @Test func picksTheLargestComponentWithItsBox() throws {
        let pixels = image([
            "##......",
            "##...###",
            ".....###",
            "....####",
            "........",
        ])
        let cc = ConnectedComponents(width: 8, height: 5)
        let largest = try #require(pixels.withUnsafeBufferPointer { cc.largest(in: $0.baseAddress!, threshold: 100) })
        #expect(largest.area == 10)
        #expect(largest.minX == 4 && largest.maxX == 7 && largest.minY == 1 && largest.maxY == 3)
        #expect(largest.centroidX == 5.8)   // (3x6 + 3x6 + 4x5.5) / 10
    }

    @Test func joinsDiagonalNeighbours() throws {
        let pixels = image([
            "#.......",
            ".#......",
            "..#.....",
            "...###..",
        ])
        let cc = ConnectedComponents(width: 8, height: 4)
        let largest = try #require(pixels.withUnsafeBufferPointer { cc.largest(in: $0.baseAddress!, threshold: 100) })
        #expect(largest.area == 6)
        #expect(largest.height == 4)
    }

    @Test func joinsUShapesThroughTheirBottom() throws {
        // Two columns that only meet at the bottom row: one component (union-find merges late).
        let pixels = image([
            "#..#..#.",
            "#..#..#.",
            "#..#..#.",
            "########",
        ])
        let cc = ConnectedComponents(width: 8, height: 4)
        let largest = try #require(pixels.withUnsafeBufferPointer { cc.largest(in: $0.baseAddress!, threshold: 100) })
        #expect(largest.area == 17)
        #expect(largest.minX == 0 && largest.maxX == 7 && largest.height == 4)
    }

    @Test func emptyImageHasNoComponent() {
        let pixels = [UInt8](repeating: 0, count: 64)
        let cc = ConnectedComponents(width: 8, height: 8)
        #expect(pixels.withUnsafeBufferPointer { cc.largest(in: $0.baseAddress!, threshold: 100) } == nil)
    }
}

import Testing
@testable import GateCore

@Suite struct PrecisionSilhouetteTests {
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
            var mask = [UInt8](repeating: 0, count: width * height)
            for i in mask.indices where random.unit() < fill { mask[i] = random.unit() < 0.8 ? 1 : 2 }
            let x0 = Int(random.unit() * 10), x1 = width - 1 - Int(random.unit() * 10)
            let y0 = Int(random.unit() * 8), y1 = height - 1 - Int(random.unit() * 8)
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
}

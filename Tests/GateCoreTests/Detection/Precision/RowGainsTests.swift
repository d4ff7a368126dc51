import Testing
import Foundation
@testable import GateCore

/// Step 1: each row's gain against the background.
@Suite struct RowGainsTests {
    /// A row's gain is the median of its samples' ratios (every eighth
    /// pixel from y mod 8, backgrounds of 16 or more), each ratio's whole
    /// part as single precision gives it, exactly: the vector path's whole
    /// parts (no conversion) and its tail's, from any guess. Backgrounds
    /// anywhere from 0 up, lumas anywhere, so ratios land on and beside
    /// whole numbers; work widths of 320 and 322 (a tail of samples).
    @Test(arguments: [640, 644])
    func aRowsGainIsItsMedianRatioExactly(sourceWidth: Int) {
        let detector = PrecisionDetector(width: sourceWidth, height: 480)
        let width = detector.width
        var random = SplitMix64(seed: UInt64(sourceWidth))
        for trial in 0..<400 {
            let y = trial % detector.height
            let model = detector.background + y * width, row = detector.current + y * width
            // Some rows nearly all dark (fewer than eight samples: gain 1).
            let darkShare = trial % 10 == 0 ? 0.95 : 0.1
            for x in 0..<width {
                model[x] = random.unit() < darkShare ? Int32(random.unit() * Double(16 << 16))
                    : Int32(random.unit() * Double(255 << 16))
                row[x] = UInt8(random.unit() * 255.99)
                // Ratios of whole lumas: many land on whole numbers exactly.
                if trial % 2 == 0 { model[x] = model[x] & ~0xFFFF }
            }
            var ratios: [Int32] = []
            for x in stride(from: y & 7, to: width, by: 8) where model[x] >= 16 << 16 {
                ratios.append(Int32(Float(row[x]) * 268_435_456 / Float(model[x])))
            }
            let expected = ratios.count < 8 ? 4096 : max(256, ratios.sorted()[ratios.count / 2])
            for guess: Int32 in [4096, 0, 30_000] {
                let gain = detector.rowGains.rowGain(row, y: y, near: guess)
                #expect(gain == expected, "trial \(trial), row \(y), \(ratios.count) samples, guess \(guess)")
            }
        }
    }
}

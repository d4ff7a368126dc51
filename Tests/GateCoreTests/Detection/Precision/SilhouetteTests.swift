import Testing
import Foundation
@testable import GateCore

/// Step 2: the silhouette's still counts.
@Suite struct SilhouetteTests {
    /// The still counts in vector lanes (`stillCounts`, eight pixels at a
    /// time from the word holding the span's first pixel, one at a time
    /// past the row's last whole word) give exactly what the per-pixel form
    /// in 64-bit arithmetic gives: counted on where a silhouette pixel
    /// changed by at most the bound since the last frame (brought to the
    /// background's light), 0 elsewhere; hidden after `hide` frames,
    /// absorbed into the model after `absorb`. A work image 322 pixels wide
    /// (a 644-pixel frame halved) has a row end that is no whole word.
    @Test(arguments: [256, 3000, 4096, 5000, 16383])
    func theVectorStillCountsAreThePerPixelOnesExactly(gain: Int) {
        let detector = PrecisionDetector(width: 644, height: 480)
        let width = detector.width
        #expect(width % 8 != 0)
        var random = SplitMix64(seed: UInt64(gain))
        let absorb: UInt8 = 60, hide: UInt8 = 24
        for trial in 0..<40 {
            let y = Int(random.unit() * Double(detector.height))
            let row = y * width
            let previousGain = max(256, min(16383, gain + Int((random.unit() - 0.5) * 400)))
            let inverse = (1 << 40) / gain, previousInverse = (1 << 40) / previousGain
            let bound = Int(random.unit() * 12) * 92_682
            var first = Int(random.unit() * Double(width)), last = Int(random.unit() * Double(width))
            if first > last { swap(&first, &last) }
            if trial % 3 == 0 { last = width - 1 }   // the row's end, past its last whole word
            var expectedMask = [UInt8](repeating: 0, count: width), expectedStill = [UInt8](repeating: 0, count: width)
            var expectedModel = [Int32](repeating: 0, count: width)
            var expectedCount = 0, expectedHid = false
            for x in 0..<width {
                let i = row + x
                detector.background[i] = Int32(random.unit() * Double(255 << 16))
                detector.background16[i] = SceneModel.narrow(detector.background[i])
                detector.previous[i] = UInt8(random.unit() * 255.99)
                // Half the pixels about as they were (still at some bounds), half anything.
                let near = Int(detector.previous[i]) + Int((random.unit() - 0.5) * 6)
                detector.current[i] = random.unit() < 0.5 ? UInt8(max(0, min(255, near))) : UInt8(random.unit() * 255.99)
                let inSpan = x >= first && x <= last
                detector.mask[i] = inSpan && (x == first || x == last || random.unit() < 0.6) ? 1 : 0
                // Counts near the thresholds as often as not.
                let counts: [UInt8] = [0, 5, hide - 1, hide, absorb - 2, absorb - 1]
                detector.scene.still[i] = detector.mask[i] == 0 && !inSpan ? 0 : counts[Int(random.unit() * 5.99)]
                expectedMask[x] = detector.mask[i]
                expectedModel[x] = detector.background[i]
                guard inSpan else { continue }
                guard detector.mask[i] != 0 else { continue }
                expectedCount += 1
                let value = (Int(detector.current[i]) * inverse) >> 12
                let change = value - ((Int(detector.previous[i]) * previousInverse) >> 12)
                guard abs(change) <= bound else { continue }
                let n = detector.scene.still[i] + 1
                if n >= absorb {
                    expectedModel[x] = Int32(value)
                } else {
                    expectedStill[x] = n
                    if n >= hide { expectedMask[x] = PrecisionDetector.hidden; expectedHid = true }
                }
            }
            var hid = false
            let count = detector.silhouette.stillCounts(row, from: first, through: last, inverse: inverse,
                                             previousInverse: previousInverse, stillBound: bound,
                                             absorb: absorb, hide: hide, hid: &hid)
            let wrong = (first...last).first { x in
                detector.mask[row + x] != expectedMask[x] || detector.scene.still[row + x] != expectedStill[x]
                    || detector.background[row + x] != expectedModel[x]
                    || detector.background16[row + x] != SceneModel.narrow(expectedModel[x])
            }
            #expect(wrong == nil && count == expectedCount && hid == expectedHid,
                    "gain \(gain), trial \(trial), span \(first)...\(last): pixel \(wrong ?? -1), count \(count) for \(expectedCount), hid \(hid)")
        }
    }
}

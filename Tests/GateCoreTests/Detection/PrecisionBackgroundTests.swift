import Testing
import Foundation
@testable import GateCore

@Suite struct PrecisionBackgroundTests {
    /// The empty pixels' slow update in 32-bit vector lanes (`upkeep`) gives
    /// exactly what the per-pixel form in 64-bit arithmetic gives, for any
    /// gain `rowGain` can give (1/16 to 4) and any step: the model moves
    /// 2^-shift of the way to (luma x inverse) >> 12, silhouette pixels
    /// keep their model, and the narrow model is the model narrowed (as
    /// every writer of the model keeps it).
    @Test(arguments: [256, 1000, 4095, 4096, 4097, 9001, 16383])
    func theVectorUpkeepIsThePerPixelOneExactly(gain: Int) {
        let detector = PrecisionDetector(width: 640, height: 480)
        let width = detector.width
        var random = SplitMix64(seed: UInt64(gain))
        let inverse = (1 << 40) / gain
        for shift in [0, 1, 3, 6] {
            var expected = [Int32](repeating: 0, count: width)
            var expected16 = [UInt16](repeating: 0, count: width)
            for x in 0..<width {
                // Any model a row can hold (up to 4 x 255, where a gain below 1 takes it), any luma.
                detector.background[x] = Int32(random.unit() * Double(1020 << 16))
                detector.background16[x] = PrecisionDetector.narrow(detector.background[x])
                detector.current[x] = UInt8(random.unit() * 255.99)
                detector.mask[x] = random.unit() < 0.3 ? (random.unit() < 0.5 ? 1 : PrecisionDetector.hidden) : 0
                expected[x] = detector.background[x]
                expected16[x] = detector.background16[x]
                if detector.mask[x] == 0 {
                    let b = Int(detector.background[x])
                    let target = (Int(detector.current[x]) * inverse) >> 12
                    expected[x] = Int32(truncatingIfNeeded: b + ((target - b) >> shift))
                    expected16[x] = PrecisionDetector.narrow(expected[x])
                }
            }
            detector.upkeep(0, inverse: inverse, shift: shift)
            let model = Array(UnsafeBufferPointer(start: detector.background, count: width))
            let model16 = Array(UnsafeBufferPointer(start: detector.background16, count: width))
            let wrong = (0..<width).first { model[$0] != expected[$0] || model16[$0] != expected16[$0] }
            #expect(wrong == nil, "gain \(gain), shift \(shift): pixel \(wrong ?? 0)")
        }
    }

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
                let gain = detector.rowGain(row, y: y, near: guess)
                #expect(gain == expected, "trial \(trial), row \(y), \(ratios.count) samples, guess \(guess)")
            }
        }
    }

    /// The slow update keeps its pace at every frame rate and never steps
    /// more than an eighth of the way: it runs on every fourth row each
    /// frame, in steps four times as large. An empty scene 8 lumas brighter
    /// than its model (inside the threshold) is followed by the same share
    /// after one second at 30, 60, 120 and 240 fps, 1 - e^(-1 / 1.07) at a
    /// 2 s time constant (2^updateShift frames: 32 at 30 fps, 1.07 s); and
    /// no pixel's model moves more than an eighth of what is left in one
    /// frame. Fails with steps not scaled to the rows, or with every eighth
    /// row in steps eight times as large (at 30 fps, steps of a quarter).
    @Test func theSlowUpdateKeepsItsPaceAndItsStepsAtEveryFrameRate() {
        var shares: [Int: Double] = [:]
        for fps in [30, 60, 120, 240] {
            let detector = PrecisionDetector(width: 128, height: 96)
            let count = detector.pixelCount
            for i in 0..<count {
                detector.background[i] = 100 << 16
                detector.background16[i] = PrecisionDetector.narrow(detector.background[i])
                detector.current[i] = 108
                detector.previous[i] = 108
            }
            for y in 0..<detector.height {
                detector.gain[y] = 4096; detector.previousGain[y] = 4096; detector.threshold[y] = 20
            }
            let interval = Int64(1_000_000_000 / fps)
            for i in 0..<3 { detector.noteFrameInterval(Int64(i) * interval) }
            var largestStep = 0.0
            for _ in 0..<fps {
                let before = Array(UnsafeBufferPointer(start: detector.background, count: count))
                #expect(detector.segment() == 0)
                for i in 0..<count {
                    let left = Double((108 << 16) - Int(before[i]))
                    largestStep = max(largestStep, Double(Int(detector.background[i]) - Int(before[i])) / left)
                }
            }
            let moved = (0..<count).reduce(0.0) { $0 + Double(Int(detector.background[$1]) - (100 << 16)) }
            shares[fps] = moved / Double(count * (8 << 16))
            #expect(largestStep <= 0.125, "\(fps) fps: a step took \(largestStep) of the way")
        }
        let expected = 1 - exp(-1 / 1.07)
        for (fps, share) in shares.sorted(by: { $0.key < $1.key }) {
            #expect(abs(share - expected) < 0.03, "\(fps) fps: \(share) of the way after 1 s, expected \(expected)")
        }
    }

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
                detector.background16[i] = PrecisionDetector.narrow(detector.background[i])
                detector.previous[i] = UInt8(random.unit() * 255.99)
                // Half the pixels about as they were (still at some bounds), half anything.
                let near = Int(detector.previous[i]) + Int((random.unit() - 0.5) * 6)
                detector.current[i] = random.unit() < 0.5 ? UInt8(max(0, min(255, near))) : UInt8(random.unit() * 255.99)
                let inSpan = x >= first && x <= last
                detector.mask[i] = inSpan && (x == first || x == last || random.unit() < 0.6) ? 1 : 0
                // Counts near the thresholds as often as not.
                let counts: [UInt8] = [0, 5, hide - 1, hide, absorb - 2, absorb - 1]
                detector.still[i] = detector.mask[i] == 0 && !inSpan ? 0 : counts[Int(random.unit() * 5.99)]
                expectedMask[x] = detector.mask[i]
                expectedModel[x] = detector.background[i]
                guard inSpan else { continue }
                guard detector.mask[i] != 0 else { continue }
                expectedCount += 1
                let value = (Int(detector.current[i]) * inverse) >> 12
                let change = value - ((Int(detector.previous[i]) * previousInverse) >> 12)
                guard abs(change) <= bound else { continue }
                let n = detector.still[i] + 1
                if n >= absorb {
                    expectedModel[x] = Int32(value)
                } else {
                    expectedStill[x] = n
                    if n >= hide { expectedMask[x] = PrecisionDetector.hidden; expectedHid = true }
                }
            }
            var hid = false
            let count = detector.stillCounts(row, from: first, through: last, inverse: inverse,
                                             previousInverse: previousInverse, stillBound: bound,
                                             absorb: absorb, hide: hide, hid: &hid)
            let wrong = (first...last).first { x in
                detector.mask[row + x] != expectedMask[x] || detector.still[row + x] != expectedStill[x]
                    || detector.background[row + x] != expectedModel[x]
                    || detector.background16[row + x] != PrecisionDetector.narrow(expectedModel[x])
            }
            #expect(wrong == nil && count == expectedCount && hid == expectedHid,
                    "gain \(gain), trial \(trial), span \(first)...\(last): pixel \(wrong ?? -1), count \(count) for \(expectedCount), hid \(hid)")
        }
    }

    /// `upkeep` makes every pixel's narrow model from its model, moved or
    /// not, so `background16` must be `narrow(background)` everywhere after
    /// every frame once the scene is learnt: through a runner's ghost hidden
    /// and absorbed (they stood in view while it was learnt), flicker, a
    /// cloud, and the scene learnt again after a bumped camera.
    @Test(arguments: [SceneLearning.calibration, .firstFrames])
    func theNarrowModelIsTheModelNarrowedAfterEveryFrame(learning: SceneLearning) {
        var scene = PrecisionScene()
        scene.fps = 120
        scene.flicker = 0.08
        scene.runners = [PrecisionScene.Runner(crossing: 1.45, lean: 0.4, acceleration: 400, start: 1.0)]
        scene.lightStepAt = 1.7
        scene.lightFactor = 0.75
        scene.shiftAt = 2.0
        scene.shift = 3
        var checked = 0, absorbed = 0
        var wrong: String?
        var before = [Int32](repeating: 0, count: 0)
        _ = scene.detect(seconds: 2.3, learning: learning) { d, i in
            guard d.isCalibrated, wrong == nil else { return }
            let model = UnsafeBufferPointer(start: d.background, count: d.pixelCount)
            if before.count == d.pixelCount && Double(i) / scene.fps < scene.shiftAt {
                // Pixels whose model jumped by more than upkeep's steps, before
                // the bump (whose scene is learnt anew, every pixel): absorbed.
                for p in 0..<d.pixelCount where abs(Int(model[p]) - Int(before[p])) > 8 << 16 { absorbed += 1 }
            }
            before = Array(model)
            for p in 0..<d.pixelCount where d.background16[p] != PrecisionDetector.narrow(d.background[p]) {
                wrong = "frame \(i), pixel \(p): \(d.background16[p]) for \(d.background[p])"
                break
            }
            checked += 1
        }
        #expect(wrong == nil, "\(learning): \(wrong ?? "")")
        #expect(checked > 100 && absorbed > 100, "\(learning): \(checked) frames checked, \(absorbed) pixels absorbed")
    }
}

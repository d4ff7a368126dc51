import Testing
import Foundation
@testable import GateCore

/// The empty scene: its slow update and its narrow copy.
@Suite struct SceneModelTests {
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
                detector.background16[x] = SceneModel.narrow(detector.background[x])
                detector.current[x] = UInt8(random.unit() * 255.99)
                detector.mask[x] = random.unit() < 0.3 ? (random.unit() < 0.5 ? 1 : PrecisionDetector.hidden) : 0
                expected[x] = detector.background[x]
                expected16[x] = detector.background16[x]
                if detector.mask[x] == 0 {
                    let b = Int(detector.background[x])
                    let target = (Int(detector.current[x]) * inverse) >> 12
                    expected[x] = Int32(truncatingIfNeeded: b + ((target - b) >> shift))
                    expected16[x] = SceneModel.narrow(expected[x])
                }
            }
            detector.scene.upkeep(0, inverse: inverse, shift: shift)
            let model = Array(UnsafeBufferPointer(start: detector.background, count: width))
            let model16 = Array(UnsafeBufferPointer(start: detector.background16, count: width))
            let wrong = (0..<width).first { model[$0] != expected[$0] || model16[$0] != expected16[$0] }
            #expect(wrong == nil, "gain \(gain), shift \(shift): pixel \(wrong ?? 0)")
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
                detector.background16[i] = SceneModel.narrow(detector.background[i])
                detector.current[i] = 108
                detector.previous[i] = 108
            }
            for y in 0..<detector.height {
                detector.gain[y] = 4096; detector.previousGain[y] = 4096; detector.threshold[y] = 20
            }
            let interval = Int64(1_000_000_000 / fps)
            for i in 0..<3 { detector.scene.noteFrameInterval(Int64(i) * interval) }
            var largestStep = 0.0
            for _ in 0..<fps {
                let before = Array(UnsafeBufferPointer(start: detector.background, count: count))
                #expect(detector.silhouette.segment() == 0)
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
            for p in 0..<d.pixelCount where d.background16[p] != SceneModel.narrow(d.background[p]) {
                wrong = "frame \(i), pixel \(p): \(d.background16[p]) for \(d.background[p])"
                break
            }
            checked += 1
        }
        #expect(wrong == nil, "\(learning): \(wrong ?? "")")
        #expect(checked > 100 && absorbed > 100, "\(learning): \(checked) frames checked, \(absorbed) pixels absorbed")
    }
}

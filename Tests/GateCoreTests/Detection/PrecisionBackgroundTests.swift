import Testing
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

import Testing
@testable import GateCore

@Suite struct PhotoFinishDetectorTests {
    @Test func timesATorsoCrossingToWithinOneAndAHalfMilliseconds() throws {
        let scene = SyntheticScene()
        let crossings = scene.detect(frames: 120)
        #expect(crossings.count == 1)
        let c = try #require(crossings.first)
        let truth = scene.truth(reaching: 160)
        let errorMs = (Double(c.timeNanos) / 1e9 - truth) * 1000
        // A work pixel is 2.5 ms at this speed: the front is found to a small fraction of one.
        #expect(abs(errorMs) < 0.3, "error \(errorMs) ms")
        #expect(c.direction == .leftToRight)
        #expect(abs(c.velocityWorkPixelsPerSecond - 400) < 20)
    }

    @Test func rightToLeftCrossingsAreTimedToo() throws {
        var scene = SyntheticScene()
        // Mirror: a torso moving left, its front the left edge.
        scene.frontAtZero = 360
        scene.speedPixelsPerSecond = -400
        // Render the mirrored scene by flipping columns.
        let detector = PhotoFinishDetector(width: scene.width, height: scene.height)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: scene.width * scene.height)
        let flipped = UnsafeMutablePointer<UInt8>.allocate(capacity: scene.width * scene.height)
        defer { pixels.deallocate(); flipped.deallocate() }
        var mirror = SyntheticScene()
        mirror.frontAtZero = 320 - 360
        mirror.speedPixelsPerSecond = 400
        var found: [DetectedCrossing] = []
        for i in 0..<120 {
            mirror.render(frame: i, into: pixels)
            for y in 0..<scene.height { for x in 0..<scene.width { flipped[y * scene.width + x] = pixels[y * scene.width + scene.width - 1 - x] } }
            let frame = LumaFrame(pixels: flipped, width: scene.width, height: scene.height, rowStride: scene.width,
                                  timestampNanos: Int64((Double(i) / scene.fps * 1e9).rounded()), sequence: UInt32(i))
            if let c = detector.process(frame) { found.append(c) }
        }
        let c = try #require(found.first)
        #expect(found.count == 1)
        #expect(c.direction == .rightToLeft)
        let errorMs = (Double(c.timeNanos) / 1e9 - mirror.truth(reaching: 160)) * 1000
        #expect(abs(errorMs) < 1.5, "error \(errorMs) ms")
    }

    @Test func anArmAheadOfTheTorsoDoesNotMoveTheTime() throws {
        var withArm = SyntheticScene()
        withArm.armReach = 30
        let plain = try #require(SyntheticScene().detect(frames: 120).first)
        let armed = try #require(withArm.detect(frames: 120).first)
        // 30 px of arm at 400 px/s would be 75 ms early if it counted.
        #expect(abs(Double(armed.timeNanos - plain.timeNanos) / 1e6) < 1.0)
    }

    @Test func aSmallObjectDoesNotTrigger() {
        var ball = SyntheticScene()
        ball.bodyTop = 200; ball.bodyBottom = 215
        ball.torsoDepth = 15
        #expect(ball.detect(frames: 120).isEmpty)
    }

    @Test func aGlobalBrightnessStepDoesNotTrigger() {
        var cloud = SyntheticScene()
        cloud.bodyTop = 0; cloud.bodyBottom = 0
        cloud.brightnessStep = -40
        cloud.brightnessStepFrame = 40
        #expect(cloud.detect(frames: 80).isEmpty)
    }

    @Test func aRollingShutterDeclaredIsTimedAtTheTruth() throws {
        // Rows read out over 10 ms: the torso's rows were exposed up to 10 ms
        // after the top row's timestamp, and the front in the image slants.
        var scene = SyntheticScene()
        scene.readoutSeconds = 0.010
        var settings = DetectorSettings()
        settings.readoutNanos = 10_000_000
        let c = try #require(scene.detect(frames: 120, settings: settings).first)
        let errorMs = (Double(c.timeNanos) / 1e9 - scene.truth(reaching: 160)) * 1000
        #expect(abs(errorMs) < 0.5, "error \(errorMs) ms")
    }

    @Test func isReadyAfterItsWarmupFramesWithoutCalibration() {
        // A torso entering the view right after warm-up is timed: the
        // background is the first frame, refined by the next ten.
        var scene = SyntheticScene()
        scene.frontAtZero = 160 - 400 * 0.15   // on the gate line at 0.15 s, frame 18
        let detector = PhotoFinishDetector(width: scene.width, height: scene.height)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: scene.width * scene.height)
        defer { pixels.deallocate() }
        var found: [DetectedCrossing] = []
        var warmAt = -1
        for i in 0..<40 {
            // Empty until the torso enters at frame 11.
            if i < 11 {
                SyntheticScene(bodyTop: 0, bodyBottom: 0).render(frame: i, into: pixels)
            } else {
                scene.render(frame: i, into: pixels)
            }
            let frame = LumaFrame(pixels: pixels, width: scene.width, height: scene.height, rowStride: scene.width,
                                  timestampNanos: Int64((Double(i) / scene.fps * 1e9).rounded()), sequence: UInt32(i))
            if let c = detector.process(frame) { found.append(c) }
            if warmAt < 0 && detector.isWarm { warmAt = i }
        }
        #expect(warmAt == 10)
        #expect(found.count == 1)
        if let c = found.first {
            let errorMs = (Double(c.timeNanos) / 1e9 - scene.truth(reaching: 160)) * 1000
            #expect(abs(errorMs) < 1.0, "error \(errorMs) ms")
        }
    }

    @Test func rearmsForASecondPassButNotWithinTheCooldown() {
        // Two torsos 0.6 s apart pass the gate: both are timed.
        var first = SyntheticScene()
        first.frontAtZero = -40
        let detector = PhotoFinishDetector(width: first.width, height: first.height)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: first.width * first.height)
        defer { pixels.deallocate() }
        var count = 0
        for i in 0..<260 {
            // The second pass starts 1.1 s later, rendered by shifting time.
            let local = i < 130 ? i : i - 130
            first.render(frame: local, into: pixels)
            let frame = LumaFrame(pixels: pixels, width: first.width, height: first.height, rowStride: first.width,
                                  timestampNanos: Int64(Double(i) / first.fps * 1e9), sequence: UInt32(i))
            if detector.process(frame) != nil { count += 1 }
        }
        #expect(count == 2)
    }

    @Test func learnsEachRowsNoiseDuringWarmup() {
        let scene = SyntheticScene()
        let detector = PhotoFinishDetector(width: scene.width, height: scene.height)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: scene.width * scene.height)
        defer { pixels.deallocate() }
        var noise = SplitMix64(seed: 3)
        for i in 0..<15 {
            for p in 0..<(scene.width * scene.height) { pixels[p] = UInt8(100 + Int(noise.next() % 40)) }
            _ = detector.process(LumaFrame(pixels: pixels, width: scene.width, height: scene.height,
                                           rowStride: scene.width, timestampNanos: Int64(i) * 8_333_333, sequence: UInt32(i)))
        }
        #expect(detector.isWarm)
        // Uniform noise 40 wide: sigma 11.5, a threshold of four sigmas, 46.
        for y in [0, 100, detector.workHeight - 1] {
            let t = detector.noiseThreshold(row: y)
            #expect(t >= 38 && t <= 56, "row \(y): threshold \(t)")
        }
    }
}

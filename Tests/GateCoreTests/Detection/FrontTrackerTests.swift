import Testing
@testable import GateCore

/// The sub-frame fit on its own: fronts of a runner accelerating from a
/// standing start (as `PrecisionDetector` hands them over), 30 fps, with
/// the detectors' postroll.
@Suite struct FrontTrackerTests {
    static let gateX = 150.0
    static let fps = 30.0
    /// The truth: the front reaches the gate 0.4 of a frame after frame 10,
    /// at 120 px/s, accelerating at 300 px/s^2 (about 0.15 m per 7 px: a
    /// start at 4 m/s^2).
    static let crossingSeconds = 10.4 / fps
    static func truth(_ seconds: Double) -> Double {
        let t = seconds - crossingSeconds
        return gateX + 120 * t + 150 * t * t
    }

    /// Feeds frames 0..<`frames` (`front(i)` of each, nil: no sample), returns the crossings' errors in ms.
    static func errorsMs(frames: Int = 20, jumpLimit: Double = 3.5, front: (Int, Double) -> Double?) -> [Double] {
        var settings = DetectorSettings()
        settings.fitSamples = 8
        settings.minVelocityPixelsPerSecond = 32
        let tracker = FrontTracker(settings: settings, workWidth: 320, gateX: gateX, postroll: 3)
        return feed(tracker, fps: fps, frames: frames, crossingSeconds: crossingSeconds, truth: truth,
                    jumpLimit: jumpLimit, front: front)
    }

    /// As the detectors set it up: at least 4 samples before the line and
    /// every one of the last 100 ms, up to 24; 3 after. A front at 360 px/s
    /// (1.5 px a frame at 240 fps) reaching the gate 0.4 of a frame after
    /// frame `crossingFrame`; `front(i, truth)` as in `errorsMs`.
    static func windowErrorsMs(fps: Double, frames: Int, crossingFrame: Int,
                               front: (Int, Double) -> Double?) -> [Double] {
        var settings = DetectorSettings()
        settings.fitSamples = 24 + 1 + 3
        settings.minVelocityPixelsPerSecond = 32
        let tracker = FrontTracker(settings: settings, workWidth: 320, gateX: gateX, postroll: 3, samplesBefore: 4,
                                   fitSpanNanos: 100_000_000)
        let crossing = (Double(crossingFrame) + 0.4) / fps
        return feed(tracker, fps: fps, frames: frames, crossingSeconds: crossing, truth: { gateX + 360 * ($0 - crossing) },
                    jumpLimit: 4, front: front)
    }

    static func feed(_ tracker: FrontTracker, fps: Double, frames: Int, crossingSeconds: Double,
                     truth: (Double) -> Double, jumpLimit: Double, front: (Int, Double) -> Double?) -> [Double] {
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        defer { pixels.deallocate() }
        var errors: [Double] = []
        for i in 0..<frames {
            let seconds = Double(i) / fps
            let nanos = Int64((seconds * 1e9).rounded())
            guard let f = front(i, truth(seconds)) else { continue }
            let frame = LumaFrame(pixels: pixels, width: 1, height: 1, rowStride: 1, timestampNanos: nanos,
                                  sequence: UInt32(i))
            if let c = tracker.add(front: f, atNanos: nanos, direction: .leftToRight, frame: frame, occupancy: 0.5,
                                   jumpLimit: jumpLimit) {
                errors.append((Double(c.timeNanos) / 1e9 - crossingSeconds) * 1000)
            }
        }
        return errors
    }

    /// An arm the colour of the scene behind it swings across the torso's
    /// front as it reaches the line: two frames without a front, then
    /// fronts held back 6.5 px, coming back over six frames (as measured
    /// in a 240 fps clip). With only the last four samples before the line,
    /// or with every sample before the front came back dropped as if it had
    /// jumped ahead, the fit followed the lagging fronts: 11 ms late.
    @Test(arguments: [120.0, 240.0])
    func aFrontHeldBackAtTheLineIsTimedByTheSamplesBefore(fps: Double) throws {
        let lag = [nil, nil, 6.5, 5.0, 4.1, 2.6, 1.6, 1.0, 1.3, 0.8]
        let start = 36
        let errors = Self.windowErrorsMs(fps: fps, frames: 60, crossingFrame: 40) { i, f in
            guard i >= start && i < start + lag.count else { return f }
            return lag[i - start].map { f - $0 }
        }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 1000 / fps / 4, "errors \(errors) ms")
    }

    @Test func aQuadraticPathIsTimedExactly() throws {
        // Four samples before the line and three after are not symmetric
        // about the crossing: the quadratic's every coefficient matters.
        let errors = Self.errorsMs { _, f in f }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.01)
    }

    @Test func aFrontThatJumpsAheadAndStaysIsTimedFromTheSamplesAfterTheJump() throws {
        // Until frame 11 the measured front lags 8 px (the scene the runner
        // left, still attached behind them, deepened the torso); frame 10
        // is lost as it comes off; from frame 11 on it is the true front,
        // already past the line. Late by about a frame without the jump.
        let errors = Self.errorsMs { i, f in i == 10 ? nil : (i < 11 ? f - 8 : f) }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 1)
    }

    @Test func aJumpAfterTheLineKeepsTheSamplesThatFoundIt() throws {
        // The front reaches the line between frames 10 and 11; from frame 13
        // an arm lies along it, 5 px ahead, to the end of the postroll.
        // Dropping every sample the jump left behind, 11 and 12 beyond the
        // line among them, timed the crossing from the arm's two: 23 ms early.
        let errors = Self.errorsMs { i, f in i >= 13 ? f + 5 : f }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.05, "errors \(errors) ms")
    }

    @Test func aJumpThatRunsBackIsALimbNotAJump() throws {
        // A hand ahead of the torso in the first two frames past the line,
        // 6.5 px and then 3.7 px: within the jump limit of where the first
        // one's speed takes it, but behind it, a front going back (as
        // measured in a 240 fps clip). Taken for a jump, it dropped every
        // sample before it, and the two hand samples in the four left made
        // the fit's speed negative: no crossing.
        let offsets = [41: 6.5, 42: 3.7]
        let errors = Self.windowErrorsMs(fps: 240, frames: 60, crossingFrame: 40) { i, f in f + (offsets[i] ?? 0) }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.5, "errors \(errors) ms")
    }

    @Test func aJumpAtTheLineWaitsForFiveSamplesToLeaveAnOutlierOut() throws {
        // The fronts jump ahead at the line as in
        // `aFrontThatJumpsAheadAndStaysIsTimedFromTheSamplesAfterTheJump`, and
        // frame 13 is held back 3 px (a limb across the front). The jump
        // leaves frame 11 alone before the postroll's three: with four, the
        // outlier test cannot tell one out, and the fit through the held-back
        // one was 5 ms late. The crossing waits for frame 15.
        let errors = Self.errorsMs { i, f in i == 10 ? nil : (i < 11 ? f - 8 : (i == 13 ? f - 3 : f)) }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.05, "errors \(errors) ms")
    }

    @Test func anOutlierAmongFiveSamplesIsLeftOut() throws {
        // The track starts at frame 10 (the runner came into view, or a
        // jump left the samples before it out), 3 px behind: a limb hid
        // part of the front, not far enough to be a jump. Five samples in
        // all at the postroll; any three of them fit a quadratic exactly,
        // so only lines through two tell the outlier. 11 ms late when the
        // quadratic through the outlier was kept.
        let errors = Self.errorsMs { i, f in i < 10 ? nil : (i == 10 ? f - 3 : f) }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.05)
    }

    @Test func oneSampleAheadIsAnOutlierNotAJump() throws {
        // A limb ahead of the torso for one frame: the next front is back on
        // the path; the history stays and the outlier is left out.
        let errors = Self.errorsMs { i, f in i == 8 ? f + 5 : f }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.05)
    }
}

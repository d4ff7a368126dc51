import Testing
@testable import GateCore

/// FrontTracker+Jumps: a front that jumps ahead and stays, or comes back (a limb).
extension FrontTrackerTests {
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

    @Test func aFrontAfterAGapLongerThanThePathIsNoJump() throws {
        // The path of the last four fronts before the gap, carried twelve
        // frames over it, falls 15 px behind the first front after it; the
        // next confirmed it as a jump, and every front before the gap was
        // dropped: the crossing was timed from fronts after the line alone,
        // the arm's among them, 25 ms late. A path tells nothing of a jump
        // that far beyond its own span: the fronts on both sides stay (the
        // arm's ahead of the torso still cost some 8 ms).
        try Self.recordedTimedOnce(Self.armAcrossTheLine, gateX: 152.31, direction: .rightToLeft,
                                   truthNanos: 1_747_126_088, within: 10)
    }

    /// As `armAcrossTheLine`, of a runner accelerating at 5.7 m/s^2 at
    /// 30 fps (640x480, gate at 199.45 px, left to right): no gap, and the
    /// front of frame 54, just past the line, 3 px ahead of its path.
    static let acceleratingAt30fps: [(sequence: UInt32, nanos: Int64, front: Double, limit: Double)] = [
        (41, 1373282370, 20.90, 4.24),
        (42, 1406725737, 32.02, 4.24),
        (43, 1440224118, 43.17, 4.27),
        (44, 1473062305, 55.29, 4.12),
        (45, 1506725737, 69.54, 4.47),
        (46, 1540114086, 81.32, 4.47),
        (47, 1573227354, 95.07, 4.24),
        (48, 1606340623, 109.08, 4.24),
        (49, 1639839005, 124.07, 4.47),
        (50, 1673117321, 138.64, 4.27),
        (51, 1706725737, 154.53, 4.47),
        (52, 1739949037, 170.80, 4.47),
        (53, 1773447419, 187.25, 4.30),
        (54, 1807165867, 207.84, 4.24),
        (55, 1839673956, 222.25, 4.30),
        (56, 1873282370, 240.35, 4.47),
        (57, 1906670720, 258.99, 4.47),
        (58, 1940664248, 279.91, 4.24),
        (59, 1973447419, 297.72, 4.30),
        (60, 2006560688, 317.96, 4.61),
    ]

    @Test func anAcceleratingFrontAt30fpsIsNoJump() throws {
        // Four frames at 30 fps span 0.1 s: the runner's acceleration and
        // one front ahead put frame 54's front 4.4 px ahead of the path of
        // the four before, over the jump limit of 4.2; frame 55 confirmed
        // it, and every front before the line was dropped: 1.5 ms late.
        try Self.recordedTimedOnce(Self.acceleratingAt30fps, gateX: 199.45, direction: .leftToRight,
                                   truthNanos: 1_796_778_033, within: 0.5)
    }

    @Test func aJumpThatRunsBackIsALimbNotAJump() throws {
        // A hand ahead of the torso in the first two frames past the line,
        // 6.5 px and then 3.7 px: within the jump limit of where the first
        // one's speed takes it, but behind it, a front going back (as
        // measured in a 240 fps clip). Taken for a jump, it dropped every
        // sample before it, and the two hand samples in the four left made
        // the fit's speed negative: no crossing.
        let offsets = [41: 6.5, 42: 3.7]
        let errors = Self.windowErrorsMs(fps: 240, frames: 90, crossingFrame: 40) { i, f in f + (offsets[i] ?? 0) }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.5, "errors \(errors) ms")
    }

    /// An arm thrust 25 px ahead of the torso for three frames as it
    /// reaches the line (frames 38-40; the torso reaches it at frame
    /// 40.4), then the torso's front again, on the path it was on. The
    /// arm's second frame confirms a jump, which drops every sample before
    /// it; the torso's next front undoes it (`checkHeldJump`), and the
    /// crossing is the torso's. Left done, the arm was timed: 69 ms early,
    /// at 120 fps as at 240.
    @Test(arguments: [240.0, 120.0])
    func aJumpThatFallsBackOntoTheOldPathWasALimb(fps: Double) throws {
        let errors = Self.windowErrorsMs(fps: fps, frames: 90, crossingFrame: 40) { i, f in (38...40).contains(i) ? f + 25 : f }
        #expect(errors.count == 1)
        #expect(try #require(errors.first).magnitude < 0.5, "errors \(errors) ms")
    }

    /// The fronts `PrecisionDetector` measured of a runner (second
    /// renderer, 120 fps, 640x480, right to left from a standing start,
    /// gate at 140.71 px, the torso there at 2.134691 s): ten on the path,
    /// none for two frames at the line, one held back 5.5 px (257), none
    /// for two, two back near the path, then none for 17 frames (an arm
    /// of the shirt's colour across the front) and more far past the line.
    static let heldBackOnceAtTheLine: [(sequence: UInt32, nanos: Int64, front: Double, limit: Double)] = [
        (245, 2046655836, 157.08, 3.81),
        (246, 2055022157, 155.65, 3.81),
        (247, 2063421462, 154.18, 3.81),
        (248, 2071655836, 152.68, 3.81),
        (249, 2080286047, 151.07, 3.81),
        (250, 2088322503, 149.61, 3.81),
        (251, 2096688823, 147.99, 3.81),
        (252, 2105154102, 145.73, 3.81),
        (253, 2113256531, 145.12, 3.81),
        (254, 2121721809, 141.99, 3.81),
        (257, 2147150630, 143.77, 4.00),
        (258, 2154857225, 137.29, 3.81),
        (261, 2179791253, 133.25, 4.12),
        (279, 2329989170, 96.97, 4.00),
        (280, 2338322503, 94.81, 3.81),
        (281, 2346688823, 92.73, 3.81),
        (282, 2355022157, 90.60, 3.81),
    ]

    /// Against the path bent by the held-back front, the next one (258) is
    /// a jump, and 261 confirms it. It dropped every sample back from the
    /// held-back one, the ten on the path too; the two left were too few
    /// for the outlier test, the crossing waited for more, and the fit
    /// through the three far past the line carried it back 23 ms late. The
    /// lag was brief: the jump is the front coming back, and the held-back
    /// one an outlier.
    @Test func aFrontHeldBackOnceBeforeAJumpIsAnOutlier() throws {
        try Self.recordedTimedOnce(Self.heldBackOnceAtTheLine, gateX: 140.71, direction: .rightToLeft,
                                   truthNanos: 2_134_690_701, within: 2)
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
}

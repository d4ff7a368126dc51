import Testing
@testable import GateCore

/// Step 3: bodies, mended where a limb or the scene cuts them.
@Suite struct BodyFinderTests {
    /// A hand raised ahead of the head, in the head's luma, with the scene
    /// between them: the gap is no camouflage; filled, hand and head were
    /// one mass as deep as a torso, and its front the hand's.
    @Test(arguments: [0.1, 0.25])
    func aHandRaisedBesideTheHeadIsNoTorso(lean: Double) throws {
        var scene = PrecisionScene()
        scene.raisedHandGap = 6
        scene.runners = [PrecisionScene.Runner(crossing: 0.9, speed: 400, lean: lean)]
        try PrecisionTiming.timedOnce(scene, within: 0.3, "lean \(lean): ")
    }

    /// An arm hanging across the torso in a luma within the silhouette's
    /// threshold of the scene (4 and -4 luma off it, the threshold here
    /// about 6) cuts the torso in two; its gap is filled, as its pixels
    /// depart from the scene together, and the sliver in front of it is
    /// the torso's front.
    @Test(arguments: [4.0, -4.0])
    func anArmNearlyTheSceneAcrossTheTorsoKeepsTheTorsoWhole(offset: Double) throws {
        var scene = PrecisionScene()
        scene.hangingArmLuma = scene.background + offset
        scene.runners = [PrecisionScene.Runner(crossing: 0.9, speed: 400, lean: 0.2)]
        try PrecisionTiming.timedOnce(scene, within: 0.3, "arm \(offset) luma off the scene: ")
    }

    /// A slow runner (2 m/s: a torso 0.3 m deep takes 150 ms to pass a
    /// pixel) whose shirt is one colour and has no arm across it keeps the
    /// pixels behind the torso's front unchanged longer than
    /// `hideStillNanos`. They continue the body in its own luma, so they
    /// stay the body's: the torso is measured at its own depth and its
    /// front timed, in both ways of learning the scene.
    @Test(arguments: [SceneLearning.calibration, .firstFrames], [30.0, 120.0])
    func aSlowTorsoOfOneColourKeepsItsBack(learning: SceneLearning, fps: Double) throws {
        var scene = PrecisionScene()
        scene.fps = fps
        scene.runners = [PrecisionScene.Runner(crossing: 1.5, speed: 160)]
        var depths: [Double] = []
        let found = scene.detect(seconds: 1.9, learning: learning) { d, i in
            let t = Double(i) / fps
            if t > 1.3 && t < 1.7 { depths.append(d.lastHalfDepth) }
        }
        try #require(found.count == 1, "\(learning) at \(fps) fps: \(found.count) crossings")
        let error = PrecisionTiming.errorMs(found[0], scene.truth())
        #expect(abs(error) < 1, "\(learning) at \(fps) fps: error \(error) ms")
        // The torso is 12 px deep each side of its axis.
        let shallowest = depths.min() ?? 0
        #expect(shallowest >= 10, "\(learning) at \(fps) fps: half depths \(depths)")
    }
}

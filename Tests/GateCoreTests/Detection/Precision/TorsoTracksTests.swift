import Testing
@testable import GateCore

/// Step 8: tracks that keep their torso and their direction.
@Suite struct TorsoTracksTests {
    /// A fast runner at 30 fps whose trailing leg is as deep as the torso
    /// and of its colour in some runs of frames: the torso found then runs
    /// on down to the foot, and its centroid drops and falls back by more
    /// than twice its half depth. It is the same torso (its rows overlap the
    /// last ones), not a new one: taken for a new one each time, no track
    /// settled its direction with a front on each side of the line, and
    /// these runners were missed.
    @Test(arguments: [SceneLearning.calibration, .firstFrames], [(1, 1200.0), (3, 1000.0), (3, 1100.0)])
    func aTorsoWhoseLegJoinsItInSomeFramesIsFollowed(learning: SceneLearning, legs: (run: Int, speed: Double)) throws {
        var scene = PrecisionScene()
        scene.fps = 30
        scene.deepLegsRun = legs.run
        scene.runners = [PrecisionScene.Runner(crossing: 1.2, speed: legs.speed)]
        let found = scene.detect(seconds: 1.6, learning: learning)
        try #require(found.count == 1)
        let error = PrecisionTiming.errorMs(found[0], scene.truth())
        #expect(abs(error) < 0.5, "error \(error) ms")
    }

    /// A slow runner (a pixel a frame, right to left) whose trailing legs
    /// join the torso in every other run of six frames: its rows run on
    /// down to the feet and its centroid jumps 10 px back, more than the
    /// half depth a turn needs. Taken for turns, each one forgot the
    /// track's fronts, and a standing start at 240 fps was missed.
    @Test func aTorsoWhoseLegsJoinItDoesNotTurn() {
        let directions = Self.trackDirections(from: (200, 130, 100...160), frames: 60, halfDepth: 8) { frame in
            let legs = (frame / 6) % 2 == 1
            return (200 - Double(frame) + (legs ? 10 : 0), legs ? 165 : 130, legs ? 100...230 : 100...160)
        }
        #expect(directions.contains(.rightToLeft))
        #expect(!directions.contains(.leftToRight))
    }

    /// A leaning runner at 240 fps (1.7 px a frame, left to right) whose
    /// near arm lies along the torso's front at the line: for six frames
    /// the torso is measured with it, its centroid 18 px ahead of its path,
    /// then without it, 15 px back, on the same rows. Taken for a turn, the
    /// fronts were forgotten at the line and the runner missed.
    @Test func aTorsoWhoseCentroidJumpsWithAnArmDoesNotTurn() {
        let directions = Self.trackDirections(from: (100, 120, 84...158), frames: 50, halfDepth: 11) { frame in
            let arm = frame >= 20 && frame < 26 ? 18.0 : (frame >= 26 ? 3.0 : 0)
            return (100 + 1.7 * Double(frame) + arm, 120, 84...158)
        }
        #expect(directions.contains(.leftToRight))
        #expect(!directions.contains(.rightToLeft))
    }

    /// A track started at `start` (centroid x, y, rows) and moved, frame 1
    /// through `frames`, to where `torso` puts the torso: the direction it
    /// gives after each move.
    static func trackDirections(from start: (x: Double, y: Double, rows: ClosedRange<Int>), frames: Int,
                                halfDepth: Double,
                                torso: (Int) -> (x: Double, y: Double, rows: ClosedRange<Int>)) -> [CrossingDirection?] {
        let track = PrecisionTrack(tracker: FrontTracker(settings: DetectorSettings(), workWidth: 320, gateX: 160,
                                                         postroll: 3))
        track.start(centroidX: start.x, centroidY: start.y, rows: start.rows)
        var directions: [CrossingDirection?] = []
        for frame in 1...frames {
            let t = torso(frame)
            track.move(toX: t.x, y: t.y, halfDepth: halfDepth, rows: t.rows)
            directions.append(track.direction(halfDepth: halfDepth))
        }
        return directions
    }
}

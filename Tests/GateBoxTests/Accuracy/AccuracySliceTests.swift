import Foundation
import Testing
import GateCore
import GateSim

/// A slice of `make accuracy` inside `make test`: a few clips per physical
/// factor the detector already handles, at a size a debug build renders
/// quickly, with the bounds measured for them (see the issue notes).
@Suite struct AccuracySliceTests {
    /// Renders `clip`, runs `mode` over it in the Y4M time base and matches
    /// crossings to the truth (within 60 ms; the rest are false triggers).
    static func errors(of clip: ClipSpec, mode: DetectionMode = .photoFinish) -> (errorsMs: [Double], misses: Int, falseTriggers: Int) {
        let renderer = clip.renderer()
        let w = clip.camera.width, h = clip.camera.height
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h)
        defer { pixels.deallocate() }
        var settings = DetectorSettings()
        settings.gatePosition = clip.gatePosition
        settings.readoutNanos = clip.camera.readoutNanos
        settings.exposureNanos = clip.camera.exposureNanos
        let detector = CrossingDetector(mode: mode, width: w, height: h, settings: settings)
        var found: [Int64] = []
        for i in 0..<clip.frameCount {
            let t = clip.timestampNanos(frame: i)
            renderer.render(topRowNanos: t, frameIndex: UInt64(i), into: pixels)
            if let c = detector.process(LumaFrame(pixels: pixels, width: w, height: h, rowStride: w,
                                                  timestampNanos: t, sequence: UInt32(i))) { found.append(c.timeNanos) }
        }
        var errors: [Double] = [], misses = 0
        for truth in clip.truthNanos {
            if let k = found.indices.min(by: { abs(found[$0] - truth) < abs(found[$1] - truth) }), abs(found[k] - truth) < 60_000_000 {
                errors.append(Double(found[k] - truth) / 1e6)
                found.remove(at: k)
            } else {
                misses += 1
            }
        }
        return (errors, misses, found.count)
    }

    static func small(_ clip: ClipSpec) -> ClipSpec {
        var c = clip
        c.camera.width = 320
        c.camera.height = 240
        return c
    }

    @Test(arguments: ["clean", "fast", "slow", "flicker", "fps30", "fps240", "exposure"])
    func uprightRunnersAreTimedWithinAMillisecond(factor: String) {
        let clips = AccuracyCorpus.factorClips(perFactor: 2).filter { $0.kind == factor }.map(Self.small)
        #expect(clips.count == 2)
        for clip in clips {
            let r = Self.errors(of: clip)
            #expect(r.misses == 0 && r.falseTriggers == 0, "\(clip.name): \(r.misses) misses, \(r.falseTriggers) false")
            for e in r.errorsMs { #expect(abs(e) <= 1.5, "\(clip.name): error \(e) ms") }
        }
    }

    /// A runner standing in view while the background is learnt leaves a
    /// ghost of themselves when they start: it must not trigger nor spoil
    /// the time of the runner leaving it, or of the one after.
    @Test(arguments: [DetectionMode.photoFinish, .precision])
    func aRunnerStandingInViewAtTheStartIsTimedLeavingTheirGhost(mode: DetectionMode) {
        let clip = Self.small(AccuracyCorpus.clips(runnerClipsPerRate: 0).first { $0.name == "standing-240fps" }!)
        let r = Self.errors(of: clip, mode: mode)
        #expect(r.misses == 0 && r.falseTriggers == 0, "\(clip.name): \(r.misses) misses, \(r.falseTriggers) false")
        for e in r.errorsMs { #expect(abs(e) <= 1.5, "\(clip.name): error \(e) ms") }
    }

    /// A flying run of `make accuracy`'s corpus (seed 2026) at 240 fps (at
    /// half size): the torso leaves the view within the postroll (0.15 s),
    /// and cut by the edge, its centre drawn back, looks like a turn. The
    /// crossing waiting for its postroll is timed then, from its fronts;
    /// dropped with them, it was left to the centre: 2.9 ms late (3.7 at
    /// full size).
    @Test func aTorsoLeavingTheViewWithinThePostrollIsTimedFromItsFronts() throws {
        let clip = Self.small(try #require(AccuracyCorpus.clips(seed: 2026).first { $0.name == "run-240fps-1" }))
        let r = Self.errors(of: clip, mode: .precision)
        #expect(r.misses == 0 && r.falseTriggers == 0, "\(clip.name): \(r.misses) misses, \(r.falseTriggers) false")
        for e in r.errorsMs { #expect(abs(e) <= 0.5, "\(clip.name): error \(e) ms") }
    }

    /// The standing start of `gate-accuracy --seed 21` at 60 fps (at half
    /// size): while the runner stands, their centroid shifts back as the
    /// pose changes, and the track settles on running right to left. It
    /// turns only once the torso has moved its half depth (about 0.2 m) the
    /// other way, after it reached the line. The fronts of the
    /// frames before the turn, on the side it turned to, time the crossing;
    /// it was missed when only the fronts measured after the turn counted.
    @Test func aStandingRunnerWhoseTrackTurnsLateIsTimedFromBeforeTheTurn() throws {
        let clip = Self.small(try #require(AccuracyCorpus.clips(seed: 21, runnerClipsPerRate: 0).first { $0.name == "standing-60fps" }))
        let r = Self.errors(of: clip, mode: .precision)
        #expect(r.misses == 0 && r.falseTriggers == 0, "\(clip.name): \(r.misses) misses, \(r.falseTriggers) false")
        for e in r.errorsMs { #expect(abs(e) <= 1.0, "\(clip.name): error \(e) ms") }
    }

    /// A clip of one slim runner (parameters from `gate-accuracy --stress N
    /// --filter slim-torso`), noise sigma 3, no flicker.
    struct SlimRun {
        var name: String, fps: Int, crossing: Int64, lineX: Double, speed: Double, acceleration: Double
        var direction: CrossingDirection = .leftToRight
        var lean: Double, shirt: Double, skin: Double, leg: Double, phase: Double, depth: Double
        var view: Double, ground: Double, readout: Int64, exposure: Int64

        var clip: ClipSpec {
            let runner = Runner(crossingNanos: crossing, lineX: lineX, speedAtLine: speed, acceleration: acceleration,
                                direction: direction, lean: lean, shirtLuma: shirt, skinLuma: skin, legLuma: leg,
                                stridePhase: phase, torsoHalfDepth: depth)
            let camera = CameraModel(width: 640, height: 480, viewWidthMetres: view, groundRow: ground,
                                     readoutNanos: readout, exposureNanos: exposure, noiseSigma: 3)
            let end = crossing + 700_000_000
            return ClipSpec(name: name, kind: "slim torso", fps: fps, frameCount: Int(end * Int64(fps) / 1_000_000_000),
                            camera: camera, scene: Scene(runners: [runner]), gatePosition: lineX / view, seed: 7)
        }

        func expectTimedWithinAMillisecond() {
            let r = AccuracySliceTests.errors(of: clip)
            #expect(r.misses == 0 && r.falseTriggers == 0, "\(name): \(r.misses) misses, \(r.falseTriggers) false")
            for e in r.errorsMs { #expect(abs(e) <= 1.0, "\(name): error \(e) ms") }
        }
    }

    /// Two accelerating starts by slim runners (torsos 0.21-0.23 m deep)
    /// leaning 33-39 degrees: the arm swinging across the torso covers its
    /// front over most of its rows, so most front rows are skin; the
    /// torso's colour is the one its back rows show. (They were timed 7 and
    /// 29 ms off when only the front rows chose the colour.)
    @Test(arguments: [
        SlimRun(name: "slim-30fps", fps: 30, crossing: 1_608_447_383, lineX: 2.666, speed: 3.228, acceleration: 3.277,
                lean: 0.682, shirt: 34.8, skin: 110.4, leg: 80.6, phase: 1.099, depth: 0.1172, view: 4.452, ground: 0.9205,
                readout: 2_078_469, exposure: 917_057),
        SlimRun(name: "slim-120fps", fps: 120, crossing: 1_600_072_616, lineX: 3.283, speed: 2.735, acceleration: 4.292,
                lean: 0.571, shirt: 190.9, skin: 92.6, leg: 80.5, phase: 4.416, depth: 0.1035, view: 5.112, ground: 0.8926,
                readout: 10_749_766, exposure: 5_833_333),
    ])
    func aSlimTorsoWhoseArmHidesMostOfItsFrontIsTimedByItsShirt(run: SlimRun) {
        run.expectTimedWithinAMillisecond()
    }

    /// A slim runner at 8.6 m/s, leaning 7 degrees: in the frames before
    /// the line the near arm covers the front of the shoulder, and the
    /// torso's rows that are left are its round top above the arm and its
    /// side below, 0.15 m lower and 2.5 px behind. The last row before the
    /// arm is the nearest to the front. (4.6 ms late when the side was taken.)
    @Test func aShoulderHiddenByTheArmIsTimedFromTheRowsAboveIt() {
        SlimRun(name: "slim-hidden-shoulder-60fps", fps: 60, crossing: 1_604_642_698, lineX: 2.5346, speed: 8.574,
                acceleration: 0, direction: .rightToLeft, lean: 0.121, shirt: 54.0, skin: 102.4, leg: 73.3, phase: 0.976,
                depth: 0.1085, view: 5.0829, ground: 0.8602, readout: 5_310_510, exposure: 7_916_493)
            .expectTimedWithinAMillisecond()
    }

    @Test(arguments: AccuracyCorpus.NegativeScene.allCases)
    func scenesThatMustNotTriggerDoNot(kind: AccuracyCorpus.NegativeScene) {
        // One rate is enough here; make accuracy runs all four.
        let clip = AccuracyCorpus.clips(runnerClipsPerRate: 0).first { $0.name == "quiet-\(kind.name)-60fps" }.map(Self.small)!
        let r = Self.errors(of: clip)
        #expect(r.falseTriggers == 0, "\(clip.name) triggered \(r.falseTriggers) times")
    }
}

import Testing
import GateCore
@testable import GateSim

@Suite struct CapsuleTests {
    @Test func verticalCapsuleSlicesToItsWidth() throws {
        let torso = Capsule(Point(2, 0.95), Point(2, 1.45), radius: 0.15)
        let mid = try #require(torso.slice(atY: 1.2))
        #expect(abs(mid.low - 1.85) < 1e-12 && abs(mid.high - 2.15) < 1e-12)
        // In the round end cap: narrower.
        let cap = try #require(torso.slice(atY: 1.55))
        #expect(cap.high - cap.low < 0.3 && cap.high - cap.low > 0.2)
        #expect(torso.slice(atY: 1.61) == nil)
        #expect(torso.slice(atY: 0.79) == nil)
    }

    @Test func slantedCapsuleSlicesAcrossItsSide() throws {
        // 45 degrees from (0,0) to (1,1), radius 0.1: at y = 0.5 the slice is centred on x = 0.5,
        // half-width r * sqrt(2).
        let arm = Capsule(Point(0, 0), Point(1, 1), radius: 0.1)
        let s = try #require(arm.slice(atY: 0.5))
        #expect(abs((s.low + s.high) / 2 - 0.5) < 1e-12)
        #expect(abs((s.high - s.low) / 2 - 0.1 * 2.squareRoot()) < 1e-12)
    }

    @Test func discIsACapsuleOfLengthZero() throws {
        let head = Capsule(Point(1, 1.66), Point(1, 1.66), radius: 0.11)
        let s = try #require(head.slice(atY: 1.66))
        #expect(abs(s.low - 0.89) < 1e-12 && abs(s.high - 1.11) < 1e-12)
    }
}

@Suite struct RunnerTests {
    @Test func truthIsWhenTheTorsoFrontReachesTheLine() {
        for direction in [CrossingDirection.leftToRight, .rightToLeft] {
            for (acceleration, lean) in [(0.0, 0.0), (4.0, 0.6), (0.0, 0.2)] {
                let r = Runner(crossingNanos: 1_000_000_000, lineX: 2, speedAtLine: 5, acceleration: acceleration,
                               direction: direction, lean: lean, shirtLuma: 40, skinLuma: 120, legLuma: 70, stridePhase: 0)
                #expect(abs(r.torsoFrontX(atNanos: 1_000_000_000) - 2) < 1e-12)
                #expect(r.torsoFrontNanos(reaching: 2) == 1_000_000_000)
                // Elsewhere on the track the kinematics and the truth agree too.
                let sign = direction == .leftToRight ? 1.0 : -1.0
                let t = r.torsoFrontNanos(reaching: 2 + sign * 0.7)
                #expect(abs(r.torsoFrontX(atNanos: t) - (2 + sign * 0.7)) < 1e-8)
            }
        }
    }

    @Test func anAcceleratingRunnerStoodStillBeforeTheStart() {
        let r = Runner(crossingNanos: 2_000_000_000, lineX: 2, speedAtLine: 4, acceleration: 5, direction: .leftToRight,
                       lean: 0.7, shirtLuma: 40, skinLuma: 120, legLuma: 70, stridePhase: 0)
        // Zero speed 0.8 s before the line, 1.6 m behind it: still before that.
        #expect(abs(r.torsoFrontX(atNanos: 1_000_000_000) - 0.4) < 1e-9)
        #expect(abs(r.torsoFrontX(atNanos: 1_200_000_000) - 0.4) < 1e-9)
        #expect(r.torsoFrontX(atNanos: 1_300_000_000) > 0.4)
    }

    @Test func handsAndKneesReachFurtherThanTheTorsoSometimes() {
        // The torso rule matters only if limbs lead: check the model does that.
        let r = Runner(crossingNanos: 0, lineX: 2.15, speedAtLine: 9, direction: .leftToRight,
                       shirtLuma: 40, skinLuma: 120, legLuma: 70, stridePhase: 0)
        var parts: [(Capsule, Double)] = []
        var limbLeads = false
        for ms in stride(from: 0, to: 400, by: 10) {
            let t = Int64(ms) * 1_000_000
            r.parts(atNanos: t, into: &parts)
            let torsoFront = r.torsoFrontX(atNanos: t)
            for (shape, _) in parts where max(shape.a.x, shape.b.x) + shape.radius > torsoFront + 0.05 { limbLeads = true }
        }
        #expect(limbLeads)
    }
}

@Suite struct SceneRendererTests {
    static var camera: CameraModel {
        CameraModel(width: 160, height: 120, viewWidthMetres: 4, readoutNanos: 0, exposureNanos: 1_000_000, noiseSigma: 2)
    }

    func render(_ renderer: SceneRenderer, at nanos: Int64, frame: UInt64) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: 160 * 120)
        pixels.withUnsafeMutableBufferPointer { renderer.render(topRowNanos: nanos, frameIndex: frame, into: $0.baseAddress!) }
        return pixels
    }

    @Test func theSameSeedAndFrameRenderTheSamePixels() {
        let runner = Runner(crossingNanos: 0, lineX: 2.15, speedAtLine: 8, direction: .leftToRight,
                            shirtLuma: 40, skinLuma: 120, legLuma: 70, stridePhase: 1)
        let a = render(SceneRenderer(camera: Self.camera, runners: [runner], seed: 5), at: 0, frame: 3)
        let b = render(SceneRenderer(camera: Self.camera, runners: [runner], seed: 5), at: 0, frame: 3)
        let c = render(SceneRenderer(camera: Self.camera, runners: [runner], seed: 5), at: 0, frame: 4)
        #expect(a == b)
        #expect(a != c)   // noise differs from frame to frame
    }

    @Test func aDarkShirtShowsAtTheTorsoAndNotElsewhere() {
        let runner = Runner(crossingNanos: 0, lineX: 2.15, speedAtLine: 8, direction: .leftToRight,
                            shirtLuma: 20, skinLuma: 120, legLuma: 70, stridePhase: 1)
        let pixels = render(SceneRenderer(camera: Self.camera, runners: [runner], seed: 5), at: 0, frame: 0)
        // Ground at row 110 (0.92 x 120); 40 px per metre. Torso mid-height 1.2 m: row 110 - 48 = 62; x = 2 m: column 80.
        #expect(pixels[62 * 160 + 80] < 40)
        #expect(pixels[62 * 160 + 20] > 90)
        // Beyond the torso front (2.15 m = column 86) at chest height only background or arm.
        #expect(pixels[62 * 160 + 100] > 90)
    }

    @Test func rollingShutterSkewsAMovingTorso() {
        var camera = Self.camera
        camera.readoutNanos = 20_000_000
        camera.noiseSigma = 0
        let runner = Runner(crossingNanos: 0, lineX: 2.15, speedAtLine: 10, direction: .leftToRight,
                            shirtLuma: 20, skinLuma: 150, legLuma: 150, stridePhase: 1)
        let pixels = render(SceneRenderer(camera: camera, runners: [runner], seed: 5), at: 0, frame: 0)
        func front(row: Int) -> Int { (0..<160).last { pixels[row * 160 + $0] < 60 } ?? -1 }
        // Rows lower in the image are read later, so the torso is further right there.
        #expect(front(row: 66) > front(row: 54))
    }
}

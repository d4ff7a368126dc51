import GateCore

/// One rendered clip with its ground truth: what `ts-gate render` writes and
/// what the accuracy harness replays. Frame i has timestamp i / fps (the
/// mid-exposure instant of its top row), as in a Y4M file.
public struct ClipSpec: Equatable, Sendable {
    public var name: String
    /// What the clip exercises, in a few words.
    public var kind: String
    public var fps: Int
    public var frameCount: Int
    public var camera: CameraModel
    public var scene: Scene
    public var gatePosition: Double
    public var seed: UInt64

    public init(name: String, kind: String, fps: Int, frameCount: Int, camera: CameraModel, scene: Scene,
                gatePosition: Double, seed: UInt64) {
        self.name = name; self.kind = kind; self.fps = fps; self.frameCount = frameCount
        self.camera = camera; self.scene = scene; self.gatePosition = gatePosition; self.seed = seed
    }

    /// When each target runner's torso front reaches the gate line; empty
    /// for a scene that must not trigger.
    public var truthNanos: [Int64] { scene.runners.map { $0.crossingNanos }.sorted() }
    public var mustNotTrigger: Bool { scene.runners.isEmpty }

    public func timestampNanos(frame: Int) -> Int64 { Int64(frame) * 1_000_000_000 / Int64(fps) }

    public func renderer() -> SceneRenderer { SceneRenderer(camera: camera, scene: scene, seed: seed) }
}


/// The accuracy corpus: clips over 30, 60, 120 and 240 fps with runners of
/// every kind the box meets, and scenes that must not trigger. A pure
/// function of its seed.
public enum AccuracyCorpus {
    public static let frameRates = [30, 60, 120, 240]

    public static func clips(seed: UInt64 = 2026, runnerClipsPerRate: Int = 8) -> [ClipSpec] {
        var random = SplitMix64(seed: seed)
        var clips: [ClipSpec] = []
        let sizes = [(320, 240), (640, 480), (640, 360), (1280, 720)]
        for fps in frameRates {
            for index in 0..<runnerClipsPerRate {
                let size = sizes[index % sizes.count]
                let accelerating = index % 4 == 3
                clips.append(runnerClip(name: "run-\(fps)fps-\(index)", fps: fps, width: size.0, height: size.1,
                                        accelerating: accelerating, twoRunners: false, random: &random))
            }
            clips.append(runnerClip(name: "pair-\(fps)fps", fps: fps, width: 640, height: 480,
                                    accelerating: false, twoRunners: true, random: &random))
            for kind in NegativeScene.allCases {
                clips.append(negativeClip(kind, fps: fps, random: &random))
            }
        }
        // Drawn from a stream of their own, so the clips above stay as they were.
        var standing = SplitMix64(seed: seed ^ 0x5354_414E_4449_4E47)
        for fps in frameRates {
            clips.append(standingStartClip(name: "standing-\(fps)fps", fps: fps, width: 640, height: 480,
                                           random: &standing))
        }
        return clips
    }

    /// A runner already in view, standing (running on the spot) behind the
    /// gate line from the first frame, who then starts and accelerates
    /// through it; a second runner flies through 0.8 s later. The first
    /// frames, which photo-finish learns the background from, hold the
    /// standing runner: when they leave, the empty scene where they stood
    /// differs from the learnt background (a ghost of them) until it is
    /// absorbed. Neither the ghost nor the runner leaving it may trigger;
    /// both crossings are timed.
    public static func standingStartClip(name: String, fps: Int, width: Int, height: Int,
                                         random: inout SplitMix64) -> ClipSpec {
        let camera = camera(width: width, height: height, fps: fps, random: &random)
        let gate = random.uniform(0.4, 0.6)
        let lineX = gate * camera.viewWidthMetres
        let direction: CrossingDirection = random.unit() < 0.5 ? .leftToRight : .rightToLeft
        // The torso front stands 0.4...1 m behind the line (its back and the
        // swinging limbs 0.5 m more), starts between 0.9 and 1.3 s, and
        // accelerates at 4...6 m/s^2.
        let setBack = random.uniform(0.4, 1.0)
        let acceleration = random.uniform(4, 6)
        let startSeconds = random.uniform(0.9, 1.3)
        let speedAtLine = (2 * acceleration * setBack).squareRoot()
        let crossing = Int64((startSeconds + speedAtLine / acceleration) * 1e9)
        var first = runner(crossingNanos: crossing, lineX: lineX, direction: direction, accelerating: true,
                           random: &random)
        first.speedAtLine = speedAtLine
        first.acceleration = acceleration
        let second = runner(crossingNanos: crossing + 800_000_000, lineX: lineX, direction: direction,
                            accelerating: false, random: &random)
        var scene = Scene(runners: [first, second])
        if random.unit() < 0.5 { scene.flickerAmplitude = random.uniform(0.03, 0.12) }
        return ClipSpec(name: name, kind: "standing start in view", fps: fps,
                        frameCount: Int((second.crossingNanos + 600_000_000) * Int64(fps) / 1_000_000_000),
                        camera: camera, scene: scene, gatePosition: gate, seed: random.next())
    }

    /// One factor at a time from a clean flying run (640x480, 120 fps, upright,
    /// global shutter, 1 ms exposure, no flicker): for finding what costs accuracy.
    public static func factorClips(seed: UInt64 = 7, perFactor: Int = 6) -> [ClipSpec] {
        var random = SplitMix64(seed: seed)
        var clips: [ClipSpec] = []
        let factors = ["clean", "lean", "readout", "exposure", "flicker", "small", "large", "slow", "fast", "accelerating", "fps30", "fps240"]
        for factor in factors {
            for i in 0..<perFactor {
                let fps = factor == "fps30" ? 30 : (factor == "fps240" ? 240 : 120)
                let size = factor == "small" ? (320, 240) : (factor == "large" ? (1280, 720) : (640, 480))
                var camera = CameraModel(width: size.0, height: size.1, viewWidthMetres: 4, readoutNanos: 0,
                                         exposureNanos: 1_000_000, noiseSigma: 2)
                if factor == "readout" { camera.readoutNanos = Int64(random.uniform(5, 15) * 1e6) }
                if factor == "exposure" { camera.exposureNanos = Int64(random.uniform(3, 7) * 1e6) }
                let speed = factor == "slow" ? random.uniform(2, 4) : (factor == "fast" ? random.uniform(9, 12) : random.uniform(5, 9))
                let runner = Runner(crossingNanos: 1_600_000_000 + Int64(i) * 1_000_000, lineX: 2,
                                    speedAtLine: factor == "accelerating" ? random.uniform(3, 5) : speed,
                                    acceleration: factor == "accelerating" ? random.uniform(3, 6) : 0,
                                    direction: i % 2 == 0 ? .leftToRight : .rightToLeft,
                                    lean: factor == "lean" || factor == "accelerating" ? random.uniform(0.2, 0.6) : 0,
                                    shirtLuma: i % 3 == 0 ? 220 : 40, skinLuma: random.uniform(80, 170),
                                    legLuma: random.uniform(40, 120), stridePhase: random.uniform(0, PortableMath.twoPi))
                var scene = Scene(runners: [runner])
                if factor == "flicker" { scene.flickerAmplitude = 0.1 }
                clips.append(ClipSpec(name: "factor-\(factor)-\(i)", kind: factor, fps: fps,
                                      frameCount: Int(2_300_000_000 * Int64(fps) / 1_000_000_000),
                                      camera: camera, scene: scene, gatePosition: 0.5, seed: random.next()))
            }
        }
        return clips
    }

    static func camera(width: Int, height: Int, fps: Int, random: inout SplitMix64) -> CameraModel {
        let period = 1_000_000_000 / Int64(fps)
        // Exposure 0.5...8 ms, never longer than most of the frame period.
        let exposure = min(Int64(random.uniform(0.5, 8) * 1e6), period * 7 / 10)
        return CameraModel(width: width, height: height, viewWidthMetres: random.uniform(3, 6),
                           groundRow: random.uniform(0.86, 0.95), readoutNanos: Int64(random.uniform(0, 15) * 1e6),
                           exposureNanos: exposure, noiseSigma: random.uniform(1, 4))
    }

    static func runner(crossingNanos: Int64, lineX: Double, direction: CrossingDirection, accelerating: Bool,
                       random: inout SplitMix64) -> Runner {
        let speed = accelerating ? random.uniform(2.5, 6) : random.uniform(2, 12)
        return Runner(crossingNanos: crossingNanos, lineX: lineX, speedAtLine: speed,
                      acceleration: accelerating ? random.uniform(3, 6) : 0, direction: direction,
                      lean: accelerating ? random.uniform(0.3, 0.7) : random.uniform(0, 0.2),
                      shirtLuma: random.unit() < 0.5 ? random.uniform(20, 60) : random.uniform(190, 235),
                      skinLuma: random.uniform(80, 170), legLuma: random.uniform(40, 120),
                      stridePhase: random.uniform(0, PortableMath.twoPi))
    }

    static func runnerClip(name: String, fps: Int, width: Int, height: Int, accelerating: Bool, twoRunners: Bool,
                           random: inout SplitMix64) -> ClipSpec {
        let camera = camera(width: width, height: height, fps: fps, random: &random)
        let gate = random.uniform(0.35, 0.65)
        let lineX = gate * camera.viewWidthMetres
        let direction: CrossingDirection = random.unit() < 0.5 ? .leftToRight : .rightToLeft
        // The first crossing comes late enough for the runner to have entered
        // the view and the detector to have learnt the scene.
        let first = Int64(1_600_000_000) + Int64(random.uniform(0, 1) * 1e9 / Double(fps))
        var runners = [runner(crossingNanos: first, lineX: lineX, direction: direction, accelerating: accelerating,
                              random: &random)]
        if twoRunners {
            runners.append(runner(crossingNanos: first + 500_000_000, lineX: lineX, direction: direction,
                                  accelerating: false, random: &random))
        }
        var scene = Scene(runners: runners)
        if random.unit() < 0.5 { scene.flickerAmplitude = random.uniform(0.03, 0.12) }
        let end = (runners.last?.crossingNanos ?? first) + 700_000_000
        let kind = twoRunners ? "two runners 0.5 s apart" : (accelerating ? "accelerating start" : "flying run")
        return ClipSpec(name: name, kind: kind, fps: fps, frameCount: Int(end * Int64(fps) / 1_000_000_000),
                        camera: camera, scene: scene, gatePosition: gate, seed: random.next())
    }

    /// Scenes with movement that is not an athlete crossing the gate.
    public enum NegativeScene: CaseIterable, Sendable {
        case ball, bird, cloud, bump, farFigure

        public var name: String {
            switch self {
            case .ball: return "ball"
            case .bird: return "bird"
            case .cloud: return "cloud"
            case .bump: return "bump"
            case .farFigure: return "far-figure"
            }
        }
    }

    static func negativeClip(_ kind: NegativeScene, fps: Int, random: inout SplitMix64) -> ClipSpec {
        let camera = camera(width: 640, height: 480, fps: fps, random: &random)
        var scene = Scene(runners: [])
        let w = camera.viewWidthMetres
        let description: String
        switch kind {
        case .ball:
            // A football rolling low across the whole view.
            scene.discs = [MovingDisc(startNanos: 800_000_000, startX: -0.3, startY: 0.11,
                                      velocityX: random.uniform(3, 9), radius: 0.11, luma: random.uniform(20, 240))]
            description = "a ball rolling low"
        case .bird:
            scene.discs = [MovingDisc(startNanos: 900_000_000, startX: w + 0.2, startY: random.uniform(2.2, 2.8),
                                      velocityX: -random.uniform(12, 20), velocityY: random.uniform(-1, 1),
                                      radius: 0.12, luma: random.uniform(10, 60))]
            description = "a bird high and fast"
        case .cloud:
            scene.lightSteps = [LightStep(atNanos: 1_200_000_000, factor: random.uniform(0.6, 0.8))]
            description = "a cloud: the light drops at once"
        case .bump:
            scene.bumps = [CameraBump(startNanos: 1_200_000_000, durationNanos: 40_000_000,
                                      dxPixels: random.unit() < 0.5 ? -4 : 4, dyPixels: 2)]
            description = "the tripod bumped: the image shifts"
        case .farFigure:
            // Someone walking far behind the lane: small, high in the image.
            scene.figures = [Runner(crossingNanos: 1_500_000_000, lineX: w / 2, speedAtLine: random.uniform(1.5, 6),
                                    direction: .rightToLeft, shirtLuma: 40, skinLuma: 110, legLuma: 60,
                                    stridePhase: 0, scale: 0.25, baseY: 1.4)]
            description = "a small figure far away"
        }
        return ClipSpec(name: "quiet-\(kind.name)-\(fps)fps", kind: description, fps: fps,
                        frameCount: Int(2_600_000_000 * Int64(fps) / 1_000_000_000),
                        camera: camera, scene: scene, gatePosition: 0.5, seed: random.next())
    }
}

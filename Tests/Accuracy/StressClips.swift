// Clips unlike the accuracy corpus, one condition at a time, for finding
// what a different renderer might show the detector that ours never does:
// crossings soon after the clip starts, a runner already moving in the
// first frame, runners much larger or smaller in the frame, full HD,
// clothing as grey as the scene behind it, heavy noise, the extremes of
// speed at the frame rates where they are hardest, a gate line near the
// frame's edge, slimmer and deeper torsos and thicker limbs. Host-only.
import GateCore
import GateSim
import Foundation

enum StressCorpus {
    static let conditions = ["early", "moving-first-frame", "near", "far", "full-hd", "grey-shirt", "mid-shirt", "noisy",
                             "fast-30fps", "slow-240fps", "low-camera",
                             "textured-scene", "one-colour-runner", "gate-near-edge",
                             "slim-torso", "deep-torso", "thick-limbs"]

    static func clips(seed: UInt64, perCondition: Int) -> [ClipSpec] {
        var random = SplitMix64(seed: seed ^ 0x5354_5245_5353)
        var clips: [ClipSpec] = []
        for condition in conditions {
            for i in 0..<perCondition {
                let fps = condition == "fast-30fps" ? 30 : (condition == "slow-240fps" ? 240 : AccuracyCorpus.frameRates[i % 4])
                let size = condition == "full-hd" ? (1920, 1080) : (640, 480)
                let period = 1_000_000_000 / Int64(fps)
                var camera = CameraModel(width: size.0, height: size.1,
                                         viewWidthMetres: condition == "near" ? random.uniform(2.6, 3) :
                                             (condition == "far" ? random.uniform(8, 10) : random.uniform(3, 6)),
                                         groundRow: condition == "low-camera" ? random.uniform(0.97, 1.05) : random.uniform(0.86, 0.95),
                                         readoutNanos: Int64(random.uniform(0, 15) * 1e6),
                                         exposureNanos: min(Int64(random.uniform(0.5, 8) * 1e6), period * 7 / 10),
                                         noiseSigma: condition == "noisy" ? random.uniform(5, 8) : random.uniform(1, 4))
                if condition == "near" { camera.groundRow = random.uniform(0.97, 1.0) }
                var gate = random.uniform(0.35, 0.65)
                if condition == "gate-near-edge" { gate = random.unit() < 0.5 ? random.uniform(0.15, 0.25) : random.uniform(0.75, 0.85) }
                let lineX = gate * camera.viewWidthMetres
                let direction: CrossingDirection = i % 2 == 0 ? .leftToRight : .rightToLeft
                let accelerating = condition != "fast-30fps" && condition != "slow-240fps" && random.unit() < 0.3
                var speed = accelerating ? random.uniform(2.5, 6) : random.uniform(2, 12)
                if condition == "fast-30fps" { speed = random.uniform(10, 12) }
                if condition == "slow-240fps" { speed = random.uniform(2, 3) }
                var crossing = Int64(1_600_000_000) + Int64(random.unit() * 1e9 / Double(fps))
                if condition == "early" { crossing = Int64(random.uniform(0.6, 1.2) * 1e9) }
                if condition == "moving-first-frame" {
                    // The torso front starts 0.3...1.5 m before the line, already running.
                    let distance = random.uniform(0.3, 1.5)
                    crossing = Int64(distance / speed * 1e9)
                }
                let grey = condition == "grey-shirt"
                let mid = condition == "mid-shirt"
                let shirt = mid ? (random.unit() < 0.5 ? random.uniform(85, 105) : random.uniform(165, 190)) :
                    grey ? random.uniform(115, 150) : (random.unit() < 0.5 ? random.uniform(20, 60) : random.uniform(190, 235))
                var runner = Runner(crossingNanos: crossing, lineX: lineX, speedAtLine: speed,
                                    acceleration: accelerating ? random.uniform(3, 6) : 0, direction: direction,
                                    lean: accelerating ? random.uniform(0.3, 0.7) : random.uniform(0, 0.2),
                                    shirtLuma: shirt, skinLuma: random.uniform(80, 170),
                                    legLuma: grey || mid ? random.uniform(90, 170) : random.uniform(40, 120),
                                    stridePhase: random.uniform(0, PortableMath.twoPi))
                if condition == "one-colour-runner" {
                    // Dressed and gloved in one colour: arms and legs cannot be told from the torso by luma.
                    runner.skinLuma = runner.shirtLuma
                    runner.legLuma = runner.shirtLuma
                }
                // Other builds than the corpus's 0.3 m deep torso and its limbs.
                if condition == "slim-torso" { runner.torsoHalfDepth = random.uniform(0.10, 0.12) }
                if condition == "deep-torso" { runner.torsoHalfDepth = random.uniform(0.18, 0.22) }
                if condition == "thick-limbs" { runner.limbScale = random.uniform(1.3, 1.6) }
                var scene = Scene(runners: [runner])
                if condition == "textured-scene" { scene.backgroundTexture = random.uniform(10, 30) }
                if random.unit() < 0.5 { scene.flickerAmplitude = random.uniform(0.03, 0.12) }
                let end = crossing + 700_000_000
                let kind = condition == "moving-first-frame" ? condition + String(format: " crossing at %.2f s", Double(crossing) / 1e9) : condition
                clips.append(ClipSpec(name: "stress-\(condition)-\(fps)fps-\(i)", kind: kind, fps: fps,
                                      frameCount: Int(end * Int64(fps) / 1_000_000_000), camera: camera, scene: scene,
                                      gatePosition: gate, seed: random.next()))
            }
        }
        return clips
    }
}

import GateCore

/// A side-view sprinter: an upright torso, a head carried slightly ahead,
/// arms and legs swinging in opposition at a cadence that grows with speed.
/// The torso front is a vertical line at `torsoHalfDepth` ahead of the body
/// axis: that is what the box must time (World Athletics' torso rule);
/// hands, head and the swinging knee reach the line earlier and must not count.
public struct Runner: Equatable {
    /// Time the body axis is at `entryX`, virtual nanoseconds.
    public var entryNanos: Int64
    public var entryX: Double
    public var speedMetresPerSecond: Double
    public var direction: CrossingDirection
    /// Luma of the shirt, of the skin and of the shorts/legs.
    public var shirtLuma: Double
    public var skinLuma: Double
    public var legLuma: Double
    /// Phase of the stride at entry, radians.
    public var stridePhase: Double

    public static let height = 1.80
    public static let torsoHalfDepth = 0.15
    static let hipY = 0.95, shoulderY = 1.45

    public init(entryNanos: Int64, entryX: Double, speedMetresPerSecond: Double, direction: CrossingDirection,
                shirtLuma: Double, skinLuma: Double, legLuma: Double, stridePhase: Double) {
        self.entryNanos = entryNanos; self.entryX = entryX; self.speedMetresPerSecond = speedMetresPerSecond
        self.direction = direction; self.shirtLuma = shirtLuma; self.skinLuma = skinLuma; self.legLuma = legLuma
        self.stridePhase = stridePhase
    }

    var sign: Double { direction == .leftToRight ? 1 : -1 }

    /// The body axis at virtual time `nanos`.
    public func axisX(atNanos nanos: Int64) -> Double {
        entryX + sign * speedMetresPerSecond * Double(nanos - entryNanos) / 1e9
    }

    /// When the torso front reaches `x` (the ground truth of a crossing).
    public func torsoFrontNanos(reaching x: Double) -> Int64 {
        let axis = x - sign * Runner.torsoHalfDepth
        let seconds = (axis - entryX) * sign / speedMetresPerSecond
        return entryNanos + Int64((seconds * 1e9).rounded())
    }

    /// Steps per second: about 3 at a jog, 4.6 at a sprint.
    var cadence: Double { 2.2 + 0.22 * speedMetresPerSecond }

    /// The body parts at `nanos`, back to front in drawing order, with their luma.
    func parts(atNanos nanos: Int64, into parts: inout [(Capsule, Double)]) {
        parts.removeAll(keepingCapacity: true)
        let x = axisX(atNanos: nanos)
        let s = sign
        let phase = stridePhase + PortableMath.pi * cadence * Double(nanos - entryNanos) / 1e9
        let swing = PortableMath.sin(phase)
        let armAmplitude = 0.35 + 0.04 * speedMetresPerSecond   // radians
        let legAmplitude = 0.30 + 0.045 * speedMetresPerSecond
        let hip = Point(x, Runner.hipY)
        let shoulder = Point(x, Runner.shoulderY - 0.03)

        func limb(from root: Point, angle: Double, length: Double) -> Point {
            // angle from straight down, positive towards the running direction
            Point(root.x + s * length * PortableMath.sin(angle), root.y - length * PortableMath.cos(angle))
        }
        func arm(_ side: Double) {
            let upper = side * armAmplitude * swing
            let elbow = limb(from: shoulder, angle: upper, length: 0.30)
            // The elbow bends more as the arm comes forward.
            let forearm = upper + 1.1 + 0.4 * side * swing
            let hand = limb(from: elbow, angle: forearm, length: 0.28)
            parts.append((Capsule(shoulder, elbow, radius: 0.05), skinLuma))
            parts.append((Capsule(elbow, hand, radius: 0.04), skinLuma))
        }
        func leg(_ side: Double) {
            let thigh = side * legAmplitude * swing
            let knee = limb(from: hip, angle: thigh, length: 0.45)
            // The knee folds on the back swing.
            let fold = 0.35 + 0.6 * (1 - side * swing) * 0.5 + 0.1 * speedMetresPerSecond / 10
            let foot = limb(from: knee, angle: thigh - fold, length: 0.45)
            parts.append((Capsule(hip, knee, radius: 0.075), legLuma))
            parts.append((Capsule(knee, foot, radius: 0.055), legLuma))
        }
        arm(-1)
        leg(-1)
        parts.append((Capsule(hip, Point(x, Runner.shoulderY), radius: Runner.torsoHalfDepth), shirtLuma))
        parts.append((Capsule(Point(x + s * 0.07, 1.66), Point(x + s * 0.07, 1.66), radius: 0.11), skinLuma))
        leg(1)
        arm(1)
    }

    /// Left and right extent of the whole body at `nanos` (for culling).
    func extent(atNanos nanos: Int64) -> (low: Double, high: Double) {
        let x = axisX(atNanos: nanos)
        return (x - 1.2, x + 1.2)
    }
}

import GateCore

/// A side-view sprinter: a torso that may lean forward, a head carried
/// ahead of it, arms and legs swinging in opposition at a cadence that grows
/// with speed. Motion is defined around the crossing itself: at
/// `crossingNanos` the front of the torso is exactly on `lineX`, moving at
/// `speedAtLine` and accelerating at `acceleration` (an accelerating start;
/// before it reached zero speed the runner stood still in the set position).
///
/// The front of the torso is what the box must time (World Athletics' torso
/// rule). Hands, head and the swinging knee reach the line earlier and must
/// not count.
public struct Runner: Equatable, Sendable {
    public var crossingNanos: Int64
    public var lineX: Double
    public var speedAtLine: Double
    public var acceleration: Double
    public var direction: CrossingDirection
    /// Forward lean of the torso from vertical, radians.
    public var lean: Double
    public var shirtLuma: Double
    public var skinLuma: Double
    public var legLuma: Double
    /// Phase of the stride at the crossing, radians.
    public var stridePhase: Double
    /// 1 for an athlete in the lane; smaller for a figure far behind it.
    public var scale: Double
    /// Height of the feet in the scene, metres (a far figure stands higher in the image).
    public var baseY: Double
    /// Half the torso's depth front to back, metres (`standardTorsoHalfDepth`
    /// for the corpus; slimmer and deeper builds for the stress clips).
    public var torsoHalfDepth: Double
    /// Thickness of arms and legs against the corpus's.
    public var limbScale: Double
    /// An athlete who stands still until the start (an accelerating start
    /// from zero speed): the stride's cadence builds up from rest too, so
    /// that nothing moves before the start and the limbs start as the body
    /// does. False for the corpus, whose runners are drawn as they were.
    public var startsFromRest = false
    /// Drawn only from and until these instants: a figure who stops walking
    /// and stands is two figures, the walker until then, the stander after.
    public var visibleFromNanos = Int64.min
    public var visibleUntilNanos = Int64.max

    public static let height = 1.80
    static let cadenceRiseSeconds = 0.4
    public static let standardTorsoHalfDepth = 0.15
    static let hipY = 0.95, shoulderY = 1.45

    public init(crossingNanos: Int64, lineX: Double, speedAtLine: Double, acceleration: Double = 0,
                direction: CrossingDirection, lean: Double = 0, shirtLuma: Double, skinLuma: Double,
                legLuma: Double, stridePhase: Double, scale: Double = 1, baseY: Double = 0,
                torsoHalfDepth: Double = Runner.standardTorsoHalfDepth, limbScale: Double = 1) {
        self.crossingNanos = crossingNanos; self.lineX = lineX; self.speedAtLine = speedAtLine
        self.acceleration = acceleration; self.direction = direction; self.lean = lean
        self.shirtLuma = shirtLuma; self.skinLuma = skinLuma; self.legLuma = legLuma
        self.stridePhase = stridePhase; self.scale = scale; self.baseY = baseY
        self.torsoHalfDepth = torsoHalfDepth; self.limbScale = limbScale
    }

    var sign: Double { direction == .leftToRight ? 1 : -1 }

    /// How far ahead of the hip the front of the torso is: the shoulder end
    /// of the leaning torso, plus its half depth.
    public var torsoReach: Double {
        scale * ((Runner.shoulderY - Runner.hipY) * PortableMath.sin(lean) + torsoHalfDepth)
    }

    /// Distance run since the crossing (negative before it), metres.
    func travelled(_ seconds: Double) -> Double {
        if acceleration > 0 {
            let standing = -speedAtLine / acceleration
            let tau = seconds < standing ? standing : seconds
            return speedAtLine * tau + 0.5 * acceleration * tau * tau
        }
        return speedAtLine * seconds
    }

    func speed(_ seconds: Double) -> Double { max(0, speedAtLine + acceleration * seconds) }

    /// The hip (body axis) at virtual time `nanos`.
    public func hipX(atNanos nanos: Int64) -> Double {
        lineX - sign * torsoReach + sign * travelled(Double(nanos - crossingNanos) / 1e9)
    }

    /// The front of the torso at `nanos`.
    public func torsoFrontX(atNanos nanos: Int64) -> Double { hipX(atNanos: nanos) + sign * torsoReach }

    /// When the torso front reaches `x`, for x ahead of the set position.
    public func torsoFrontNanos(reaching x: Double) -> Int64 {
        let distance = (x - lineX) * sign
        let seconds: Double
        if acceleration > 0 {
            // distance = v t + a t^2 / 2, the root on the moving branch.
            let v = speedAtLine, a = acceleration
            let disc = max(0, v * v + 2 * a * distance)
            seconds = (-v + disc.squareRoot()) / a
        } else {
            seconds = distance / speedAtLine
        }
        return crossingNanos + Int64((seconds * 1e9).rounded())
    }

    /// The body parts at `nanos`, back to front in drawing order, with their luma.
    func parts(atNanos nanos: Int64, into parts: inout [(Capsule, Double)]) {
        parts.removeAll(keepingCapacity: true)
        let seconds = Double(nanos - crossingNanos) / 1e9
        let x = hipX(atNanos: nanos)
        let s = sign, k = scale
        // Steps per second from 2.2 + 0.22 v, integrated over the run; from
        // rest, the 2.2 builds up over the first `cadenceRiseSeconds`.
        var steps = 2.2 * seconds + 0.22 * travelled(seconds)
        var v = speed(seconds)
        if startsFromRest {
            // The limbs' swing and its widening with speed build up too, so
            // every part starts to move as (t - t0)², as a body from rest does.
            let rise = Runner.cadenceRiseSeconds
            let tau = max(0, seconds - (acceleration > 0 ? -speedAtLine / acceleration : 0))
            let built = tau < rise ? tau * tau / (2 * rise) : tau - rise / 2
            steps = 2.2 * built + 0.22 * (travelled(seconds) - travelled(-1e9))
            if tau < rise { v *= tau / rise }
        }
        let swing = PortableMath.sin(stridePhase + PortableMath.pi * steps)
        let armAmplitude = 0.35 + 0.04 * v   // radians
        let legAmplitude = 0.30 + 0.045 * v
        func at(_ dx: Double, _ y: Double) -> Point { Point(x + s * k * dx, baseY + k * y) }
        let hip = at(0, Runner.hipY)
        let torsoLength = Runner.shoulderY - Runner.hipY
        let leanX = PortableMath.sin(lean), leanY = PortableMath.cos(lean)
        let shoulderTop = at(torsoLength * leanX, Runner.hipY + torsoLength * leanY)
        let shoulder = at((torsoLength - 0.03) * leanX, Runner.hipY + (torsoLength - 0.03) * leanY)

        func limb(from root: Point, angle: Double, length: Double) -> Point {
            // angle from straight down, positive towards the running direction
            Point(root.x + s * k * length * PortableMath.sin(angle), root.y - k * length * PortableMath.cos(angle))
        }
        func arm(_ side: Double) {
            let upper = side * armAmplitude * swing + 0.5 * lean
            let elbow = limb(from: shoulder, angle: upper, length: 0.30)
            // The elbow bends more as the arm comes forward.
            let forearm = upper + 1.1 + 0.4 * side * swing
            let hand = limb(from: elbow, angle: forearm, length: 0.28)
            parts.append((Capsule(shoulder, elbow, radius: 0.05 * limbScale * k), skinLuma))
            parts.append((Capsule(elbow, hand, radius: 0.04 * limbScale * k), skinLuma))
        }
        func leg(_ side: Double) {
            let thigh = side * legAmplitude * swing
            let knee = limb(from: hip, angle: thigh, length: 0.45)
            // The knee folds on the back swing.
            let fold = 0.35 + 0.3 * (1 - side * swing) + 0.01 * v
            let foot = limb(from: knee, angle: thigh - fold, length: 0.45)
            parts.append((Capsule(hip, knee, radius: 0.075 * limbScale * k), legLuma))
            parts.append((Capsule(knee, foot, radius: 0.055 * limbScale * k), legLuma))
        }
        arm(-1)
        leg(-1)
        parts.append((Capsule(hip, shoulderTop, radius: torsoHalfDepth * k), shirtLuma))
        let neck = at((torsoLength + 0.2) * leanX + 0.07, Runner.hipY + (torsoLength + 0.2) * leanY)
        parts.append((Capsule(neck, neck, radius: 0.11 * k), skinLuma))
        leg(1)
        arm(1)
    }

    /// Left and right extent of the drawn body at `nanos` (arms, legs, head).
    public func bodyExtent(atNanos nanos: Int64) -> (low: Double, high: Double) {
        var drawn: [(Capsule, Double)] = []
        parts(atNanos: nanos, into: &drawn)
        var low = Double.infinity, high = -Double.infinity
        for (capsule, _) in drawn {
            low = min(low, min(capsule.a.x, capsule.b.x) - capsule.radius)
            high = max(high, max(capsule.a.x, capsule.b.x) + capsule.radius)
        }
        return (low, high)
    }

    /// Left and right extent of the whole body at `nanos` (for culling; empty when not drawn).
    func extent(atNanos nanos: Int64) -> (low: Double, high: Double) {
        if nanos < visibleFromNanos || nanos >= visibleUntilNanos { return (Double.infinity, -Double.infinity) }
        let x = hipX(atNanos: nanos)
        return (x - 1.3 * scale, x + 1.3 * scale)
    }
}

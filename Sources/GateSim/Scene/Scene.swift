import GateCore

/// Something small crossing the view that must never be timed: a ball
/// rolling on the ground, a bird flying high and fast.
public struct MovingDisc: Equatable, Sendable {
    public var startNanos: Int64
    public var startX: Double, startY: Double
    public var velocityX: Double, velocityY: Double
    public var radius: Double
    public var luma: Double

    public init(startNanos: Int64, startX: Double, startY: Double, velocityX: Double, velocityY: Double = 0,
                radius: Double, luma: Double) {
        self.startNanos = startNanos; self.startX = startX; self.startY = startY
        self.velocityX = velocityX; self.velocityY = velocityY; self.radius = radius; self.luma = luma
    }

    func centre(atNanos nanos: Int64) -> Point {
        let t = Double(nanos - startNanos) / 1e9
        return Point(startX + velocityX * t, startY + velocityY * t)
    }
}

/// The tripod knocked: from `startNanos` the image slides by (dx, dy)
/// pixels over `durationNanos` and stays there.
public struct CameraBump: Equatable, Sendable {
    public var startNanos: Int64
    public var durationNanos: Int64
    public var dxPixels: Int
    public var dyPixels: Int

    public init(startNanos: Int64, durationNanos: Int64, dxPixels: Int, dyPixels: Int) {
        self.startNanos = startNanos; self.durationNanos = durationNanos
        self.dxPixels = dxPixels; self.dyPixels = dyPixels
    }

    func shift(atNanos nanos: Int64) -> (dx: Int, dy: Int) {
        if nanos <= startNanos { return (0, 0) }
        if nanos >= startNanos + durationNanos { return (dxPixels, dyPixels) }
        let f = Double(nanos - startNanos) / Double(durationNanos)
        return (Int((Double(dxPixels) * f).rounded()), Int((Double(dyPixels) * f).rounded()))
    }
}

/// A change of the light over the whole view: a cloud covering the sun.
public struct LightStep: Equatable, Sendable {
    public var atNanos: Int64
    /// Multiplier of all light after the step (0.7: 30% darker).
    public var factor: Double
    public init(atNanos: Int64, factor: Double) { self.atNanos = atNanos; self.factor = factor }
}

/// Everything in view: the athletes to time (`runners`, each with a truth),
/// figures and objects that must not be timed, and the light.
public struct Scene: Equatable, Sendable {
    public var runners: [Runner]
    /// People who are not crossing the gate in the lane (far away, small).
    public var figures: [Runner] = []
    public var discs: [MovingDisc] = []
    public var bumps: [CameraBump] = []
    public var lightSteps: [LightStep] = []
    /// Mains flicker of the light: amplitude (0.1 = +-10%) at `flickerHz`.
    public var flickerAmplitude = 0.0
    public var flickerHz = 100.0
    /// Texture of the scene behind the lane (stands, trees, boards): each
    /// block of about 6 cm takes a luma offset within +-this, on top of the
    /// plain track scene (0: the plain scene).
    public var backgroundTexture = 0.0

    public init(runners: [Runner]) { self.runners = runners }

    /// Light multiplier at `nanos`.
    func light(atNanos nanos: Int64) -> Double {
        var factor = 1.0
        for step in lightSteps where nanos >= step.atNanos { factor = step.factor }
        if flickerAmplitude > 0 {
            factor *= 1 + flickerAmplitude * PortableMath.sin(PortableMath.twoPi * flickerHz * Double(nanos) / 1e9)
        }
        return factor
    }

    func shift(atNanos nanos: Int64) -> (dx: Int, dy: Int) {
        var dx = 0, dy = 0
        for bump in bumps {
            let s = bump.shift(atNanos: nanos)
            dx += s.dx; dy += s.dy
        }
        return (dx, dy)
    }
}

/// One accelerometer reading, in g, stamped by the clock that sampled it.
public struct AccelSample: Equatable {
    public var x: Double, y: Double, z: Double
    public var timestampNanos: Int64
    public init(x: Double, y: Double, z: Double, timestampNanos: Int64) {
        self.x = x; self.y = y; self.z = z; self.timestampNanos = timestampNanos
    }
}

/// Decides whether the tripod is still: the box arms only after it has been
/// still for `requiredStillNanos`, and any jolt after that is reported.
///
/// Each sample is compared with a slowly-following reference (the gravity
/// vector); a deviation above `motionThresholdG` on any axis is movement.
public struct StabilityFilter {
    public enum Change: Equatable {
        case becameStill(atNanos: Int64)
        case becameUnstable(atNanos: Int64, deviationG: Double)
    }

    public var requiredStillNanos: Int64
    public var motionThresholdG: Double
    public private(set) var isStill = false
    /// The largest deviation seen since `resetPeak`.
    public private(set) var peakDeviationG = 0.0
    private var reference: (x: Double, y: Double, z: Double)?
    private var lastMovementNanos: Int64 = 0

    public init(requiredStillNanos: Int64 = 1_000_000_000, motionThresholdG: Double = 0.03) {
        self.requiredStillNanos = requiredStillNanos
        self.motionThresholdG = motionThresholdG
    }

    public mutating func resetPeak() { peakDeviationG = 0 }

    public mutating func add(_ sample: AccelSample) -> Change? {
        guard let ref = reference else {
            reference = (sample.x, sample.y, sample.z)
            lastMovementNanos = sample.timestampNanos
            return nil
        }
        let dx = sample.x - ref.x, dy = sample.y - ref.y, dz = sample.z - ref.z
        let deviation = max(dx.magnitude, max(dy.magnitude, dz.magnitude))
        if deviation > peakDeviationG { peakDeviationG = deviation }
        // Follow slowly so a settled tilt becomes the new reference.
        let alpha = 0.05
        reference = (ref.x + alpha * dx, ref.y + alpha * dy, ref.z + alpha * dz)
        if deviation > motionThresholdG {
            lastMovementNanos = sample.timestampNanos
            if isStill {
                isStill = false
                return .becameUnstable(atNanos: sample.timestampNanos, deviationG: deviation)
            }
            return nil
        }
        if !isStill && sample.timestampNanos - lastMovementNanos >= requiredStillNanos {
            isStill = true
            return .becameStill(atNanos: sample.timestampNanos)
        }
        return nil
    }
}

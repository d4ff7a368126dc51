/// The detection modes of seed 000 section 6.
public enum DetectionMode: Equatable, Sendable {
    /// No calibration: the background is learnt from the first frames and
    /// kept up to date; ready within a few frames (the default).
    case photoFinish
    /// A background model learnt from the empty scene, with per-row thresholds.
    case precision
    /// Photo-finish's detector for long unattended sessions (seed 000 6.3):
    /// when the tripod is moved the gate disarms, and once it is still again
    /// the box learns the scene afresh and re-arms by itself. The other modes
    /// stay disarmed until a person has checked the aim and pressed the button.
    case experimental

    /// The spelling used on the command line and in results.
    public var name: String {
        switch self {
        case .photoFinish: return "photo-finish"
        case .precision: return "precision"
        case .experimental: return "experimental"
        }
    }

    public init?(name: String) {
        switch name {
        case "photo-finish": self = .photoFinish
        case "precision": self = .precision
        case "experimental": self = .experimental
        default: return nil
        }
    }

    public static let names = "photo-finish, precision or experimental"

    /// Whether the box re-arms by itself when the tripod is still again after a move.
    public var rearmsAfterMovement: Bool { self == .experimental }
}

/// One detector of any mode behind one concrete type: an enum of the
/// concrete detectors, so the loop stays free of existentials (Embedded Swift).
public enum CrossingDetector {
    case photoFinish(PhotoFinishDetector)
    case precision(PrecisionDetector)
    case experimental(PhotoFinishDetector)

    /// A detector of `mode` for frames of `width` x `height`.
    public init(mode: DetectionMode, width: Int, height: Int, settings: DetectorSettings) {
        switch mode {
        case .photoFinish: self = .photoFinish(PhotoFinishDetector(width: width, height: height, settings: settings))
        case .precision: self = .precision(PrecisionDetector(width: width, height: height, settings: settings))
        case .experimental: self = .experimental(PhotoFinishDetector(width: width, height: height, settings: settings))
        }
    }

    public var mode: DetectionMode {
        switch self {
        case .photoFinish: return .photoFinish
        case .precision: return .precision
        case .experimental: return .experimental
        }
    }

    /// Feeds one frame; returns a crossing when the torso front passed the gate line.
    public func process(_ frame: LumaFrame) -> DetectedCrossing? {
        switch self {
        case .photoFinish(let detector), .experimental(let detector): return detector.process(frame)
        case .precision(let detector): return detector.process(frame)
        }
    }

    /// The end of the frames (a clip's end): crossings the tracks still
    /// wait for, timed with what they have.
    public func finish(_ deliver: (DetectedCrossing) -> Void) {
        switch self {
        case .photoFinish(let detector), .experimental(let detector): detector.finish(deliver)
        case .precision(let detector): detector.finish(deliver)
        }
    }

    public func reset() {
        switch self {
        case .photoFinish(let detector), .experimental(let detector): detector.reset()
        case .precision(let detector): detector.reset()
        }
    }
}

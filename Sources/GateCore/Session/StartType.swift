/// How a run's clock starts (seed 002 startType).
public enum StartType: Equatable, Sendable {
    /// The first crossing of the gate starts the clock; later crossings are laps.
    case flying
    /// The athlete holds the touch pad at least `TouchPad.readyNanos`, and
    /// the release edge's kernel timestamp starts the clock.
    case touchRelease
    /// The box plays 3-2-1-GO; the instant the GO sound's first sample
    /// leaves the speaker starts the clock.
    case countdown
    /// The box calls "On your marks" ... "Set" ... GO after random delays;
    /// the instant GO's first sample leaves the speaker starts the clock.
    case voice
    /// The athlete stands still in view (the box says "ready"); the clock
    /// starts the instant they leave the frame (seed 000 section 5.5).
    case inFrame

    /// As written in configuration files and on the command line.
    public var name: String {
        switch self {
        case .flying: return "flying"
        case .touchRelease: return "touch-release"
        case .countdown: return "countdown"
        case .voice: return "voice"
        case .inFrame: return "in-frame"
        }
    }

    /// As written in results records (the protocol's camelCase).
    public var code: String {
        switch self {
        case .flying: return "flying"
        case .touchRelease: return "touchRelease"
        case .countdown: return "countdown"
        case .voice: return "voice"
        case .inFrame: return "inFrame"
        }
    }

    public init?(name: String) {
        switch name {
        case "flying": self = .flying
        case "touch-release": self = .touchRelease
        case "countdown": self = .countdown
        case "voice": self = .voice
        case "in-frame": self = .inFrame
        default: return nil
        }
    }

    public static let names = "flying, touch-release, countdown, voice or in-frame"

    /// Whether something other than a crossing starts the clock.
    public var isExternal: Bool { self != .flying }

    /// Whether the box's speaker calls the start (its GO starts the clock).
    public var isCalled: Bool { self == .countdown || self == .voice }

    /// Whether the camera watches the athlete at the start: standing in
    /// view (in-frame), or set before a called GO (false starts, reaction).
    public var watchesTheStart: Bool { isCalled || self == .inFrame }
}

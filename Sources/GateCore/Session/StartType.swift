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

    /// As written in configuration files and on the command line.
    public var name: String {
        switch self {
        case .flying: return "flying"
        case .touchRelease: return "touch-release"
        case .countdown: return "countdown"
        }
    }

    /// As written in results records (the protocol's camelCase).
    public var code: String {
        switch self {
        case .flying: return "flying"
        case .touchRelease: return "touchRelease"
        case .countdown: return "countdown"
        }
    }

    public init?(name: String) {
        switch name {
        case "flying": self = .flying
        case "touch-release": self = .touchRelease
        case "countdown": self = .countdown
        default: return nil
        }
    }

    public static let names = "flying, touch-release or countdown"

    /// Whether something other than a crossing starts the clock.
    public var isExternal: Bool { self != .flying }
}

/// A value the protocol spells as one word from a known set. The words for
/// states and qualities may grow in a later minor version (seed 002, 9.2), so
/// those types keep an unknown word as `.other` rather than refuse the message.
public protocol WireWord: Equatable {
    init?(wire: String)
    var wire: String { get }
    /// For refusals: "one of start, finish, lap, controlOnly".
    static var expectedDescription: String { get }
}

/// Where a gate stands in the session. Seed 002 writes "start" and "finish";
/// seed 000 (the iOS app) adds an intermediate `lap` gate, whose distance
/// from the start travels beside the role as `distanceFromStart`, and a
/// `controlOnly` host without a camera. The app's own spellings (startLine,
/// finishLine, lapGate) are read too. A role the box does not know it cannot
/// play, so an unknown one is refused.
public enum GateRole: WireWord, Sendable {
    case start
    case finish
    case lap
    case controlOnly

    public init?(wire: String) {
        switch wire {
        case "start", "startLine": self = .start
        case "finish", "finishLine": self = .finish
        case "lap", "lapGate": self = .lap
        case "controlOnly": self = .controlOnly
        default: return nil
        }
    }

    public var wire: String {
        switch self {
        case .start: return "start"
        case .finish: return "finish"
        case .lap: return "lap"
        case .controlOnly: return "controlOnly"
        }
    }

    public static var expectedDescription: String { "one of start, finish, lap, controlOnly" }
}

/// session_create's settings.startType. `countdown` is the box's own 3-2-1-GO start.
public enum WireStartType: WireWord, Sendable {
    case flying
    case touchRelease
    case audioGun
    case countdown
    case other(String)

    public init?(wire: String) {
        switch wire {
        case "flying": self = .flying
        case "touchRelease": self = .touchRelease
        case "audioGun": self = .audioGun
        case "countdown": self = .countdown
        default: self = .other(wire)
        }
    }

    public var wire: String {
        switch self {
        case .flying: return "flying"
        case .touchRelease: return "touchRelease"
        case .audioGun: return "audioGun"
        case .countdown: return "countdown"
        case .other(let word): return word
        }
    }

    public static var expectedDescription: String { "a start type" }
}

/// clock_sync_result.quality, the tiers of seed 002 section 4.3.
public enum SyncQuality: WireWord, Sendable {
    case excellent
    case good
    case fair
    case poor
    case other(String)

    public init?(wire: String) {
        switch wire {
        case "excellent": self = .excellent
        case "good": self = .good
        case "fair": self = .fair
        case "poor": self = .poor
        default: self = .other(wire)
        }
    }

    public var wire: String {
        switch self {
        case .excellent: return "excellent"
        case .good: return "good"
        case .fair: return "fair"
        case .poor: return "poor"
        case .other(let word): return word
        }
    }

    public static var expectedDescription: String { "a sync quality" }
}

/// heartbeat.state.
public enum GateState: WireWord, Sendable {
    case idle
    case calibrating
    case armed
    case timing
    case other(String)

    public init?(wire: String) {
        switch wire {
        case "idle": self = .idle
        case "calibrating": self = .calibrating
        case "armed": self = .armed
        case "timing": self = .timing
        default: self = .other(wire)
        }
    }

    public var wire: String {
        switch self {
        case .idle: return "idle"
        case .calibrating: return "calibrating"
        case .armed: return "armed"
        case .timing: return "timing"
        case .other(let word): return word
        }
    }

    public static var expectedDescription: String { "a gate state" }
}

/// heartbeat.thermalState (iOS's ProcessInfo.ThermalState words).
public enum ThermalState: WireWord, Sendable {
    case nominal
    case fair
    case serious
    case critical
    case other(String)

    public init?(wire: String) {
        switch wire {
        case "nominal": self = .nominal
        case "fair": self = .fair
        case "serious": self = .serious
        case "critical": self = .critical
        default: self = .other(wire)
        }
    }

    public var wire: String {
        switch self {
        case .nominal: return "nominal"
        case .fair: return "fair"
        case .serious: return "serious"
        case .critical: return "critical"
        case .other(let word): return word
        }
    }

    public static var expectedDescription: String { "a thermal state" }
}

/// session_end.reason.
public enum SessionEndReason: WireWord, Sendable {
    case userEnded
    case timeout
    case error
    case other(String)

    public init?(wire: String) {
        switch wire {
        case "user_ended": self = .userEnded
        case "timeout": self = .timeout
        case "error": self = .error
        default: self = .other(wire)
        }
    }

    public var wire: String {
        switch self {
        case .userEnded: return "user_ended"
        case .timeout: return "timeout"
        case .error: return "error"
        case .other(let word): return word
        }
    }

    public static var expectedDescription: String { "a session end reason" }
}

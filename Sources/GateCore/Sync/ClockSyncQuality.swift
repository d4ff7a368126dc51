/// The quality tiers of seed 002 section 4.3, the names its CLOCK_SYNC_RESULT
/// message carries. (Seed 000 section 10.6 splits POOR into POOR 10-15 ms and
/// BAD over 15 ms; the wire has four names, and neither may time, so four.)
public enum ClockSyncQuality: Int, Comparable, Sendable {
    case poor = 0
    case fair = 1
    case good = 2
    case excellent = 3

    /// EXCELLENT under 3 ms, GOOD 3 to under 5, FAIR 5 to 10, POOR over 10
    /// (and NaN, an uncertainty nobody knows).
    public init(uncertaintyMs: Double) {
        if uncertaintyMs < 3 { self = .excellent }
        else if uncertaintyMs < 5 { self = .good }
        else if uncertaintyMs <= 10 { self = .fair }
        else { self = .poor }
    }

    public static func < (a: ClockSyncQuality, b: ClockSyncQuality) -> Bool { a.rawValue < b.rawValue }

    /// "excellent", "good", "fair", "poor": the protocol's JSON values.
    public var name: String {
        switch self {
        case .excellent: return "excellent"
        case .good: return "good"
        case .fair: return "fair"
        case .poor: return "poor"
        }
    }

    /// FAIR or better may time (seed 002 section 4.3).
    public var canTime: Bool { self >= .fair }
}

/// Whether splits across the two clocks may be timed now, and if not, why.
public struct ClockSyncReadiness: Equatable, Sendable {
    public var canTime: Bool
    /// Empty when `canTime`; otherwise one line for the display and the log.
    public var reason: String
    public var quality: ClockSyncQuality?
    public var uncertaintyMs: Double?
}

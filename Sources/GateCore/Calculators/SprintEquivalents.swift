/// Equivalent times between 60, 100 and 200 m (seed 000 section 24.12:
/// the phone app converts with the World Athletics scoring tables).
///
/// World Athletics Scoring Tables of Athletics (B. Spiriev, A. Spiriev;
/// World Athletics, 2022 edition): each event's points are
/// P = a·(T + b)², T in seconds, points rounded down; two marks are
/// equivalent when they score alike. The 60 m is an indoor event, the 100 m
/// outdoor, the 200 m taken outdoor. Inverting, T = -b - √(P / a).
/// The tables' own rows are the checks: men 100 m 11.15 and 200 m 22.62
/// both score 842, 60 m 7.19 scores 845; women 100 m 12.78 scores 843.
public enum SprintEquivalents {
    public enum Event: Equatable, Sendable, CaseIterable {
        case m60, m100, m200

        public var name: String {
            switch self {
            case .m60: return "60m"
            case .m100: return "100m"
            case .m200: return "200m"
            }
        }

        public init?(name: String) {
            switch name {
            case "60", "60m": self = .m60
            case "100", "100m": self = .m100
            case "200", "200m": self = .m200
            default: return nil
            }
        }
    }

    public enum Sex: Equatable, Sendable {
        case men, women
        public var name: String { self == .men ? "men" : "women" }
    }

    /// (a, b) of P = a·(T + b)²; b is minus the time that scores nothing.
    static func coefficients(_ event: Event, _ sex: Sex) -> (a: Double, b: Double) {
        switch (event, sex) {
        case (.m60, .men): return (68.6, -10.7)
        case (.m100, .men): return (24.63, -17)
        case (.m200, .men): return (5.08, -35.5)
        case (.m60, .women): return (24.9, -14)
        case (.m100, .women): return (9.92, -22)
        case (.m200, .women): return (2.242, -45.5)
        }
    }

    /// The time that scores nothing: the tables stop there.
    public static func zeroPointsSeconds(_ event: Event, _ sex: Sex) -> Double { -coefficients(event, sex).b }

    /// The table's points for `seconds`, unrounded (nil: slower than the
    /// table's zero, where the formula stops meaning anything).
    public static func points(_ event: Event, _ sex: Sex, seconds: Double) -> Double? {
        let c = coefficients(event, sex)
        guard seconds > 0, seconds < -c.b else { return nil }
        return c.a * (seconds + c.b) * (seconds + c.b)
    }

    /// The time at `event` that scores `points`.
    public static func seconds(_ event: Event, _ sex: Sex, points: Double) -> Double {
        let c = coefficients(event, sex)
        return -c.b - (max(0, points) / c.a).squareRoot()
    }

    /// `seconds` at `from` as the time scoring the same at `to`.
    public static func convert(_ seconds: Double, from: Event, to: Event, sex: Sex) -> Double? {
        guard let p = points(from, sex, seconds: seconds) else { return nil }
        return SprintEquivalents.seconds(to, sex, points: p)
    }
}

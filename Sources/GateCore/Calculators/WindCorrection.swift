/// A sprint time run in a wind, as the time it would be in still air
/// (seed 000 section 24.11: the phone app's "research-backed" wind
/// adjustment; this is the model that app uses).
///
/// Moinat M, Fabius O, Emanuel KS (2018), "Data-driven quantification of
/// the effect of wind on athletics performance", European Journal of Sport
/// Science 18(9):1185-1190, doi:10.1080/17461391.2018.1480062. From 150,169
/// competition results they fit the wind's effect on a time as a quadratic
/// in the wind w (m/s, + tailwind), ΔP = t0 - tw = a·w + b·w²:
///   100 m: ΔP = (a + c·P)·w + b·w², a = -0.0449, c = 0.009459, b = -0.0042
///          (their performance-level model: slower runners spend longer in
///          the wind, so gain more; P is the time, s)
///   200 m: ΔP = a·w + b·w², a = 0.090, b = -0.010
/// The abstract's figures are the checks: a +2.0 m/s wind is worth 0.140 s
/// over 200 m, and a 13 s 100 m runner gains 69% more from it than a 10 s one.
public enum WindCorrection {
    public enum Event: Equatable, Sendable {
        case m100, m200

        public var name: String { self == .m100 ? "100m" : "200m" }

        public init?(name: String) {
            switch name {
            case "100", "100m": self = .m100
            case "200", "200m": self = .m200
            default: return nil
            }
        }
    }

    /// Beyond ±10 m/s the fit, made on winds of a few m/s, means nothing.
    public static let windLimit = 10.0
    /// World Athletics' legal limit for records in sprints.
    public static let legalWind = 2.0

    /// ΔP = t0 - tw in seconds: what the wind `wind` gave a time of `seconds`.
    public static func effect(_ event: Event, seconds: Double, wind: Double) -> Double {
        switch event {
        case .m100: return (-0.0449 + 0.009459 * seconds) * wind - 0.0042 * wind * wind
        case .m200: return 0.090 * wind - 0.010 * wind * wind
        }
    }

    /// The still-air equivalent of `seconds` run with `wind` m/s (+ tailwind).
    public static func stillAir(_ event: Event, seconds: Double, wind: Double) -> Double {
        seconds + effect(event, seconds: seconds, wind: wind)
    }

    /// What a still-air time `seconds` becomes with `wind`: t0 - ΔP, with
    /// the 100 m's ΔP taken at the wind-aided time itself (a few fixed-point
    /// steps; ΔP changes by under 0.1 ms per 10 ms of time).
    public static func inWind(_ event: Event, stillAirSeconds t0: Double, wind: Double) -> Double {
        var t = t0
        for _ in 0..<8 { t = t0 - effect(event, seconds: t, wind: wind) }
        return t
    }
}

/// The units a speed is shown in (seed 004: m/s, km/h, mph, knots), chosen
/// by `speed.units` and `results --units`; several may be shown side by side.
public enum SpeedUnit: Equatable, Sendable {
    case metresPerSecond, kilometresPerHour, milesPerHour, knots

    /// As written in settings and on tables: "m/s", "km/h", "mph", "kn".
    public var symbol: String {
        switch self {
        case .metresPerSecond: return "m/s"
        case .kilometresPerHour: return "km/h"
        case .milesPerHour: return "mph"
        case .knots: return "kn"
        }
    }

    /// Decimal places a coach reads: m/s to hundredths, the rest to tenths.
    public var places: Int { self == .metresPerSecond ? 2 : 1 }

    public init?(name: String) {
        switch name {
        case "m/s", "mps": self = .metresPerSecond
        case "km/h", "kmh", "kph": self = .kilometresPerHour
        case "mph": self = .milesPerHour
        case "kn", "knots", "kt": self = .knots
        default: return nil
        }
    }

    public static let names = "m/s, km/h, mph or knots, or several comma-separated such as m/s, km/h"

    /// What the box showed before units could be chosen.
    public static let standard: [SpeedUnit] = [.metresPerSecond, .kilometresPerHour, .milesPerHour]

    /// "km/h, mph" into its units; nil if any is unknown or the list is empty.
    public static func list(_ text: String) -> [SpeedUnit]? {
        var units: [SpeedUnit] = []
        for item in text.split(separator: ",") {
            guard let unit = SpeedUnit(name: String(KeyValueFile.trimmed(item))) else { return nil }
            if !units.contains(unit) { units.append(unit) }
        }
        return units.isEmpty ? nil : units
    }

    public func value(_ speed: Speed) -> Double {
        switch self {
        case .metresPerSecond: return speed.metresPerSecond
        case .kilometresPerHour: return speed.kilometresPerHour
        case .milesPerHour: return speed.milesPerHour
        case .knots: return speed.knots
        }
    }

    /// "8.21 m/s".
    public func text(_ speed: Speed) -> String { DecimalText.fixed(value(speed), places: places) + " " + symbol }
}

extension Speed {
    /// International nautical mile: 1852 m.
    public var knots: Double { metresPerSecond * 3600 / 1852 }
}

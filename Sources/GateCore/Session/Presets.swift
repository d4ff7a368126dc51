/// The tests a coach picks by name (seed 000 section 4.1): each sets the
/// distance, the start types it allows (the first is its default), how
/// many boxes it takes and where their gates stand. Pure data: the
/// configuration (`preset = flying-30m`), the command line (`--preset`)
/// and the button's preset gesture all look presets up here.
public struct Preset: Equatable, Sendable {
    public enum Category: Equatable, Sendable {
        case acceleration, maxSpeed, agility, combine

        public var name: String {
            switch self {
            case .acceleration: return "Acceleration"
            case .maxSpeed: return "Max Speed"
            case .agility: return "Agility"
            case .combine: return "Combine"
            }
        }
    }

    public let id: String
    public let name: String
    /// The timed distance in metres: start line to finish; nil for the
    /// practice preset, whose laps at one gate have no set distance.
    public let metres: Double?
    /// The distance as the test names it in yards (40 yd), shown first.
    public let yards: Int?
    /// Distances a coach may choose instead (Flying Sprint: 10, 20 or 30 m).
    public let choices: [Double]
    /// Allowed start types; the first is the preset's own.
    public let startTypes: [StartType]
    /// Devices of seed 000's table: the phone app's phones, here boxes.
    public let minDevices: Int
    public let maxDevices: Int
    public let category: Category
    /// Intermediate gates, metres from the start, filled in order as boxes
    /// are added (the 100 m's 30 m split comes before its 60 m one).
    public let splits: [Double]

    init(_ id: String, _ name: String, metres: Double?, yards: Int? = nil, choices: [Double] = [],
         _ startTypes: [StartType], devices: ClosedRange<Int>, _ category: Category, splits: [Double] = []) {
        self.id = id; self.name = name; self.metres = metres; self.yards = yards; self.choices = choices
        self.startTypes = startTypes; minDevices = devices.lowerBound; maxDevices = devices.upperBound
        self.category = category; self.splits = splits
    }

    public static let metresPerYard = 0.9144

    /// Seed 000 section 4.1, in its order. "Touch" is the touch pad
    /// (touch-release); a start-event sprint's default is touch-release,
    /// which one box can time alone with the pad at the start line.
    public static let all: [Preset] = [
        Preset("10m", "10m Acceleration", metres: 10, [.touchRelease, .voice, .countdown], devices: 2...2, .acceleration),
        Preset("20m", "20m Sprint", metres: 20, [.touchRelease, .voice, .countdown], devices: 2...3, .acceleration, splits: [10]),
        Preset("30m", "30m Sprint", metres: 30, [.touchRelease, .voice, .countdown], devices: 2...2, .acceleration),
        Preset("60m", "60m Sprint", metres: 60, [.touchRelease, .voice, .countdown], devices: 2...3, .acceleration, splits: [30]),
        Preset("100m", "100m Sprint", metres: 100, [.touchRelease, .voice, .countdown], devices: 2...4, .acceleration, splits: [30, 60]),
        Preset("practice", "Solo Mode", metres: nil, [.flying], devices: 1...1, .acceleration),
        Preset("flying-10m", "Flying 10m", metres: 10, [.flying], devices: 2...2, .maxSpeed),
        Preset("flying-30m", "Flying 30m", metres: 30, [.flying], devices: 2...2, .maxSpeed),
        Preset("flying", "Flying Sprint", metres: 30, choices: [10, 20, 30], [.flying], devices: 2...2, .maxSpeed),
        Preset("takeoff-velocity", "Take Off Velocity", metres: 5, [.flying], devices: 2...2, .maxSpeed),
        Preset("5-10-5", "Pro Agility (5-10-5)", metres: 20 * metresPerYard, yards: 20, [.inFrame], devices: 1...1, .agility),
        Preset("l-drill", "L-Drill (3-Cone)", metres: 30 * metresPerYard, yards: 30, [.inFrame], devices: 1...1, .agility),
        Preset("40yd", "40 Yard Dash", metres: 40 * metresPerYard, yards: 40, [.touchRelease, .voice, .countdown], devices: 2...2, .combine),
    ]

    public static var ids: String { all.map { $0.id }.joined(separator: ", ") }

    public static func named(_ id: String) -> Preset? { all.first { $0.id == id } }

    /// The preset after this one in the table, wrapping: the button's cycle.
    public var next: Preset {
        let i = Preset.all.firstIndex { $0.id == id } ?? -1
        return Preset.all[(i + 1) % Preset.all.count]
    }

    public var defaultStartType: StartType { startTypes[0] }

    /// A flying start's clock starts at the first gate's crossing, so the
    /// start line needs a camera; a start event (touch pad, GO) needs none
    /// there, and one box at the finish times the whole distance.
    public var needsStartGate: Bool { startTypes.contains(.flying) && metres != nil }

    /// "40 yd (36.58 m)", "30 m", "10/20/30 m", "variable".
    public var distanceText: String { Preset.distanceText(metres: metres, yards: yards, choices: choices) }

    public static func distanceText(metres: Double?, yards: Int? = nil, choices: [Double] = []) -> String {
        if let yards { return String(yards) + " yd (" + DecimalText.fixed(Double(yards) * metresPerYard, places: 2) + " m)" }
        if !choices.isEmpty { return choices.map { metresText($0) }.joined(separator: "/") + " m" }
        guard let metres else { return "variable" }
        return metresText(metres) + " m"
    }

    /// 30 as "30", 36.576 as "36.58".
    static func metresText(_ metres: Double) -> String {
        metres == metres.rounded() ? String(Int(metres)) : DecimalText.fixed(metres, places: 2)
    }

    /// Every gate's distance from the start for `boxes` boxes (clamped to
    /// what the preset takes): the start line, as many splits as the boxes
    /// beyond two allow, the finish. `finish` overrides a selectable distance.
    public func gates(boxes: Int, finish: Double? = nil) -> [Double] {
        guard let end = finish ?? metres else { return [0] }
        let count = min(max(boxes, minDevices), maxDevices)
        return [0] + Array(splits.prefix(max(0, count - 2))) + [end]
    }

    /// "flying, touch-release or countdown" for errors.
    public var startTypeNames: String {
        var text = ""
        for (i, type) in startTypes.enumerated() {
            if i > 0 { text += i == startTypes.count - 1 ? " or " : ", " }
            text += type.name
        }
        return text
    }
}

/// What a box alone (`race = solo`) does with a preset: it stands at the
/// finish line and times the start to the finish when the clock is started
/// by an event (touch pad, GO). A flying preset has no event: its clock
/// starts at a first gate, which one box cannot also be, so a box alone
/// refuses it with the reason rather than time laps a coach would read as
/// the preset's distance. Splits that need more boxes are named.
public enum PresetAlone {
    public static func refusal(_ preset: Preset) -> String? {
        guard preset.needsStartGate else { return nil }
        return "preset " + preset.id + " times the " + preset.distanceText + " between two gates and needs "
            + String(preset.minDevices) + " boxes (a flying start's clock starts at the first gate's crossing; a box alone only times laps): "
            + "set race = host here and race = join on a second box, or use preset = practice"
    }

    /// "the split gates at 30 m and 60 m need 3-4 boxes (race = host); this box at the finish times 100 m from the start"; nil: nothing missing.
    public static func missing(_ preset: Preset, startType: StartType) -> String? {
        var notes: [String] = []
        if !preset.splits.isEmpty {
            var at = ""
            for (i, m) in preset.splits.enumerated() {
                if i > 0 { at += i == preset.splits.count - 1 ? " and " : ", " }
                at += Preset.metresText(m) + " m"
            }
            notes.append((preset.splits.count == 1 ? "the split gate at " : "the split gates at ") + at + " need"
                + (preset.splits.count == 1 ? "s" : "") + " more boxes (race = host, up to " + String(preset.maxDevices)
                + "); this box at the finish times the " + preset.distanceText + " from the start")
        }
        if startType.isCalled, let metres = preset.metres, metres > 10 {
            // Sound covers 343 m/s: a GO called from the finish line reaches the athlete late.
            notes.append("a " + startType.name + " start called from the finish reaches the athlete "
                + DecimalText.fixed(metres / 343 * 1000, places: 0) + " ms after GO leaves the speaker: use the touch pad or a box at the start")
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}

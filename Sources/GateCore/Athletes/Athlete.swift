/// One athlete a coach times (seed 000 section 13.1): a name, and what a
/// coach may add. The id never changes once given, so runs recorded under
/// it stay theirs through renames; each run also keeps the name and colour
/// as they were.
public struct Athlete: Equatable, Sendable {
    public var id: String
    public var name: String
    public var nickname: String?
    public var colour: AthleteColour
    /// "YYYY-MM-DD".
    public var birthdate: String?
    public var gender: AthleteGender?

    public init(id: String, name: String, colour: AthleteColour = .gray) {
        self.id = id; self.name = name; self.colour = colour
    }

    /// How the box and the tables call them: the nickname when there is one.
    public var calledName: String { nickname ?? name }
}

/// Seed 000's eight athlete colours (a chip on the phone; here a word in
/// tables and records).
public enum AthleteColour: Equatable, Sendable, CaseIterable {
    case red, orange, yellow, green, blue, purple, pink, gray

    public var name: String {
        switch self {
        case .red: return "red"
        case .orange: return "orange"
        case .yellow: return "yellow"
        case .green: return "green"
        case .blue: return "blue"
        case .purple: return "purple"
        case .pink: return "pink"
        case .gray: return "gray"
        }
    }

    /// "grey" is the same colour spelt the other way.
    public init?(name: String) {
        for colour in AthleteColour.allCases where colour.name == name {
            self = colour
            return
        }
        if name == "grey" { self = .gray; return }
        return nil
    }

    public static let names = "red, orange, yellow, green, blue, purple, pink or gray"

    /// The colour a new athlete gets when none is given: the next in the
    /// list, so a squad added one by one is told apart at a glance.
    public static func forNewAthlete(number: Int) -> AthleteColour {
        allCases[(max(number, 1) - 1) % allCases.count]
    }
}

public enum AthleteGender: Equatable, Sendable {
    case female, male, other

    public var name: String {
        switch self {
        case .female: return "female"
        case .male: return "male"
        case .other: return "other"
        }
    }

    public init?(name: String) {
        switch name {
        case "female", "f": self = .female
        case "male", "m": self = .male
        case "other", "x": self = .other
        default: return nil
        }
    }

    public static let names = "female, male or other (f, m, x)"
}

/// The checks a name, a nickname and a birthdate must pass before they
/// are written: each failure says what was given and what is expected.
public enum AthleteFieldCheck {
    public static let maxNameLength = 40

    /// nil when `text` is a usable name; else why not.
    public static func name(_ text: String, field: String = "name") -> String? {
        if text.unicodeScalars.allSatisfy({ $0 == " " }) {
            return field + " is empty: expected a name such as \"Ada Quick\""
        }
        if text.count > maxNameLength {
            return field + " '" + text + "' is " + String(text.count) + " characters: expected at most " + String(maxNameLength)
        }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            return field + " holds a control character: expected letters, digits, spaces and punctuation"
        }
        if text.hasPrefix(" ") || text.hasSuffix(" ") {
            return field + " '" + text + "' starts or ends with a space"
        }
        return nil
    }

    /// nil when `text` is a real date "YYYY-MM-DD" from 1900 on; else why not.
    public static func birthdate(_ text: String) -> String? {
        let expected = "expected a date as YYYY-MM-DD, such as 2009-04-17"
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
              let year = DecimalText.parseInt(parts[0]), let month = DecimalText.parseInt(parts[1]),
              let day = DecimalText.parseInt(parts[2]) else {
            return "birthdate '" + text + "': " + expected
        }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1900...2100).contains(year), (1...12).contains(month), (1...days[Int(month) - 1]).contains(day) else {
            return "birthdate '" + text + "' is no day of the calendar: " + expected
        }
        return nil
    }
}

/// A word or phrase the box can say: one WAV clip each, made at build time
/// by espeak-ng from image/voice/phrases.tsv (`make voice`). The firmware
/// only plays the clips; it carries no speech engine.
public struct Phrase: Equatable, Hashable, Sendable {
    public let index: Int

    /// The clip's file name without ".wav": the table's order is the index.
    public var file: String { Phrase.files[index] }

    /// As a terminal line shows it.
    public var words: String {
        var text = ""
        for c in file.unicodeScalars { text.unicodeScalars.append(c == "-" ? " " : c) }
        return text
    }

    public static let files: [String] = [
        "on-your-marks", "set", "go", "point", "seconds", "lap", "new-personal-best", "best-lap", "best-run",
        "false-start", "ready", "hundred",
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
        "season-best", "no-athlete", "by",
        // Each preset's name, "preset-" + its id, in `Preset.all`'s order:
        // what the button's preset gesture says.
        "preset-10m", "preset-20m", "preset-30m", "preset-60m", "preset-100m", "preset-practice",
        "preset-flying-10m", "preset-flying-30m", "preset-flying", "preset-takeoff-velocity",
        "preset-5-10-5", "preset-l-drill", "preset-40yd",
    ]
    public static var count: Int { files.count }

    public static let onYourMarks = Phrase(index: 0)
    public static let set = Phrase(index: 1)
    public static let go = Phrase(index: 2)
    public static let point = Phrase(index: 3)
    public static let seconds = Phrase(index: 4)
    public static let lap = Phrase(index: 5)
    public static let newPersonalBest = Phrase(index: 6)
    public static let bestLap = Phrase(index: 7)
    public static let bestRun = Phrase(index: 8)
    public static let falseStart = Phrase(index: 9)
    public static let ready = Phrase(index: 10)
    public static let hundred = Phrase(index: 11)
    static let zeroIndex = 12
    static let twentyIndex = 32
    public static let seasonBest = Phrase(index: 40)
    /// The athlete gesture came round to nobody: runs are not assigned.
    public static let noAthlete = Phrase(index: 41)
    /// "new personal best, by zero point zero five".
    public static let by = Phrase(index: 42)

    /// The phrase that names `preset`; nil for one without a clip's name.
    public static func preset(_ preset: Preset) -> Phrase? { Phrase(file: "preset-" + preset.id) }

    /// The word for `n`: 0-19, or a multiple of ten from 20 to 90.
    public static func number(_ n: Int) -> Phrase? {
        if (0...19).contains(n) { return Phrase(index: zeroIndex + n) }
        if (20...90).contains(n) && n % 10 == 0 { return Phrase(index: twentyIndex + n / 10 - 2) }
        return nil
    }

    public init(index: Int) { self.index = index }

    /// The phrase whose clip is `file`.
    public init?(file: String) {
        guard let i = Phrase.files.firstIndex(of: file) else { return nil }
        index = i
    }
}

/// Times and counts in words, the way a coach says them: 4.82 s is "four
/// point eight two", 12.05 "twelve point zero five", 125.4 "one hundred
/// twenty five point four zero". Hundredths, rounded half up; the decimals
/// digit by digit so a listener hears both.
public enum SpokenNumbers {
    /// The words for 0...999; false (nothing appended) outside it.
    @discardableResult
    public static func integer(_ n: Int, into words: inout [Phrase]) -> Bool {
        guard (0...999).contains(n) else { return false }
        if n == 0 { words.append(.number(0)!); return true }
        let hundreds = n / 100, rest = n % 100
        if hundreds > 0 { words.append(.number(hundreds)!); words.append(.hundred) }
        if rest >= 20 {
            words.append(.number(rest / 10 * 10)!)
            if rest % 10 > 0 { words.append(.number(rest % 10)!) }
        } else if rest > 0 {
            words.append(.number(rest)!)
        }
        return true
    }

    /// `nanos` as seconds to hundredths; false (nothing appended) from 1000 s on.
    @discardableResult
    public static func seconds(_ nanos: Int64, into words: inout [Phrase]) -> Bool {
        let hundredths = (max(0, nanos) + 5_000_000) / 10_000_000
        guard hundredths < 100_000 else { return false }
        integer(Int(hundredths / 100), into: &words)
        words.append(.point)
        words.append(.number(Int(hundredths % 100 / 10))!)
        words.append(.number(Int(hundredths % 10))!)
        return true
    }
}

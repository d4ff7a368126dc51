/// The athletes file, `athletes.jsonl` in the data directory beside the
/// sessions: JSON Lines, appended and fsync'd record by record, never
/// rewritten (house rule 8). An edit is the athlete's whole record again
/// and a removal a record of its own: the last record of an id wins, so a
/// power cut mid-write loses at most the line being written, and what a
/// coach entered before is never at risk.
///
/// Lines, by "type":
/// - "athlete": an athlete as added or edited (`id` stays; every field);
/// - "athlete_removed": the athlete with `id` is gone from the roster (their
///   runs keep their name and colour);
/// - "season": a new season starts at `timestamp` (Unix ms): season bests
///   count runs from then on.
public enum AthletesFile {
    public static let fileName = "athletes.jsonl"
    /// The name clips `ts-gate athletes add` speaks, one WAV per id.
    public static let voiceDirectoryName = "athletes-voice"

    public static func line(_ athlete: Athlete, timestamp: Int64) -> String {
        var w = JSONLineWriter()
        w.string("type", "athlete")
        w.string("id", athlete.id)
        w.string("name", athlete.name)
        if let nickname = athlete.nickname { w.string("nickname", nickname) }
        w.string("colour", athlete.colour.name)
        if let birthdate = athlete.birthdate { w.string("birthdate", birthdate) }
        if let gender = athlete.gender { w.string("gender", gender.name) }
        w.int("timestamp", timestamp)
        return w.finish()
    }

    public static func removalLine(id: String, timestamp: Int64) -> String {
        var w = JSONLineWriter()
        w.string("type", "athlete_removed")
        w.string("id", id)
        w.int("timestamp", timestamp)
        return w.finish()
    }

    public static func seasonLine(name: String?, timestamp: Int64) -> String {
        var w = JSONLineWriter()
        w.string("type", "season")
        if let name { w.string("name", name) }
        w.int("timestamp", timestamp)
        return w.finish()
    }

    /// The roster a file's text describes, and a line per problem: a torn
    /// last line (the box or the command lost power writing it) or a
    /// damaged one, each skipped with its number.
    public static func parse(_ text: String) -> (roster: AthleteRoster, warnings: [String]) {
        var roster = AthleteRoster()
        var warnings: [String] = []
        let endsWithNewline = text.utf8.last == 0x0A
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() where !raw.isEmpty {
            do throws(ResultsReader.ResultsLineError) {
                try apply(String(raw), to: &roster)
            } catch {
                if index == lines.count - 1 && !endsWithNewline {
                    warnings.append(fileName + " line " + String(index + 1) + ": torn last line ignored (" + String(raw.utf8.count)
                        + " bytes, no newline); the write it belonged to did not finish")
                } else {
                    warnings.append(fileName + " line " + String(index + 1) + ": " + error.message + "; line skipped")
                }
            }
        }
        return (roster, warnings)
    }

    static func apply(_ line: String, to roster: inout AthleteRoster) throws(ResultsReader.ResultsLineError) {
        let fields: [(key: String, value: JSONScalar)]
        do { fields = try JSONLineReader.parse(line) } catch {
            throw ResultsReader.ResultsLineError(message: "not a JSON object (column " + String(error.column) + ": expected " + error.expected + ")")
        }
        let f = ResultsReader.Fields(fields: fields)
        let id: String
        switch try f.string("type") {
        case "athlete":
            id = try f.string("id")
            let colourName = try f.string("colour")
            guard let colour = AthleteColour(name: colourName) else {
                throw ResultsReader.ResultsLineError(message: "field \"colour\": expected " + AthleteColour.names + ", found \"" + colourName + "\"")
            }
            var athlete = Athlete(id: id, name: try f.string("name"), colour: colour)
            athlete.nickname = f.optionalString("nickname")
            athlete.birthdate = f.optionalString("birthdate")
            athlete.gender = f.optionalString("gender").flatMap { AthleteGender(name: $0) }
            roster.put(athlete)
        case "athlete_removed":
            id = try f.string("id")
            roster.remove(id: id)
        case "season":
            roster.seasonStartMillis = try f.int("timestamp")
            roster.seasonName = f.optionalString("name")
            return
        default:
            throw ResultsReader.ResultsLineError(message: "unknown record type (expected athlete, athlete_removed or season)")
        }
        roster.noteId(id)
    }
}

/// The athletes as the file leaves them: in the order they were first
/// added, each as last written; removed ones gone.
public struct AthleteRoster: Equatable, Sendable {
    public private(set) var athletes: [Athlete] = []
    /// The highest number an id was ever given, removed ones included, so
    /// a new athlete never takes an id that runs on the card still name.
    public private(set) var highestNumber = 0
    /// When the current season began (Unix ms); nil: no season was started,
    /// and season bests are the bests of all time.
    public var seasonStartMillis: Int64?
    public var seasonName: String?

    public init() {}

    public var isEmpty: Bool { athletes.isEmpty }

    /// "athlete-0001" for the first athlete ever added.
    public static func id(number: Int) -> String { "athlete-" + DecimalText.zeroPadded(number, width: 4) }

    public var nextId: String { AthleteRoster.id(number: highestNumber + 1) }

    public mutating func put(_ athlete: Athlete) {
        if let i = athletes.firstIndex(where: { $0.id == athlete.id }) { athletes[i] = athlete } else { athletes.append(athlete) }
    }

    public mutating func remove(id: String) {
        athletes.removeAll { $0.id == id }
    }

    mutating func noteId(_ id: String) {
        guard id.hasPrefix("athlete-"), let n = DecimalText.parseInt(id.dropFirst(8)), n > 0 else { return }
        highestNumber = max(highestNumber, Int(n))
    }

    public func athlete(id: String) -> Athlete? { athletes.first { $0.id == id } }

    /// The athlete a command names: by id, else by name or nickname
    /// ignoring case, else the only one whose name or nickname starts so
    /// ("ben" for Ben Swift when no other name starts with "ben").
    public func find(_ key: String) -> Athlete? {
        if let byId = athlete(id: key) { return byId }
        let folded = AthleteRoster.fold(key)
        guard !folded.isEmpty else { return nil }
        func names(_ a: Athlete) -> [String] { [AthleteRoster.fold(a.name)] + (a.nickname.map { [AthleteRoster.fold($0)] } ?? []) }
        if let exact = athletes.first(where: { names($0).contains(folded) }) { return exact }
        let starting = athletes.filter { names($0).contains { $0.hasPrefix(folded) } }
        return starting.count == 1 ? starting[0] : nil
    }

    /// Whether another athlete than `except` already has `name`.
    public func nameTaken(_ name: String, except: String? = nil) -> Bool {
        let folded = AthleteRoster.fold(name)
        return athletes.contains { $0.id != except && AthleteRoster.fold($0.name) == folded }
    }

    /// ASCII letters to lower case: enough to match what a coach types.
    static func fold(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x41 && scalar.value <= 0x5A {
                out.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20)!)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Sorted by name, as the list shows them (seed 000 section 13.2).
    public var byName: [Athlete] {
        athletes.sorted { AthleteRoster.fold($0.name) < AthleteRoster.fold($1.name) }
    }
}

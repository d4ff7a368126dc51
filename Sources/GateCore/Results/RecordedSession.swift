/// One session's results file read back and gathered: what history, search
/// and the exports work on. Built from the reader's records, so every
/// view of a session (table, CSV, report) agrees on what the file holds.
public struct RecordedSession: Equatable {
    /// The session's directory name ("session-0003").
    public var id: String
    public var header: SessionRecord?
    /// Every crossing of this box's gate, in the file's order.
    public var crossings: [CrossingRecord] = []
    /// The race's runs, when the box was one of a race of boxes.
    public var raceRuns: [RaceRunLine] = []
    public var end: SessionEndRecord?
    /// The coach's name and note: the last `session_note` line giving each.
    public var name: String?
    public var note: String?
    /// The reader's problems with the file, each naming its line.
    public var warnings: [String] = []

    public init(id: String, parsed: ResultsReader.Parsed) {
        self.id = id
        warnings = parsed.warnings
        for record in parsed.records {
            switch record {
            case .session(let s): header = s
            case .start, .reaction: break   // each crossing carries its run's start and reaction
            case .crossing(let c): crossings.append(c)
            case .end(let e): end = e
            case .raceRun(let r): raceRuns.append(r)
            case .note(let n):
                if let text = n.name { name = text.isEmpty ? nil : text }
                if let text = n.note { note = text.isEmpty ? nil : text }
            }
        }
    }

    /// Reads a results file's text.
    public init(id: String, text: String) {
        self.init(id: id, parsed: ResultsReader.parse(text))
    }

    /// When the session began (Unix ms), if its header survived.
    public var timestamp: Int64? { header?.timestamp }

    /// One of a race of boxes: its runs are the race's, not its gate's crossings.
    public var isRace: Bool { header?.mode == "race" || !raceRuns.isEmpty }

    /// Boxes that timed the session: 1 alone, the race's gates in a race
    /// (nil for a race that recorded no run, whose size is not on file).
    public var boxes: Int? {
        if let gates = raceRuns.map({ $0.gates }).max() { return gates }
        return isRace ? nil : 1
    }

    /// The session's timed runs alone: crossings with a time (not the one
    /// that started a flying clock), or the race's runs.
    public var runCount: Int {
        isRace ? raceRuns.count : crossings.filter { $0.splitTimeMs != nil }.count
    }

    /// The fastest run or lap, ms; a false start is timed but no one's best.
    public var bestMs: Double? {
        if isRace { return raceRuns.map { $0.splitTimeMs }.min() }
        return crossings.filter { !$0.falseStart }.compactMap { $0.splitTimeMs }.min()
    }

    /// The distance the session timed, metres: its preset's, else its race's.
    public var distanceMetres: Double? {
        header?.distanceMetres ?? raceRuns.lazy.compactMap { $0.distanceMetres }.first
    }

    /// Every athlete named in the session, first appearance first.
    public var athleteNames: [String] {
        var names: [String] = []
        let all = crossings.compactMap { $0.runAthlete?.name } + raceRuns.compactMap { $0.runAthlete?.name }
        for name in all where !names.contains(name) { names.append(name) }
        return names
    }

    /// "2026-11-03 17:42 UTC", or nil without a header.
    public var dateText: String? { timestamp.map { CalendarDate.timeText(unixMillis: $0) } }
}

/// History (seed 000 section 12.2): which sessions and runs `ts-gate
/// results` and `ts-gate export csv` show, and in what order. Sessions are
/// chosen by when, what and how they were timed; runs within them by who
/// ran and how far. A session left with no run of the athlete or distance
/// asked for is left out.
public struct HistoryQuery: Equatable {
    /// Days, UTC, both included.
    public var from: CalendarDate?
    public var to: CalendarDate?
    public var distanceMetres: Double?
    public var startType: StartType?
    /// An athlete's full name, first name or id, any case.
    public var athlete: String?
    public var preset: String?
    /// 1: a box alone; 2-4: races of that many boxes.
    public var boxes: Int?
    /// Text in a session's name or note or an athlete's name, any case.
    public var search: String?
    /// nil: the order the sessions were recorded in (their numbers), which
    /// holds even when a box without a clock source wrote wrong dates.
    public var sort: HistorySort?

    public init() {}

    /// Runs within this of the distance asked for match it (40 yd is 36.576 m).
    public static let distanceTolerance = 0.01

    public var filtersRuns: Bool { athlete != nil || distanceMetres != nil }

    /// The sessions that match, their runs narrowed, in the order asked for.
    public func apply(_ sessions: [RecordedSession]) -> [RecordedSession] {
        var kept: [(index: Int, session: RecordedSession)] = []
        for (index, session) in sessions.enumerated() where matches(session) {
            var narrowed = session
            if filtersRuns {
                narrowed.crossings = session.crossings.filter { matches($0, in: session) }
                narrowed.raceRuns = session.raceRuns.filter { matches($0, in: session) }
                if narrowed.crossings.isEmpty && narrowed.raceRuns.isEmpty { continue }
                // A flying clock's start is no run: a session left with only it has none of the runs asked for.
                if narrowed.runCount == 0 { continue }
            }
            kept.append((index, narrowed))
        }
        guard let sort else { return kept.map { $0.session } }
        // Insertion sort, stable by where each session was found: a card holds
        // hundreds of sessions at most, and the standard library's sort would
        // add 10 KB of firmware for this one element type.
        func before(_ a: Int, _ b: Int) -> Bool {
            let order = sort.compare(kept[a].session, kept[b].session)
            // Sessions begun at the same instant (simulated ones): the later recorded counts as newer.
            return order != 0 ? order < 0 : (sort == .newest ? kept[a].index > kept[b].index : kept[a].index < kept[b].index)
        }
        var order = Array(kept.indices)
        for i in order.indices.dropFirst() {
            var j = i
            while j > 0 && before(order[j], order[j - 1]) {
                order.swapAt(j, j - 1)
                j -= 1
            }
        }
        return order.map { kept[$0].session }
    }

    /// The session-level filters: date, start type, preset, boxes, search.
    public func matches(_ session: RecordedSession) -> Bool {
        if from != nil || to != nil {
            guard let millis = session.timestamp else { return false }
            if let from, millis < from.startMillis { return false }
            if let to, millis >= to.startMillis + CalendarDate.millisPerDay { return false }
        }
        if let startType, session.header?.startType != startType.code { return false }
        if let preset, session.header?.preset != preset { return false }
        if let boxes {
            // A race that recorded no run still had two boxes or more.
            guard session.boxes == boxes || (session.boxes == nil && session.isRace && boxes > 1) else { return false }
        }
        if let search {
            let query = TextSearch.folded(search)
            let texts = [session.name, session.note].compactMap { $0 } + session.athleteNames
            guard texts.contains(where: { TextSearch.contains(TextSearch.folded($0), query) }) else { return false }
        }
        return true
    }

    func matches(_ crossing: CrossingRecord, in session: RecordedSession) -> Bool {
        if let distanceMetres, !HistoryQuery.same(distanceMetres, session.header?.distanceMetres) { return false }
        if let athlete, !HistoryQuery.names(crossing.runAthlete, athlete) { return false }
        return true
    }

    func matches(_ run: RaceRunLine, in session: RecordedSession) -> Bool {
        if let distanceMetres, !HistoryQuery.same(distanceMetres, run.distanceMetres ?? session.header?.distanceMetres) { return false }
        if let athlete, !HistoryQuery.names(run.runAthlete, athlete) { return false }
        return true
    }

    static func same(_ asked: Double, _ recorded: Double?) -> Bool {
        guard let recorded else { return false }
        return (asked - recorded).magnitude < distanceTolerance
    }

    /// "ana" names Ana Silva (first name), "ana silva" and her id too.
    static func names(_ athlete: RunAthlete?, _ asked: String) -> Bool {
        guard let athlete else { return false }
        if TextSearch.equal(athlete.name, asked) { return true }
        if let id = athlete.id, TextSearch.equal(id, asked) { return true }
        guard let first = athlete.name.split(separator: " ").first else { return false }
        return TextSearch.equal(String(first), asked)
    }
}

/// The orders of history: by when a session began, by its fastest run, or
/// by how many runs it holds. Ties keep the order the sessions were found in
/// (newest: the reverse).
public enum HistorySort: Equatable, Sendable {
    case newest, oldest, fastest, mostRuns

    public init?(name: String) {
        switch name {
        case "newest": self = .newest
        case "oldest": self = .oldest
        case "fastest": self = .fastest
        case "most-runs": self = .mostRuns
        default: return nil
        }
    }

    public static let names = "newest, oldest, fastest or most-runs"

    /// Negative when `a` comes first, positive when `b` does, 0 for a tie.
    func compare(_ a: RecordedSession, _ b: RecordedSession) -> Int {
        switch self {
        case .newest: return HistorySort.order(b.timestamp ?? Int64.min, a.timestamp ?? Int64.min)
        case .oldest: return HistorySort.order(a.timestamp ?? Int64.min, b.timestamp ?? Int64.min)
        case .fastest:
            // Sessions without a timed run come last.
            switch (a.bestMs, b.bestMs) {
            case (let x?, let y?): return x < y ? -1 : (x > y ? 1 : 0)
            case (.some, .none): return -1
            case (.none, .some): return 1
            case (.none, .none): return 0
            }
        case .mostRuns: return HistorySort.order(b.runCount, a.runCount)
        }
    }

    static func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
}

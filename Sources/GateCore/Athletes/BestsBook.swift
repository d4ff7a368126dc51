/// Personal and season bests (seed 000 section 13.4), kept per athlete and
/// per test, the test keyed `{startType}_{distance}m` ("touchRelease_36.58m").
/// Built at start from the results files, which stay the source of truth
/// (nothing here is written anywhere), then updated run by run.
///
/// A run counts when it has a time from its start (a start event's run:
/// touch pad, GO, leaving the frame), a distance (the session's preset),
/// an athlete, and nothing that makes its time doubtful: a false start or
/// a tripod that moved during it never sets a best.
public struct BestsBook: Equatable, Sendable {
    /// One athlete's runs of one test.
    public struct Entry: Equatable, Sendable {
        public var personalMs: Double?
        public var seasonMs: Double?
        /// Every counted time, oldest first, with its Unix ms: the trend.
        public var runs: [(timestamp: Int64, ms: Double)] = []

        public static func == (a: Entry, b: Entry) -> Bool {
            a.personalMs == b.personalMs && a.seasonMs == b.seasonMs && a.runs.count == b.runs.count
                && zip(a.runs, b.runs).allSatisfy { $0.timestamp == $1.timestamp && $0.ms == $1.ms }
        }
    }

    /// What one run did to the athlete's bests.
    public struct Outcome: Equatable, Sendable {
        public var personalBest = false
        public var seasonBest = false
        /// The best it beat: the personal best when it set one, else the
        /// season best; nil for the athlete's first run of the test.
        public var previousBestMs: Double?
        /// previousBestMs minus this run's time (positive: faster).
        public var improvementMs: Double?

        public init() {}
    }

    /// When the season began (Unix ms); nil: every run is this season's.
    public private(set) var seasonStartMillis: Int64?
    private var entries: [String: Entry] = [:]

    public init(seasonStartMillis: Int64? = nil) {
        self.seasonStartMillis = seasonStartMillis
    }

    /// "touchRelease_36.58m": the start type's results code and the metres
    /// as `Preset` shows them (30, not 30.00).
    public static func key(startType: String, metres: Double) -> String {
        startType + "_" + Preset.metresText(metres) + "m"
    }

    static func slot(_ athleteId: String, _ key: String) -> String { athleteId + "\u{1F}" + key }

    /// Takes one run's time; returns whether it is a new best and by how much.
    public mutating func record(athleteId: String, key: String, ms: Double, timestamp: Int64) -> Outcome {
        let slot = BestsBook.slot(athleteId, key)
        var entry = entries[slot] ?? Entry()
        var outcome = Outcome()
        let inSeason = seasonStartMillis.map { timestamp >= $0 } ?? true
        if entry.personalMs.map({ ms < $0 }) ?? true {
            outcome.personalBest = true
            outcome.previousBestMs = entry.personalMs
            entry.personalMs = ms
        }
        if inSeason && (entry.seasonMs.map { ms < $0 } ?? true) {
            outcome.seasonBest = true
            if !outcome.personalBest { outcome.previousBestMs = entry.seasonMs }
            entry.seasonMs = ms
        }
        outcome.improvementMs = outcome.previousBestMs.map { $0 - ms }
        entry.runs.append((timestamp, ms))
        entries[slot] = entry
        return outcome
    }

    public func entry(athleteId: String, key: String) -> Entry? { entries[BestsBook.slot(athleteId, key)] }

    /// The tests an athlete has runs of, sorted by key.
    public func keys(athleteId: String) -> [String] {
        let prefix = athleteId + "\u{1F}"
        return entries.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// The book the results describe: every counted run of every session,
    /// oldest first. `sessions` holds each session's records as read.
    public static func from(sessions: [[ResultsReader.Record]], seasonStartMillis: Int64?) -> BestsBook {
        var runs: [(athleteId: String, key: String, ms: Double, timestamp: Int64)] = []
        for records in sessions {
            var key: String?
            for record in records {
                switch record {
                case .session(let header):
                    key = header.distanceMetres.map { BestsBook.key(startType: header.startType, metres: $0) }
                    if header.startType == StartType.flying.code { key = nil }
                case .crossing(let crossing):
                    guard let key, let run = countedRun(crossing) else { continue }
                    runs.append((run.athleteId, key, run.ms, crossing.timestamp))
                default: continue
                }
            }
        }
        runs.sort { $0.timestamp < $1.timestamp }
        var book = BestsBook(seasonStartMillis: seasonStartMillis)
        for run in runs { _ = book.record(athleteId: run.athleteId, key: run.key, ms: run.ms, timestamp: run.timestamp) }
        return book
    }

    /// The athlete and time a crossing gives a best: a start event's run
    /// finished (lap 1), clean. Nil for anything else.
    public static func countedRun(_ crossing: CrossingRecord) -> (athleteId: String, ms: Double)? {
        guard let athleteId = crossing.athleteId, crossing.lap == 1, crossing.stable, !crossing.falseStart else { return nil }
        return (athleteId, crossing.elapsedMs)
    }
}

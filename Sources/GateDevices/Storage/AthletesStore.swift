import GateCore

/// The athletes file on the card (`AthletesFile`): read whole, appended to
/// one fsync'd line at a time, never rewritten (house rule 8).
public struct AthletesStore {
    public let dataDirectory: String

    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
    }

    public var path: String { dataDirectory + "/" + AthletesFile.fileName }

    /// Where an athlete's spoken name goes.
    public func nameClipPath(id: String) -> String {
        dataDirectory + "/" + AthletesFile.voiceDirectoryName + "/" + id + ".wav"
    }

    /// The roster and a line per skipped line; no file is an empty roster.
    public func read() throws(GateError) -> (roster: AthleteRoster, warnings: [String]) {
        let text: String
        do { text = try FileDescriptor.readText(path: path) } catch {
            if error == .noEntry { return (AthleteRoster(), []) }
            throw GateError(path, error, doing: "reading the athletes")
        }
        return AthletesFile.parse(text)
    }

    /// Appends one record and waits until it is on the card. A torn last
    /// line (a write a power cut stopped) is first closed with a newline,
    /// so it stays one skipped line instead of swallowing this record.
    public func append(_ jsonLine: String) throws(GateError) {
        do {
            try Directory.create(dataDirectory)
        } catch {
            throw GateError(dataDirectory, error, doing: "creating the data directory")
        }
        do {
            let existed = (try? FileDescriptor.readBytes(path: path)) ?? []
            let fd = try FileDescriptor.open(path, [.writeOnly, .create, .append])
            defer { fd.close() }
            let separator = existed.isEmpty || existed.last == 0x0A ? "" : "\n"
            try fd.writeAll(separator + jsonLine + "\n")
            try fd.sync()
            if existed.isEmpty { try Directory.sync(dataDirectory) }
        } catch {
            throw GateError(path, error, doing: "appending to the athletes")
        }
    }

    /// Every session's records under the data directory, oldest first, for
    /// the bests; unreadable sessions are named in `warnings` and skipped.
    public func sessions() -> (sessions: [[ResultsReader.Record]], warnings: [String]) {
        let store = ResultsStore(dataDirectory: dataDirectory)
        var sessions: [[ResultsReader.Record]] = []
        var warnings: [String] = []
        let ids: [String]
        do { ids = try store.sessionIds().sorted() } catch {
            return ([], [error.message])
        }
        for id in ids {
            let path = store.resultsPath(session: id)
            do { sessions.append(ResultsReader.parse(try FileDescriptor.readText(path: path)).records) } catch {
                if error != .noEntry { warnings.append(path + ": " + error.description + "; its runs are not in the bests") }
            }
        }
        return (sessions, warnings)
    }

    /// The bests the results on the card give, in the roster's season.
    public func bests(season roster: AthleteRoster) -> (book: BestsBook, warnings: [String]) {
        let read = sessions()
        return (BestsBook.from(sessions: read.sessions, seasonStartMillis: roster.seasonStartMillis), read.warnings)
    }
}

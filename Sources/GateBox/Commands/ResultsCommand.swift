import GateCore
import GateDevices

/// `ts-gate results`: prints saved sessions back as tables or CSV. Damaged
/// lines are reported on standard error with their line number and skipped;
/// every good record is still shown.
enum ResultsCommand {
    static func run(_ options: ResultsOptions, console: Console) -> Int32 {
        let directory = options.dataDirectory ?? defaultDataDirectory()
        guard Directory.isDirectory(directory) else {
            console.problem("ts-gate: " + directory + ": no such data directory (expected the directory given to --data-dir when the sessions were recorded)")
            return 1
        }
        let store = ResultsStore(dataDirectory: directory)
        var sessions: [String]
        do {
            sessions = try store.sessionIds()
        } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        if let wanted = options.session {
            guard sessions.contains(wanted) else {
                console.problem("ts-gate: --session " + wanted + ": no such session in " + directory
                    + (sessions.isEmpty ? " (it holds none)" : " (it holds " + sessions.joined(separator: ", ") + ")"))
                return 1
            }
            sessions = [wanted]
        }
        if sessions.isEmpty {
            if !options.csv { console.line("no sessions in " + directory) }
            if options.csv { console.line(ResultsTable.csvHeader) }
            return 0
        }
        if options.csv { console.line(ResultsTable.csvHeader) }
        var status: Int32 = 0
        for id in sessions {
            let path = store.resultsPath(session: id)
            let text: String
            do {
                text = try FileDescriptor.readText(path: path)
            } catch {
                console.problem("ts-gate: " + path + ": cannot read: " + error.description)
                status = 1
                continue
            }
            let parsed = ResultsReader.parse(text)
            for warning in parsed.warnings { console.problem("ts-gate: " + path + " " + warning) }
            var header: SessionRecord?
            var crossings: [CrossingRecord] = []
            var end: SessionEndRecord?
            var raceRuns: [RaceRunLine] = []
            for record in parsed.records {
                switch record {
                case .session(let s): header = s
                case .start: break   // each crossing carries its run's start
                case .reaction: break   // and its reaction
                case .crossing(let c): crossings.append(c)
                case .end(let e): end = e
                case .raceRun(let r): raceRuns.append(r)
                }
            }
            if options.csv {
                for c in crossings { console.line(ResultsTable.csvRow(c)) }
                for r in raceRuns { console.line(ResultsTable.csvRow(r, sessionId: header?.sessionId ?? id)) }
            } else {
                console.line(ResultsTable.render(session: header, crossings: crossings, ended: end, units: options.speedUnits)
                             + ResultsTable.renderRace(raceRuns, units: options.speedUnits))
            }
        }
        return status
    }
}

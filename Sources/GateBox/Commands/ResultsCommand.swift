import GateCore
import GateDevices

/// `ts-gate results`: prints saved sessions back as tables or CSV, chosen,
/// searched and ordered as history asks (`HistoryQuery`). Damaged lines are
/// reported on standard error with their line number and skipped; every
/// good record is still shown.
enum ResultsCommand {
    static func run(_ options: ResultsOptions, console: Console) -> Int32 {
        guard let files = SessionFiles(dataDirectory: options.dataDirectory, console: console),
              let ids = files.ids(only: options.session, console: console) else { return 1 }
        if ids.isEmpty {
            if !options.csv { console.line("no sessions in " + files.directory) }
            if options.csv { console.line(ResultsTable.csvHeader) }
            return 0
        }
        var failed = false
        let sessions = options.query.apply(files.read(ids, console: console, failed: &failed))
        if options.csv { console.line(ResultsTable.csvHeader) }
        if sessions.isEmpty && !options.csv {
            console.line("no sessions match (" + String(ids.count) + (ids.count == 1 ? " session" : " sessions") + " in " + files.directory + ")")
        }
        for session in sessions {
            if options.csv {
                for c in session.crossings { console.line(ResultsTable.csvRow(c)) }
                for r in session.raceRuns { console.line(ResultsTable.csvRow(r, sessionId: session.header?.sessionId ?? session.id)) }
            } else {
                console.line(ResultsTable.render(session, units: options.speedUnits))
            }
        }
        return failed ? 1 : 0
    }
}

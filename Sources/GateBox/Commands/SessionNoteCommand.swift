import GateCore
import GateDevices

/// `ts-gate session name|note SESSION-ID TEXT`: names a session or gives
/// it a note by appending a `session_note` line to its results file; what
/// the box wrote is never touched, and the last name or note wins.
enum SessionNoteCommand {
    static func run(_ options: SessionNoteOptions, console: Console, nowMillis: Int64 = MonotonicClock.unixMillis()) -> Int32 {
        guard let files = SessionFiles(dataDirectory: options.dataDirectory, console: console),
              files.ids(only: options.session, option: "", console: console) != nil else { return 1 }
        let record = SessionNoteRecord(sessionId: options.session,
                                       name: options.field == .name ? options.text : nil,
                                       note: options.field == .note ? options.text : nil, timestamp: nowMillis)
        do {
            try files.store.append(record.jsonLine(), toSession: options.session)
        } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        let what = options.field == .name ? "name" : "note"
        console.line(options.text.isEmpty ? options.session + ": " + what + " cleared"
                     : options.session + ": " + what + " set to \"" + options.text + "\"")
        return 0
    }
}

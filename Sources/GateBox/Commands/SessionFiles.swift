import GateCore
import GateDevices

/// The sessions of a data directory read off the card, for `results` and
/// `export`: each file's damaged lines reported on standard error with
/// their numbers, every good record kept.
struct SessionFiles {
    let directory: String
    let store: ResultsStore

    /// The data directory, or nil after saying why there is none.
    init?(dataDirectory: String?, console: Console) {
        directory = dataDirectory ?? defaultDataDirectory()
        guard Directory.isDirectory(directory) else {
            console.problem("ts-gate: " + directory + ": no such data directory (expected the directory given to --data-dir when the sessions were recorded)")
            return nil
        }
        store = ResultsStore(dataDirectory: directory)
    }

    /// Every session's id, or only `wanted`; nil after saying why not.
    func ids(only wanted: String?, option: String = "--session", console: Console) -> [String]? {
        let sessions: [String]
        do {
            sessions = try store.sessionIds()
        } catch {
            console.problem("ts-gate: " + error.message)
            return nil
        }
        guard let wanted else { return sessions }
        guard sessions.contains(wanted) else {
            console.problem("ts-gate: " + option + (option.isEmpty ? "" : " ") + wanted + ": no such session in " + directory
                + (sessions.isEmpty ? " (it holds none)" : " (it holds " + sessions.joined(separator: ", ") + ")"))
            return nil
        }
        return [wanted]
    }

    /// The sessions read back; `failed` is set when a file could not be read.
    func read(_ ids: [String], console: Console, failed: inout Bool) -> [RecordedSession] {
        var sessions: [RecordedSession] = []
        for id in ids {
            let path = store.resultsPath(session: id)
            let text: String
            do {
                text = try FileDescriptor.readText(path: path)
            } catch {
                console.problem("ts-gate: " + path + ": cannot read: " + error.description)
                failed = true
                continue
            }
            let session = RecordedSession(id: id, text: text)
            for warning in session.warnings { console.problem("ts-gate: " + path + " " + warning) }
            sessions.append(session)
        }
        return sessions
    }

    /// The session's directory, where its photos are.
    func sessionDirectory(_ id: String) -> String { directory + "/" + id }
}

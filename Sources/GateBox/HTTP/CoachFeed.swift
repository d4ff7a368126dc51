import GateCore
import GateProtocol

/// What the coach's page shows live, kept as the loop says it: the gate's
/// state, the session's last runs (their records' own JSON lines) and the
/// last lines of the log. A class so that the loop's non-mutating `say`
/// and `warn` can feed it; the events it queues go out at the end of the
/// loop's turn (`BoxLoop.flushCoachFeed`). Nothing here runs per frame.
final class CoachFeed {
    private(set) var sessionId = ""
    /// Where every session's directory is (`/photos/` is served from it).
    var dataDirectory = ""
    private(set) var state = "idle"
    private(set) var runs: [String] = []
    private(set) var lines: [(text: String, warning: Bool)] = []
    /// Events not yet sent to the streams.
    private(set) var pending: [[UInt8]] = []
    static let keptRuns = 100
    static let keptLines = 30

    init() {}

    func session(_ id: String) {
        sessionId = id
        runs.removeAll()
        queue("session", JSONLineWriter.quoted(id))
    }

    func state(_ name: String) {
        guard name != state else { return }
        state = name
        queue("state", JSONLineWriter.quoted(name))
    }

    /// A record's JSON line (a crossing, a race run).
    func run(_ json: String) {
        if runs.count == CoachFeed.keptRuns { runs.removeFirst() }
        runs.append(json)
        queue("run", json)
    }

    func line(_ text: String, warning: Bool) {
        if lines.count == CoachFeed.keptLines { lines.removeFirst() }
        lines.append((text, warning))
        queue("line", CoachFeed.lineJSON(text, warning: warning))
    }

    func takePending() -> [[UInt8]] {
        defer { pending.removeAll() }
        return pending
    }

    private func queue(_ event: String, _ data: String) {
        pending.append(ServerSentEvents.event(event, data: data))
    }

    static func lineJSON(_ text: String, warning: Bool) -> String {
        var w = JSONLineWriter()
        w.string("text", text)
        w.bool("warning", warning)
        return w.finish()
    }

    /// Everything at once, for a page that just opened: the `hello` event
    /// and `/api/state`.
    func snapshot() -> String {
        var text = "{\"session\":" + JSONLineWriter.quoted(sessionId) + ",\"state\":" + JSONLineWriter.quoted(state) + ",\"runs\":["
        for (i, run) in runs.enumerated() { text += (i == 0 ? "" : ",") + run }
        text += "],\"lines\":["
        for (i, line) in lines.enumerated() { text += (i == 0 ? "" : ",") + CoachFeed.lineJSON(line.text, warning: line.warning) }
        return text + "]}"
    }
}

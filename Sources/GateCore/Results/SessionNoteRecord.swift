/// A coach's name or note for a session (`ts-gate session name|note`),
/// appended to the session's results file as a `"type":"session_note"`
/// line. Nothing the box wrote is ever rewritten: a later line gives the
/// session a new name or note, the last one wins, and an empty text
/// clears it. A line holds a name, a note, or both.
public struct SessionNoteRecord: Equatable {
    public var sessionId: String
    public var name: String?
    public var note: String?
    /// Wall-clock time of the record (Unix ms).
    public var timestamp: Int64

    public init(sessionId: String, name: String? = nil, note: String? = nil, timestamp: Int64) {
        self.sessionId = sessionId; self.name = name; self.note = note; self.timestamp = timestamp
    }

    public func jsonLine() -> String {
        var w = JSONLineWriter()
        w.string("type", "session_note")
        w.string("sessionId", sessionId)
        if let name { w.string("name", name) }
        if let note { w.string("note", note) }
        w.int("timestamp", timestamp)
        return w.finish()
    }
}

extension ResultsReader {
    static func sessionNote(_ f: Fields) throws(ResultsLineError) -> SessionNoteRecord {
        let record = SessionNoteRecord(sessionId: try f.string("sessionId"), name: f.optionalString("name"),
                                       note: f.optionalString("note"), timestamp: try f.int("timestamp"))
        guard record.name != nil || record.note != nil else {
            throw ResultsLineError(message: "a session_note line needs \"name\" or \"note\"")
        }
        return record
    }
}

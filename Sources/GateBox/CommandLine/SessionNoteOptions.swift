/// `ts-gate session name|note SESSION-ID TEXT`: a coach's words for a session.
public struct SessionNoteOptions: Equatable {
    public enum Field: Equatable { case name, note }

    public var field: Field
    public var session: String
    /// The new name or note; empty clears it.
    public var text: String
    public var dataDirectory: String?

    public init(field: Field, session: String, text: String) {
        self.field = field; self.session = session; self.text = text
    }
}

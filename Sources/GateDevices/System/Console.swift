/// Lines for a person: progress on standard output, problems on standard
/// error. Write failures (a closed terminal) are ignored: the box goes on.
public struct Console {
    public var output: FileDescriptor
    public var errors: FileDescriptor
    /// Put before every progress line: which box speaks, when several run in one process.
    public var prefix = ""
    /// Output goes to systemd's journal (JOURNAL_STREAM is set): each line
    /// starts with its syslog priority, "<3>" or "<4>", which journald reads
    /// and strips, so `journalctl -p warning` shows what needs a person.
    public var journal = false

    public init(output: FileDescriptor = .standardOutput, errors: FileDescriptor = .standardError) {
        self.output = output
        self.errors = errors
    }

    /// Standard output and error, with priorities when they are the journal.
    public static func forThisProcess() -> Console {
        var console = Console()
        console.journal = Environment.value("JOURNAL_STREAM") != nil
        return console
    }

    public func line(_ text: String) {
        try? output.writeAll(prefix + text + "\n")
    }

    /// Something that needs a person, while the box goes on (a progress
    /// line, where the other progress lines go).
    public func warning(_ text: String) {
        try? output.writeAll((journal ? "<4>" : "") + prefix + text + "\n")
    }

    /// An error: on standard error.
    public func problem(_ text: String) {
        try? errors.writeAll((journal ? "<3>" : "") + text + "\n")
    }
}

/// Lines for a person: progress on standard output, problems on standard
/// error. Write failures (a closed terminal) are ignored: the box goes on.
public struct Console {
    public var output: FileDescriptor
    public var errors: FileDescriptor
    /// Put before every progress line: which box speaks, when several run in one process.
    public var prefix = ""

    public init(output: FileDescriptor = .standardOutput, errors: FileDescriptor = .standardError) {
        self.output = output
        self.errors = errors
    }

    public func line(_ text: String) {
        try? output.writeAll(prefix + text + "\n")
    }

    public func problem(_ text: String) {
        try? errors.writeAll(text + "\n")
    }
}

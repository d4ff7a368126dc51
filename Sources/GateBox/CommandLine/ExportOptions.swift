import GateCore

/// `ts-gate export csv [filters]` and `ts-gate export html SESSION-ID`.
public struct ExportOptions: Equatable {
    public enum Format: Equatable { case csv, html }

    public var format: Format
    public var dataDirectory: String?
    /// The file to write; nil: standard output.
    public var output: String?
    /// csv: the sessions and runs it holds (with `session`, one session).
    public var query = HistoryQuery()
    /// csv: one session; html: the session of the report.
    public var session: String?
    /// html: the speeds' units.
    public var speedUnits = SpeedUnit.standard

    public init(format: Format) { self.format = format }
}

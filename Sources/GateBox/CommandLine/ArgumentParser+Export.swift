import GateCore

extension ArgumentParser {
    /// `export csv [--data-dir D] [--session ID] [filters] [--output FILE]` and
    /// `export html SESSION-ID [--data-dir D] [--units U] [--output FILE]`.
    static func parseExport(_ cursor: inout Cursor) throws(UsageError) -> ExportOptions {
        guard let which = cursor.next() else { throw UsageError("export needs a format: csv (every run of the sessions chosen) or html (one session's report)") }
        var options: ExportOptions
        switch which {
        case "csv": options = ExportOptions(format: .csv)
        case "html": options = ExportOptions(format: .html)
        default: throw UsageError("export: unknown format '" + which + "' (formats: csv, html)")
        }
        while let argument = cursor.next() {
            switch argument {
            case "--data-dir":
                options.dataDirectory = try cursor.value(for: argument, accepts: "a directory path")
            case "--output", "-o":
                options.output = try cursor.value(for: argument, accepts: "the file to write (default: standard output)")
            case "--session" where options.format == .csv:
                options.session = try cursor.value(for: argument, accepts: "a session id such as session-0001")
            case "--units" where options.format == .html:
                let text = try cursor.value(for: argument, accepts: SpeedUnit.names)
                guard let units = SpeedUnit.list(text) else { throw UsageError("--units expects " + SpeedUnit.names + ", got '" + text + "'") }
                options.speedUnits = units
            default:
                if options.format == .csv {
                    if try parseHistoryOption(argument, &cursor, into: &options.query) { continue }
                    throw unknown(argument, accepted: "--data-dir, --session, --output, " + historyOptionNames)
                }
                if !argument.hasPrefix("-") && options.session == nil {
                    options.session = argument
                    continue
                }
                throw unknown(argument, accepted: "SESSION-ID, --data-dir, --units, --output")
            }
        }
        if options.format == .html && options.session == nil {
            throw UsageError("export html needs a session id, such as session-0001 (ts-gate results lists them)")
        }
        return options
    }
}

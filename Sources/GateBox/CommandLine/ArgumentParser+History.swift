import GateCore

extension ArgumentParser {
    static let historyOptionNames = "--from, --to, --distance, --start, --athlete, --preset, --boxes, --sort, --search"

    /// History's filters, search and order, shared by `results` and
    /// `export csv`; false when `argument` is none of them.
    static func parseHistoryOption(_ argument: String, _ cursor: inout Cursor, into query: inout HistoryQuery) throws(UsageError) -> Bool {
        switch argument {
        case "--from", "--to":
            let accepts = "a day as YYYY-MM-DD (UTC), such as 2026-11-01"
            let text = try cursor.value(for: argument, accepts: accepts)
            guard let date = CalendarDate(Substring(text)) else { throw UsageError(argument + " expects " + accepts + ", got '" + text + "'") }
            if argument == "--from" { query.from = date } else { query.to = date }
            if let from = query.from, let to = query.to, to < from {
                throw UsageError("--to " + to.text + " is before --from " + from.text + ": expected --from on or before --to")
            }
        case "--distance":
            query.distanceMetres = try distance(&cursor, argument)
        case "--start":
            let name = try cursor.value(for: argument, accepts: StartType.names)
            guard let type = StartType(name: name) else { throw UsageError(argument + " expects " + StartType.names + ", got '" + name + "'") }
            query.startType = type
        case "--athlete":
            query.athlete = try cursor.value(for: argument, accepts: "an athlete's name, first name or id, any case")
        case "--preset":
            query.preset = try preset(&cursor, argument).id
        case "--boxes":
            query.boxes = Int(try cursor.integer(for: argument, in: 1...4, accepts: "1 (a box alone) or 2 to 4 (races of that many boxes)"))
        case "--sort":
            let name = try cursor.value(for: argument, accepts: HistorySort.names)
            guard let sort = HistorySort(name: name) else { throw UsageError(argument + " expects " + HistorySort.names + ", got '" + name + "'") }
            query.sort = sort
        case "--search":
            let text = try cursor.value(for: argument, accepts: "text to find in session names, notes and athletes' names, any case")
            guard !text.isEmpty else { throw UsageError(argument + " expects text to find in session names, notes and athletes' names, got nothing") }
            query.search = text
        default:
            return false
        }
        return true
    }

    /// `--distance 30`, `30m` or `40yd`, in metres.
    static func distance(_ cursor: inout Cursor, _ argument: String) throws(UsageError) -> Double {
        let accepts = "a distance in metres from 1 to 1000, or yards with yd: 30, 30m, 40yd"
        let text = try cursor.value(for: argument, accepts: accepts)
        var number = Substring(text), scale = 1.0
        if number.hasSuffix("yd") {
            number = number.dropLast(2)
            scale = Preset.metresPerYard
        } else if number.hasSuffix("m") {
            number = number.dropLast()
        }
        guard let value = DecimalText.parseDouble(number), (1...1000).contains(value * scale) else {
            throw UsageError(argument + " expects " + accepts + ", got '" + text + "'")
        }
        return value * scale
    }

    /// `session name SESSION-ID TEXT` and `session note SESSION-ID TEXT`.
    static func parseSessionNote(_ cursor: inout Cursor) throws(UsageError) -> SessionNoteOptions {
        let usage = "session name SESSION-ID \"TEXT\" or session note SESSION-ID \"TEXT\" (\"\" clears it)"
        guard let which = cursor.next() else { throw UsageError("session needs what to set: " + usage) }
        let field: SessionNoteOptions.Field
        switch which {
        case "name": field = .name
        case "note": field = .note
        default: throw UsageError("session: unknown '" + which + "'; expected " + usage)
        }
        var positional: [String] = []
        var dataDirectory: String?
        while let argument = cursor.next() {
            if argument == "--data-dir" {
                dataDirectory = try cursor.value(for: argument, accepts: "a directory path")
            } else if argument.hasPrefix("--") {
                throw unknown(argument, accepted: "--data-dir")
            } else {
                positional.append(argument)
            }
        }
        guard positional.count == 2 else {
            throw UsageError("session " + which + " takes a session id and one text (quote it), got "
                             + String(positional.count) + " arguments: " + usage)
        }
        var options = SessionNoteOptions(field: field, session: positional[0], text: positional[1])
        options.dataDirectory = dataDirectory
        return options
    }
}

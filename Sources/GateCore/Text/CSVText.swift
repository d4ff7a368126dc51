/// CSV as RFC 4180 writes it: fields separated by commas, records ended by
/// CRLF, and a field holding a comma, a double quote or a line break put
/// in double quotes with its quotes doubled. A coach's note may hold any of them.
public enum CSVText {
    public static let recordEnd = "\r\n"

    public static func record(_ fields: [String]) -> String {
        var line = ""
        for (i, field) in fields.enumerated() {
            if i > 0 { line += "," }
            line += quoted(field)
        }
        return line + recordEnd
    }

    public static func quoted(_ field: String) -> String {
        var needsQuotes = false
        for byte in field.utf8 where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D {
            needsQuotes = true
            break
        }
        guard needsQuotes else { return field }
        var text = "\""
        for character in field {
            text += character == "\"" ? "\"\"" : String(character)
        }
        return text + "\""
    }
}

/// One `key = value` line of a board or configuration file.
public struct KeyValueEntry: Equatable, Sendable {
    public var key: String
    public var value: String
    public var line: Int
    public init(key: String, value: String, line: Int) { self.key = key; self.value = value; self.line = line }
}

/// A problem in a board or configuration file, with where it is.
public struct ConfigError: Error, Equatable {
    /// The file's name as the user gave it.
    public var file: String
    public var line: Int
    public var problem: String

    public init(file: String, line: Int, problem: String) {
        self.file = file; self.line = line; self.problem = problem
    }

    public var message: String { file + " line " + String(line) + ": " + problem }
}

/// The plain format of board and configuration files: `key = value` per
/// line, `#` starts a comment, blank lines are ignored, a key appears once.
public enum KeyValueFile {
    public static func parse(_ text: String, file: String) throws(ConfigError) -> [KeyValueEntry] {
        var entries: [KeyValueEntry] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let content = trimmed(line)
            if content.isEmpty { continue }
            guard let equals = content.firstIndex(of: "=") else {
                throw ConfigError(file: file, line: number, problem: "expected 'key = value', found '" + String(content) + "'")
            }
            let key = trimmed(content[..<equals])
            let value = trimmed(content[content.index(after: equals)...])
            guard !key.isEmpty else { throw ConfigError(file: file, line: number, problem: "a value without a key") }
            for c in key.unicodeScalars where !(c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "." || c == "_") {
                throw ConfigError(file: file, line: number, problem: "key '" + String(key) + "' has a character that is not a letter, digit, '.' or '_'")
            }
            guard !value.isEmpty else {
                throw ConfigError(file: file, line: number, problem: "key '" + String(key) + "' has no value")
            }
            if let earlier = entries.first(where: { $0.key == String(key) }) {
                throw ConfigError(file: file, line: number, problem: "key '" + String(key) + "' was already set on line " + String(earlier.line))
            }
            entries.append(KeyValueEntry(key: String(key), value: String(value), line: number))
        }
        return entries
    }

    static func trimmed(_ text: Substring) -> Substring {
        var start = text.startIndex, end = text.endIndex
        while start < end && (text[start] == " " || text[start] == "\t" || text[start] == "\r") { start = text.index(after: start) }
        while end > start {
            let before = text.index(before: end)
            if text[before] == " " || text[before] == "\t" || text[before] == "\r" { end = before } else { break }
        }
        return text[start..<end]
    }
}

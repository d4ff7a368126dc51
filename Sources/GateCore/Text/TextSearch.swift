/// Case-insensitive substring search for history's `--search` and
/// `--athlete`: a coach types "ana" and finds "Ana", "ANA" and "Anaïs".
/// By bytes over lower-cased UTF-8, because Embedded Swift has no
/// Foundation and no string-processing module to lean on.
public enum TextSearch {
    /// `text` lower-cased (Unicode's full mapping), as UTF-8.
    public static func folded(_ text: String) -> [UInt8] { Array(text.lowercased().utf8) }

    /// Whether `text` contains `query`, ignoring case; an empty query matches.
    public static func contains(_ text: String, _ query: String) -> Bool {
        contains(folded(text), folded(query))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) {
            var i = 0
            while i < needle.count && haystack[start + i] == needle[i] { i += 1 }
            if i == needle.count { return true }
        }
        return false
    }

    /// Whether the two are the same text, ignoring case.
    public static func equal(_ a: String, _ b: String) -> Bool { folded(a) == folded(b) }
}

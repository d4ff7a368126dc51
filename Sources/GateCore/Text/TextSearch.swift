/// Case-insensitive substring search for history's `--search` and
/// `--athlete`: a coach types "ana" and finds "Ana", "ANA" and "ANAÏS".
/// By bytes over lower-cased UTF-8, because Embedded Swift has no
/// Foundation and no string-processing module to lean on.
public enum TextSearch {
    /// `text` lower-cased, as UTF-8.
    public static func folded(_ text: String) -> [UInt8] {
        var lower = ""
        for scalar in text.unicodeScalars { lower.unicodeScalars.append(lowercase(scalar)) }
        return Array(lower.utf8)
    }

    /// The lower case of the letters names are written in: Latin with its
    /// accents (Latin-1, Latin Extended-A), Greek and Cyrillic, by their
    /// code points. `String.lowercased()` would do every script, but its
    /// Unicode tables add 16 KB to a firmware near its size budget.
    static func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let v = scalar.value
        var lower = v
        switch v {
        case 0x41...0x5A, 0xC0...0xD6, 0xD8...0xDE, 0x391...0x3A1, 0x3A3...0x3AB, 0x410...0x42F: lower = v + 0x20
        case 0x400...0x40F: lower = v + 0x50
        case 0x130: lower = 0x69   // İ
        case 0x100...0x137, 0x14A...0x177: lower = v | 1   // pairs: upper even, lower odd
        case 0x139...0x148, 0x179...0x17E: lower = v % 2 == 1 ? v + 1 : v   // pairs: upper odd
        case 0x178: lower = 0xFF   // Ÿ
        case 0x3C2: lower = 0x3C3   // a word's final ς is σ, so "ΝΙΚΟΣ" and "νικος" meet
        default: break
        }
        return Unicode.Scalar(lower) ?? scalar
    }

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

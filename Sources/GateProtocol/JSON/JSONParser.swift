/// Why a text is not acceptable JSON: the byte offset (0-based, into the
/// UTF-8 bytes) where reading stopped and what was expected there.
public struct JSONParseError: Error, Equatable, Sendable {
    public var offset: Int
    public var expected: String

    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    public var description: String { "byte " + String(offset) + ": expected " + expected }
}

/// Bounds on what one parse may take, so a peer cannot make the box recurse
/// without end or hold a huge message. The seed's messages nest 3 deep and
/// stay under 1 KiB.
public struct JSONLimits: Equatable, Sendable {
    /// Arrays and objects open at once; the outermost value is depth 1.
    public var maxDepth: Int
    public var maxBytes: Int

    public init(maxDepth: Int = 32, maxBytes: Int = 65_536) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
}

/// A strict RFC 8259 parser, written by hand because Embedded Swift has no
/// Foundation or Codable. One value, optionally surrounded by whitespace;
/// strings must be valid UTF-8 and escapes valid, a lone surrogate included.
public struct JSONParser {
    private let bytes: [UInt8]
    private let limits: JSONLimits
    private var index = 0
    private var depth = 0

    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw JSONParseError(offset: limits.maxBytes, expected: "at most " + String(limits.maxBytes) + " bytes")
        }
        var parser = JSONParser(bytes: bytes, limits: limits)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("the end of the text") }
        return value
    }

    public static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    private init(bytes: [UInt8], limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    private func failure(_ expected: String) -> JSONParseError {
        JSONParseError(offset: index, expected: expected)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw failure("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseLiteral(_ word: String) throws(JSONParseError) {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else { throw failure("'" + word + "'") }
            index += 1
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= limits.maxDepth else {
            throw failure("nesting at most " + String(limits.maxDepth) + " deep")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONObject {
        try enter()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return object
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("':' after the key") }
            index += 1
            skipWhitespace()
            object.append(key, try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw failure("',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw failure("',' or '}'")
        }
        depth -= 1
        return object
    }

    private mutating func parseArray() throws(JSONParseError) -> [JSONValue] {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw failure("',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw failure("',' or ']'")
        }
        depth -= 1
        return elements
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw failure("no leading zero ('.', 'e' or the number's end)") }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a digit in the exponent") }
            skipDigits()
        }
        return JSONNumber(validatedText: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("a closing '\"'") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw failure("no control character in a string (escape it)")
            case 0x00..<0x80:
                utf8.append(byte)
                index += 1
            default:
                try copyMultibyteScalar(into: &utf8)
            }
        }
    }

    /// Copies one UTF-8 sequence of 2-4 bytes, refusing overlong forms,
    /// surrogates and values past U+10FFFF, so every String is what was sent.
    private mutating func copyMultibyteScalar(into utf8: inout [UInt8]) throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07)
        default: throw failure("valid UTF-8")
        }
        guard index + length <= bytes.count else { throw failure("valid UTF-8") }
        for k in 1..<length {
            let next = bytes[index + k]
            guard next & 0xC0 == 0x80 else { throw failure("valid UTF-8") }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        let smallest: UInt32 = length == 2 ? 0x80 : (length == 3 ? 0x800 : 0x10000)
        guard scalar >= smallest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
            throw failure("valid UTF-8")
        }
        utf8.append(contentsOf: bytes[index..<index + length])
        index += length
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        index += 1
        guard index < bytes.count else { throw failure("an escape character after '\\'") }
        let simple: UInt8
        switch bytes[index] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            index += 1
            try parseUnicodeEscape(into: &utf8)
            return
        default:
            throw failure("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
        }
        utf8.append(simple)
        index += 1
    }

    /// `\uXXXX`, or a surrogate pair `\uD83C\uDFC3` for a scalar past U+FFFF.
    /// A lone surrogate names no character, so it is refused.
    private mutating func parseUnicodeEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        let first = try parseHex4()
        var code = UInt32(first)
        if (0xDC00...0xDFFF).contains(first) {
            index -= 4
            throw failure("a high surrogate before a low one")
        }
        if (0xD800...0xDBFF).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("'\\u' and a low surrogate after a high surrogate")
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                index -= 4
                throw failure("a low surrogate (DC00-DFFF)")
            }
            code = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        }
        appendUTF8(code, to: &utf8)
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw failure("four hex digits after '\\u'") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("four hex digits after '\\u'")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func appendUTF8(_ code: UInt32, to utf8: inout [UInt8]) {
        switch code {
        case 0..<0x80:
            utf8.append(UInt8(code))
        case 0x80..<0x800:
            utf8.append(UInt8(0xC0 | code >> 6))
            utf8.append(UInt8(0x80 | code & 0x3F))
        case 0x800..<0x10000:
            utf8.append(UInt8(0xE0 | code >> 12))
            utf8.append(UInt8(0x80 | code >> 6 & 0x3F))
            utf8.append(UInt8(0x80 | code & 0x3F))
        default:
            utf8.append(UInt8(0xF0 | code >> 18))
            utf8.append(UInt8(0x80 | code >> 12 & 0x3F))
            utf8.append(UInt8(0x80 | code >> 6 & 0x3F))
            utf8.append(UInt8(0x80 | code & 0x3F))
        }
    }
}

/// One JSON object on one line, written field by field. Records are flat
/// (strings, integers, fixed-point numbers, booleans), which is all the
/// results format and the protocol's payloads need; Embedded Swift has no Codable.
/// The field writers are kept out of line: a record writes dozens of fields
/// once per crossing, and inlined at every call they cost the firmware tens
/// of kilobytes for no speed anyone needs.
public struct JSONLineWriter {
    public private(set) var text = "{"
    private var first = true

    public init() {}

    @inline(never)
    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        text += "\""
        text += name
        text += "\":"
    }

    @inline(never)
    public mutating func string(_ name: String, _ value: String) {
        key(name)
        JSONLineWriter.appendQuoted(value, to: &text)
    }

    @inline(never)
    public mutating func int(_ name: String, _ value: Int64) {
        key(name)
        text += String(value)
    }

    public mutating func int(_ name: String, _ value: Int) { int(name, Int64(value)) }

    /// A number with a fixed count of decimals, so the text is the same on every machine.
    @inline(never)
    public mutating func number(_ name: String, _ value: Double, places: Int) {
        key(name)
        text += value.isFinite ? DecimalText.fixed(value, places: places) : "null"
    }

    @inline(never)
    public mutating func bool(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    @inline(never)
    public mutating func null(_ name: String) {
        key(name)
        text += "null"
    }

    /// The finished object, without a newline.
    public func finish() -> String { text + "}" }

    /// `value` as a JSON string, quotes and escapes included.
    public static func quoted(_ value: String) -> String {
        var text = ""
        appendQuoted(value, to: &text)
        return text
    }

    @inline(never)
    static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
                    text += "\\u00"
                    text.append(hex[Int(scalar.value >> 4)])
                    text.append(hex[Int(scalar.value & 0xF)])
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}

/// A value of a flat JSON object. Numbers keep their literal text, so a
/// reader can print back exactly what was written.
public enum JSONScalar: Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int64? {
        if case .number(let n) = self { return DecimalText.parseInt(Substring(n)) }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let n) = self { return DecimalText.parseDouble(Substring(n)) }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}

/// What is wrong with a line, and where (1-based column).
public struct JSONLineError: Error, Equatable {
    public var column: Int
    public var expected: String
}

/// Parses one flat JSON object: {"key": scalar, ...}. Nested objects and
/// arrays are refused; the results format never writes them.
public struct JSONLineReader {
    public static func parse(_ line: String) throws(JSONLineError) -> [(key: String, value: JSONScalar)] {
        let bytes = Array(line.utf8)
        var i = 0
        var fields: [(key: String, value: JSONScalar)] = []

        func skipSpace() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 } }
        func fail(_ expected: String) -> JSONLineError { JSONLineError(column: i + 1, expected: expected) }

        func parseString() throws(JSONLineError) -> String {
            guard i < bytes.count, bytes[i] == 0x22 else { throw fail("a string") }
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 { i += 1; return String(decoding: out, as: UTF8.self) }
                if b == 0x5C {
                    i += 1
                    guard i < bytes.count else { break }
                    switch bytes[i] {
                    case 0x22: out.append(0x22)
                    case 0x5C: out.append(0x5C)
                    case 0x2F: out.append(0x2F)
                    case 0x6E: out.append(0x0A)
                    case 0x72: out.append(0x0D)
                    case 0x74: out.append(0x09)
                    case 0x62: out.append(0x08)
                    case 0x66: out.append(0x0C)
                    case 0x75:
                        guard i + 4 < bytes.count else { throw fail("four hex digits after \\u") }
                        var code: UInt32 = 0
                        for k in 1...4 {
                            let h = bytes[i + k]
                            let v: UInt32
                            switch h {
                            case 0x30...0x39: v = UInt32(h - 0x30)
                            case 0x61...0x66: v = UInt32(h - 0x61 + 10)
                            case 0x41...0x46: v = UInt32(h - 0x41 + 10)
                            default: throw fail("a hex digit")
                            }
                            code = code * 16 + v
                        }
                        i += 4
                        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: throw fail("a valid escape")
                    }
                    i += 1
                    continue
                }
                out.append(b)
                i += 1
            }
            throw fail("a closing quote")
        }

        skipSpace()
        guard i < bytes.count, bytes[i] == 0x7B else { throw fail("'{'") }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == 0x7D {
            i += 1
        } else {
            while true {
                skipSpace()
                let key = try parseString()
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x3A else { throw fail("':'") }
                i += 1
                skipSpace()
                guard i < bytes.count else { throw fail("a value") }
                let value: JSONScalar
                switch bytes[i] {
                case 0x22:
                    value = .string(try parseString())
                case 0x74 where bytes.count - i >= 4 && bytes[i..<i + 4].elementsEqual("true".utf8):
                    i += 4; value = .bool(true)
                case 0x66 where bytes.count - i >= 5 && bytes[i..<i + 5].elementsEqual("false".utf8):
                    i += 5; value = .bool(false)
                case 0x6E where bytes.count - i >= 4 && bytes[i..<i + 4].elementsEqual("null".utf8):
                    i += 4; value = .null
                case 0x2D, 0x30...0x39:
                    let start = i
                    i += 1
                    while i < bytes.count, (0x30...0x39).contains(bytes[i]) || bytes[i] == 0x2E || bytes[i] == 0x65 || bytes[i] == 0x45 || bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
                    value = .number(String(decoding: bytes[start..<i], as: UTF8.self))
                default:
                    throw fail("a string, number, true, false or null")
                }
                fields.append((key: key, value: value))
                skipSpace()
                guard i < bytes.count else { throw fail("',' or '}'") }
                if bytes[i] == 0x2C { i += 1; continue }
                if bytes[i] == 0x7D { i += 1; break }
                throw fail("',' or '}'")
            }
        }
        skipSpace()
        guard i == bytes.count else { throw fail("end of line after '}'") }
        return fields
    }
}

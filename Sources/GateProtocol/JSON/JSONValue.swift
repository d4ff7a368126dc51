import GateCore

/// A JSON number kept as the literal text it was read from or written as, so
/// a 19-digit nanosecond count (1706000100123456789) reaches `int64Value`
/// exactly: a Double holds only 15-17 significant digits.
public struct JSONNumber: Equatable, Sendable {
    /// The literal, valid by JSON's grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
    public let text: String

    /// Only the parser builds from text, after checking the grammar.
    init(validatedText: String) { text = validatedText }

    public init(_ value: Int64) { text = String(value) }

    public init(_ value: Int) { text = String(value) }

    /// Swift's shortest text that reads back as the same Double ("4827.3",
    /// "10.0", "1e-05"); nil for NaN and infinities, which JSON cannot hold.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        text = value.description
    }

    /// The integer, if the literal is one (no fraction, no exponent) and fits.
    public var int64Value: Int64? {
        for byte in text.utf8 where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return nil
        }
        return DecimalText.parseInt(Substring(text))
    }

    /// The nearest Double: exactly rounded for up to 15 significant digits and
    /// a decimal exponent within +-22, which covers every number the protocol
    /// sends; within an ulp for 16-19 digits, a few beyond. Infinite if out of range.
    public var doubleValue: Double { JSONNumberText.double(from: text) }
}

/// One JSON value. Objects keep their members in order, so writing a parsed
/// value gives the same key order back and output is deterministic.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public static func int(_ value: Int64) -> JSONValue { .number(JSONNumber(value)) }

    public static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// A finite Double as a number; NaN and infinities as null, since JSON has
    /// no spelling for them (a reader then finds a null where a number belongs).
    public static func double(_ value: Double) -> JSONValue {
        if let number = JSONNumber(value) { return .number(number) }
        return .null
    }

    /// What kind of value this is, for error messages: "a string", "an object".
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One member of an object.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object as its members in written order. A key written twice is
/// looked up as its last value, as JavaScript's JSON.parse does.
public struct JSONObject: Equatable, Sendable {
    public private(set) var members: [JSONMember] = []

    public init() {}

    public init(_ members: [JSONMember]) { self.members = members }

    public var isEmpty: Bool { members.isEmpty }

    public subscript(key: String) -> JSONValue? {
        var index = members.count
        while index > 0 {
            index -= 1
            if members[index].key == key { return members[index].value }
        }
        return nil
    }

    /// Appends a member; the writer emits members in the order appended.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(JSONMember(key: key, value: value))
    }

    /// Appends the member only when there is a value: optional fields are left
    /// out rather than written as null.
    public mutating func append(_ key: String, ifPresent value: JSONValue?) {
        if let value { members.append(JSONMember(key: key, value: value)) }
    }
}

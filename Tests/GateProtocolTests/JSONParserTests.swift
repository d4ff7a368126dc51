import Testing
@testable import GateProtocol

@Suite struct JSONParserTests {
    static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws -> JSONValue {
        try JSONParser.parse(text, limits: limits)
    }

    static func refusal(_ text: String, limits: JSONLimits = JSONLimits()) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func refusal(_ bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func nestedValuesKeepTheirOrder() throws {
        let value = try Self.parse(#" { "b" : [1, {"c": [ ]}, "x"], "a": {"d": {}}, "e": false, "f": null, "g": true } "#)
        var inner = JSONObject()
        inner.append("c", .array([]))
        var d = JSONObject()
        d.append("d", .object(JSONObject()))
        var expected = JSONObject()
        expected.append("b", .array([.int(1), .object(inner), .string("x")]))
        expected.append("a", .object(d))
        expected.append("e", .bool(false))
        expected.append("f", .null)
        expected.append("g", .bool(true))
        #expect(value == .object(expected))
        #expect(JSONWriter.text(value) == #"{"b":[1,{"c":[]},"x"],"a":{"d":{}},"e":false,"f":null,"g":true}"#)
    }

    @Test func aRepeatedKeyReadsAsItsLastValue() throws {
        guard case .object(let object) = try Self.parse(#"{"a":1,"a":2}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object["a"] == .int(2))
        #expect(object.members.count == 2)
    }

    @Test func numbersKeepTheirLiteralText() throws {
        #expect(try Self.parse("1706000100123456789") == .number(JSONNumber(validatedText: "1706000100123456789")))
        let big = JSONNumber(validatedText: "1706000100123456789")
        #expect(big.int64Value == 1_706_000_100_123_456_789)
        #expect(JSONNumber(validatedText: "-9223372036854775807").int64Value == -9_223_372_036_854_775_807)
        #expect(JSONNumber(validatedText: "9223372036854775808").int64Value == nil)
        #expect(JSONNumber(validatedText: "40.0").int64Value == nil)
        #expect(JSONNumber(validatedText: "4e1").int64Value == nil)
        #expect(JSONNumber(validatedText: "-0").int64Value == 0)
    }

    @Test func numbersReadAsTheNearestDouble() {
        let cases: [(String, Double)] = [
            ("4827.3", 4827.3), ("0.42", 0.42), ("0.73", 0.73), ("1.2", 1.2), ("-5000000", -5_000_000),
            ("2.5", 2.5), ("10.0", 10), ("1e3", 1000), ("1E-3", 0.001), ("2.5e+2", 250), ("-0.0", -0.0),
            ("123456789012345", 123_456_789_012_345), ("0.000001", 0.000001), ("1e22", 1e22),
        ]
        for (text, expected) in cases {
            #expect(JSONNumber(validatedText: text).doubleValue == expected, "\(text)")
        }
        #expect(JSONNumber(validatedText: "1e400").doubleValue == .infinity)
        #expect(JSONNumber(validatedText: "1e-400").doubleValue == 0)
    }

    @Test func doublesAreWrittenSoTheyReadBack() {
        for value in [4827.3, 0.1, 2.4, 1e-5, 1e20, -0.5, 123456.789, 4827.300000000001] {
            guard let number = JSONNumber(value) else {
                Issue.record("finite value refused")
                continue
            }
            #expect(number.doubleValue == value, "\(number.text)")
            #expect((try? Self.parse(number.text)) == .number(number), "\(number.text) is JSON")
        }
        // 17 significant digits: read within one ulp.
        let third = JSONNumber(1.0 / 3.0)?.doubleValue ?? 0
        #expect(third == 1.0 / 3.0 || third.nextUp == 1.0 / 3.0 || third.nextDown == 1.0 / 3.0)
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(-Double.infinity) == nil)
    }

    @Test func numberGrammarIsStrict() {
        #expect(Self.refusal("01")?.expected == "no leading zero ('.', 'e' or the number's end)")
        #expect(Self.refusal("1.") == JSONParseError(offset: 2, expected: "a digit after '.'"))
        #expect(Self.refusal("-") == JSONParseError(offset: 1, expected: "a digit"))
        #expect(Self.refusal("1e") == JSONParseError(offset: 2, expected: "a digit in the exponent"))
        #expect(Self.refusal("+1")?.offset == 0)
        #expect(Self.refusal(".5")?.offset == 0)
        #expect(Self.refusal("1 2") == JSONParseError(offset: 2, expected: "the end of the text"))
    }

    @Test func stringsDecodeEveryEscape() throws {
        #expect(try Self.parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti"))
        #expect(try Self.parse(#""\u00e9\u00E9\u20AC\u0000""#) == .string("éé€\u{0}"))
        // U+1F3C3 RUNNER as a surrogate pair, and as raw UTF-8.
        #expect(try Self.parse(#""\uD83C\uDFC3""#) == .string("🏃"))
        #expect(try Self.parse("\"🏃 é\"") == .string("🏃 é"))
    }

    @Test func writtenStringsReadBack() throws {
        let awkward = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{0} runner 🏃 é"
        let text = JSONWriter.text(.string(awkward))
        #expect(text == #""quote \" backslash \\ newline \n tab \t bell \u0007 nul \u0000 runner 🏃 é""#)
        #expect(try Self.parse(text) == .string(awkward))
    }

    @Test func badEscapesAreRefusedWithTheirOffset() {
        #expect(Self.refusal(#""\x""#) == JSONParseError(offset: 2, expected: #"one of \" \\ \/ \b \f \n \r \t \u"#))
        #expect(Self.refusal(#""\u12G4""#) == JSONParseError(offset: 5, expected: "four hex digits after '\\u'"))
        #expect(Self.refusal(#""\u12""#) == JSONParseError(offset: 5, expected: "four hex digits after '\\u'"))
        #expect(Self.refusal(#""\uD83C""#) == JSONParseError(offset: 7, expected: "'\\u' and a low surrogate after a high surrogate"))
        #expect(Self.refusal(#""\uD83Cx""#)?.expected == "'\\u' and a low surrogate after a high surrogate")
        #expect(Self.refusal(#""\uD83C\u0041""#) == JSONParseError(offset: 9, expected: "a low surrogate (DC00-DFFF)"))
        #expect(Self.refusal(#""\uDFC3""#) == JSONParseError(offset: 3, expected: "a high surrogate before a low one"))
        #expect(Self.refusal("\"tab\there\"") == JSONParseError(offset: 4, expected: "no control character in a string (escape it)"))
    }

    @Test func invalidUTF8IsRefused() {
        #expect(Self.refusal([0x22, 0xFF, 0x22]) == JSONParseError(offset: 1, expected: "valid UTF-8"))
        #expect(Self.refusal([0x22, 0xC0, 0xAF, 0x22]) == JSONParseError(offset: 1, expected: "valid UTF-8"), "overlong '/'")
        #expect(Self.refusal([0x22, 0xED, 0xA0, 0x80, 0x22]) == JSONParseError(offset: 1, expected: "valid UTF-8"), "encoded surrogate")
        #expect(Self.refusal([0x22, 0xE2, 0x82, 0x22]) == JSONParseError(offset: 1, expected: "valid UTF-8"), "cut short")
    }

    @Test func truncatedTextNamesWhereItEnded() {
        #expect(Self.refusal("") == JSONParseError(offset: 0, expected: "a value"))
        #expect(Self.refusal("{") == JSONParseError(offset: 1, expected: "a string key"))
        #expect(Self.refusal(#"{"a""#) == JSONParseError(offset: 4, expected: "':' after the key"))
        #expect(Self.refusal(#"{"a":"#) == JSONParseError(offset: 5, expected: "a value"))
        #expect(Self.refusal(#"{"a":1"#) == JSONParseError(offset: 6, expected: "',' or '}'"))
        #expect(Self.refusal(#"{"a":1,"#) == JSONParseError(offset: 7, expected: "a string key"))
        #expect(Self.refusal("[1,") == JSONParseError(offset: 3, expected: "a value"))
        #expect(Self.refusal("[1") == JSONParseError(offset: 2, expected: "',' or ']'"))
        #expect(Self.refusal(#""abc"#) == JSONParseError(offset: 4, expected: "a closing '\"'"))
        #expect(Self.refusal("tru") == JSONParseError(offset: 3, expected: "'true'"))
        #expect(Self.refusal("nul1") == JSONParseError(offset: 3, expected: "'null'"))
        #expect(Self.refusal("{\"a\":1,}") == JSONParseError(offset: 7, expected: "a string key"))
        #expect(Self.refusal("{1:2}") == JSONParseError(offset: 1, expected: "a string key"))
        #expect(Self.refusal("[1 2]") == JSONParseError(offset: 3, expected: "',' or ']'"))
    }

    @Test func hugeNestingIsRefusedAtTheLimit() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.refusal(deep, limits: JSONLimits(maxDepth: 32, maxBytes: 1_000_000))
                == JSONParseError(offset: 32, expected: "nesting at most 32 deep"))
        let objects = String(repeating: #"{"a":"#, count: 5) + "1" + String(repeating: "}", count: 5)
        #expect((try? Self.parse(objects, limits: JSONLimits(maxDepth: 5))) != nil)
        #expect(Self.refusal(objects, limits: JSONLimits(maxDepth: 4)) == JSONParseError(offset: 20, expected: "nesting at most 4 deep"))
    }

    @Test func oversizedTextIsRefusedBeforeReading() {
        let text = "[" + String(repeating: "1,", count: 100) + "1]"
        #expect(Self.refusal(text, limits: JSONLimits(maxBytes: 100)) == JSONParseError(offset: 100, expected: "at most 100 bytes"))
        #expect((try? Self.parse(text, limits: JSONLimits(maxBytes: 203))) != nil)
    }
}

import Testing
@testable import GateCore

@Suite struct JSONLineTests {
    @Test func writesFlatObjects() {
        var w = JSONLineWriter()
        w.string("type", "crossing_event")
        w.int("crossingTimeNanos", Int64(1_706_000_100_123_456_789))
        w.number("uncertaintyMs", 1.2, places: 3)
        w.bool("stable", true)
        w.null("splitTimeMs")
        #expect(w.finish() == #"{"type":"crossing_event","crossingTimeNanos":1706000100123456789,"uncertaintyMs":1.200,"stable":true,"splitTimeMs":null}"#)
    }

    @Test func escapesStrings() {
        var w = JSONLineWriter()
        w.string("s", "a\"b\\c\nd\u{01}é")
        #expect(w.finish() == #"{"s":"a\"b\\c\nd\u0001é"}"#)
        let back = try? JSONLineReader.parse(w.finish())
        #expect(back?.first?.value == .string("a\"b\\c\nd\u{01}é"))
    }

    @Test func nonFiniteNumbersBecomeNull() {
        var w = JSONLineWriter()
        w.number("x", .nan, places: 2)
        #expect(w.finish() == #"{"x":null}"#)
    }

    @Test func readsWhatItWrites() throws {
        let fields = try JSONLineReader.parse(#" { "a" : "x", "b": -12.50, "c": false, "d": null, "e": 7 } "#)
        #expect(fields.map(\.key) == ["a", "b", "c", "d", "e"])
        #expect(fields[1].value.doubleValue == -12.5)
        #expect(fields[1].value == .number("-12.50"))
        #expect(fields[2].value == .bool(false))
        #expect(fields[3].value == .null)
        #expect(fields[4].value.intValue == 7)
        #expect(try JSONLineReader.parse("{}").isEmpty)
    }

    @Test(arguments: [
        (#"{"a":1"#, 7, "',' or '}'"),
        (#"["a"]"#, 1, "'{'"),
        (#"{"a" 1}"#, 6, "':'"),
        (#"{"a":tru}"#, 6, "a string, number, true, false or null"),
        (#"{"a":"x}"#, 9, "a closing quote"),
        (#"{"a":1} x"#, 9, "end of line after '}'"),
        (#"{"a":{"b":1}}"#, 6, "a string, number, true, false or null"),
    ])
    func reportsWhereAndWhatWasExpected(line: String, column: Int, expected: String) {
        #expect(throws: JSONLineError(column: column, expected: expected)) { try JSONLineReader.parse(line) }
    }
}

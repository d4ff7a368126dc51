import Testing
@testable import GateCore

@Suite struct DecimalTextTests {
    @Test func roundsHalfAwayFromZero() {
        #expect(DecimalText.fixed(2.5, places: 0) == "3")
        #expect(DecimalText.fixed(-2.5, places: 0) == "-3")
        #expect(DecimalText.fixed(0.0004, places: 3) == "0.000")
        #expect(DecimalText.fixed(-0.0004, places: 3) == "0.000")
        #expect(DecimalText.fixed(-0.25, places: 2) == "-0.25")
        #expect(DecimalText.fixed(12.0, places: 2) == "12.00")
        #expect(DecimalText.fixed(0.05, places: 1) == "0.1")
    }

    @Test func scaledIntegers() {
        #expect(DecimalText.fixed(scaledInteger: 4827, places: 3) == "4.827")
        #expect(DecimalText.fixed(scaledInteger: 7, places: 3) == "0.007")
        #expect(DecimalText.fixed(scaledInteger: -7, places: 3) == "-0.007")
        #expect(DecimalText.fixed(scaledInteger: 123, places: 0) == "123")
    }

    @Test func nonFiniteValuesAreSpelledOut() {
        #expect(DecimalText.fixed(.nan, places: 2) == "nan")
        #expect(DecimalText.fixed(-.infinity, places: 2) == "-inf")
    }

    @Test func signedAndPadding() {
        #expect(DecimalText.signed(0.412, places: 3) == "+0.412")
        #expect(DecimalText.signed(-0.412, places: 3) == "-0.412")
        #expect(DecimalText.padLeft("ab", 4) == "  ab")
        #expect(DecimalText.padRight("ab", 4) == "ab  ")
        #expect(DecimalText.padLeft("abcdef", 4) == "abcdef")
        #expect(DecimalText.zeroPadded(7, width: 4) == "0007")
        #expect(DecimalText.clockLabel(4_213_000_000) == "[   4.213]")
    }

    @Test func parsesDecimalsWithoutStrtod() {
        #expect(DecimalText.parseDouble("4.8273") == 4.8273)
        #expect(DecimalText.parseDouble("-12") == -12)
        #expect(DecimalText.parseDouble("+0.5") == 0.5)
        #expect(DecimalText.parseDouble(".5") == 0.5)
        #expect(DecimalText.parseDouble("1e3") == nil)
        #expect(DecimalText.parseDouble("1.2.3") == nil)
        #expect(DecimalText.parseDouble("") == nil)
        #expect(DecimalText.parseDouble("-") == nil)
    }

    @Test func parsesIntegersAndRefusesOverflow() {
        #expect(DecimalText.parseInt("1706000100123456789") == 1_706_000_100_123_456_789)
        #expect(DecimalText.parseInt("-42") == -42)
        #expect(DecimalText.parseInt("99999999999999999999") == nil)
        #expect(DecimalText.parseInt("12a") == nil)
        #expect(DecimalText.parseInt("") == nil)
    }

    @Test func formattedTextRoundTripsThroughTheParser() {
        for value in [0.0, 1.5, -3.25, 4827.3, 0.001, 123456.789] {
            let text = DecimalText.fixed(value, places: 3)
            #expect(DecimalText.parseDouble(Substring(text)) == value, "\(text)")
        }
    }
}

import GateCore

/// Reading a Double out of a JSON number literal. DecimalText does the digit
/// work; this adds what it lacks: exponents, and exact rounding for the
/// numbers the protocol carries.
enum JSONNumberText {
    /// Powers of ten that a Double holds exactly; one multiply or divide by one
    /// of them rounds a <= 2^53 integer correctly (Clinger's fast path).
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `text` must already be a valid JSON number literal.
    static func double(from text: String) -> Double {
        let bytes = Array(text.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }

        // The significant digits without the point, and how far the point moves them.
        var digits: [UInt8] = []
        var pointShift = 0
        var seenPoint = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "e"), bytes[index] != UInt8(ascii: "E") {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if seenPoint { pointShift -= 1 }
            }
            index += 1
        }
        var exponent = 0
        if index < bytes.count {
            index += 1
            let exponentText = Substring(String(decoding: bytes[index...], as: UTF8.self))
            // An exponent too long for Int64 is far outside any Double's range anyway.
            let parsed = DecimalText.parseInt(exponentText) ?? (exponentText.hasPrefix("-") ? -100_000 : 100_000)
            exponent = Int(max(-100_000, min(100_000, parsed)))
        }
        let value = magnitude(digits: digits, decimalExponent: exponent + pointShift)
        return negative ? -value : value
    }

    private static func magnitude(digits: [UInt8], decimalExponent: Int) -> Double {
        if digits.isEmpty { return 0 }
        let digitText = Substring(String(decoding: digits, as: UTF8.self))
        // Up to 15 digits the integer is exact in a Double and one scaling rounds
        // correctly; 16-19 digits round twice, at most one ulp off (Swift
        // writes 17 digits only for values such as 1/3, never for the seed's).
        if digits.count <= 19, let integer = DecimalText.parseInt(digitText) {
            let mantissa = Double(integer)
            if decimalExponent >= 0, decimalExponent < exactPowersOfTen.count {
                return mantissa * exactPowersOfTen[decimalExponent]
            }
            if decimalExponent < 0, -decimalExponent < exactPowersOfTen.count {
                return mantissa / exactPowersOfTen[-decimalExponent]
            }
        }
        // Rare beyond the fast path: long mantissas or huge exponents. Scale
        // step by step; a few ulps off at worst, infinity or zero out of range.
        var value = DecimalText.parseDouble(digitText) ?? 0
        var remaining = decimalExponent
        while remaining > 0, value.isFinite {
            let step = min(remaining, 22)
            value *= exactPowersOfTen[step]
            remaining -= step
        }
        while remaining < 0, value != 0 {
            let step = min(-remaining, 22)
            value /= exactPowersOfTen[step]
            remaining += step
        }
        return value
    }
}

/// Fixed-point text for numbers, written by hand because Embedded Swift has no
/// String(format:) and because the same session must print byte-identical
/// text on every architecture.
public enum DecimalText {
    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// `value` rounded half away from zero to `places` decimals (0...9): 4.82734 -> "4.827".
    public static func fixed(_ value: Double, places: Int) -> String {
        precondition(places >= 0 && places <= 9, "places must be 0...9")
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let scaled = (value * powersOfTen[places]).rounded(.toNearestOrAwayFromZero)
        guard scaled.magnitude < 9.2e18 else { return value < 0 ? "-inf" : "inf" }
        return fixed(scaledInteger: Int64(scaled), places: places)
    }

    /// An integer holding `places` implied decimals: (4827, 3) -> "4.827".
    public static func fixed(scaledInteger: Int64, places: Int) -> String {
        let negative = scaledInteger < 0
        let magnitude = scaledInteger.magnitude
        var digits = String(magnitude)
        if places > 0 {
            while digits.utf8.count <= places { digits = "0" + digits }
            let split = digits.utf8.count - places
            let whole = digits.prefix(split)
            let fraction = digits.suffix(places)
            digits = String(whole) + "." + String(fraction)
        }
        return negative && magnitude != 0 ? "-" + digits : digits
    }

    /// Like `fixed`, with an explicit sign for positive values: "+0.412".
    public static func signed(_ value: Double, places: Int) -> String {
        let text = fixed(value, places: places)
        return text.hasPrefix("-") ? text : "+" + text
    }

    /// Right-aligns `text` in a field of `width` characters.
    public static func padLeft(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }

    /// Left-aligns `text` in a field of `width` characters.
    public static func padRight(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    /// Zero-padded unsigned integer: (7, 4) -> "0007".
    public static func zeroPadded(_ value: Int, width: Int) -> String {
        var text = String(value)
        while text.utf8.count < width { text = "0" + text }
        return text
    }

    /// "[   4.213]": seconds on the box's clock, the prefix of terminal lines.
    public static func clockLabel(_ nanos: Int64) -> String {
        "[" + padLeft(fixed(Double(nanos) / 1e9, places: 3), 8) + "]"
    }

    /// Parses a plain decimal literal ("-12", "4.8273", "1e3" is refused)
    /// without strtod, which Embedded Swift cannot link.
    public static func parseDouble(_ text: Substring) -> Double? {
        var negative = false
        var whole: Double = 0
        var fraction: Double = 0
        var scale: Double = 1
        var seenDigit = false
        var seenPoint = false
        var index = text.startIndex
        if index < text.endIndex, text[index] == "-" || text[index] == "+" {
            negative = text[index] == "-"
            index = text.index(after: index)
        }
        while index < text.endIndex {
            let c = text[index]
            if c == "." {
                if seenPoint { return nil }
                seenPoint = true
            } else if let digit = c.wholeNumberValue, c.isASCII {
                seenDigit = true
                if seenPoint {
                    scale *= 10
                    fraction = fraction * 10 + Double(digit)
                } else {
                    whole = whole * 10 + Double(digit)
                }
            } else {
                return nil
            }
            index = text.index(after: index)
        }
        guard seenDigit else { return nil }
        let value = whole + fraction / scale
        return negative ? -value : value
    }

    /// Parses a decimal integer with optional sign, refusing overflow.
    public static func parseInt(_ text: Substring) -> Int64? {
        var negative = false
        var index = text.startIndex
        if index < text.endIndex, text[index] == "-" || text[index] == "+" {
            negative = text[index] == "-"
            index = text.index(after: index)
        }
        guard index < text.endIndex else { return nil }
        var value: Int64 = 0
        while index < text.endIndex {
            guard let digit = text[index].wholeNumberValue, text[index].isASCII else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(digit))
            if o1 || o2 { return nil }
            value = plus
            index = text.index(after: index)
        }
        return negative ? -value : value
    }
}

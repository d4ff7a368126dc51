/// A day on the UTC calendar, for history's date filters and for showing
/// when a session was recorded. Written by hand (Embedded Swift has no
/// Foundation): days from 1970-01-01 by Howard Hinnant's civil-calendar
/// algorithms, exact for every proleptic Gregorian date.
public struct CalendarDate: Equatable, Comparable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CalendarDate.daysIn(month: month, year: year) else { return nil }
        self.year = year; self.month = month; self.day = day
    }

    /// "2026-11-03"; nil for anything else, or a day that does not exist.
    public init?(_ text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let y = DecimalText.parseInt(parts[0]), let m = DecimalText.parseInt(parts[1]), let d = DecimalText.parseInt(parts[2])
        else { return nil }
        self.init(year: Int(y), month: Int(m), day: Int(d))
    }

    /// The UTC day holding `unixMillis`.
    public init(unixMillis: Int64) {
        let days = CalendarDate.floorDivide(unixMillis, CalendarDate.millisPerDay)
        // civil_from_days
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = Int(doy - (153 * mp + 2) / 5 + 1)
        month = Int(mp < 10 ? mp + 3 : mp - 9)
        year = Int(yoe + era * 400) + (month <= 2 ? 1 : 0)
    }

    public static let millisPerDay: Int64 = 86_400_000

    /// Days since 1970-01-01 (days_from_civil).
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The first millisecond of the day, Unix ms.
    public var startMillis: Int64 { daysSinceEpoch * CalendarDate.millisPerDay }

    /// "2026-11-03".
    public var text: String {
        DecimalText.zeroPadded(year, width: 4) + "-" + DecimalText.zeroPadded(month, width: 2) + "-" + DecimalText.zeroPadded(day, width: 2)
    }

    /// "2026-11-03 17:42 UTC": when a record was written.
    public static func timeText(unixMillis: Int64) -> String {
        let date = CalendarDate(unixMillis: unixMillis)
        let minutes = (unixMillis - date.startMillis) / 60_000
        return date.text + " " + DecimalText.zeroPadded(Int(minutes / 60), width: 2) + ":"
            + DecimalText.zeroPadded(Int(minutes % 60), width: 2) + " UTC"
    }

    /// "2026-11-03T17:42:05Z" (ISO 8601), for files a program reads.
    public static func isoText(unixMillis: Int64) -> String {
        let date = CalendarDate(unixMillis: unixMillis)
        let seconds = (unixMillis - date.startMillis) / 1000
        return date.text + "T" + DecimalText.zeroPadded(Int(seconds / 3600), width: 2) + ":"
            + DecimalText.zeroPadded(Int(seconds / 60 % 60), width: 2) + ":" + DecimalText.zeroPadded(Int(seconds % 60), width: 2) + "Z"
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

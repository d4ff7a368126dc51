import GateCore

extension ArgumentParser {
    /// `calc wind --event 100m --time 10.00 --wind 2.0` and
    /// `calc convert --from 100m --time 11.15 [--women]`.
    static func parseCalc(_ cursor: inout Cursor) throws(UsageError) -> CalcOptions {
        guard let which = cursor.next() else {
            throw UsageError("calc needs a calculator: wind (a time in a wind as its still-air time) or convert (equivalent 60, 100, 200 m times)")
        }
        var event: String?, seconds: Double?, wind: Double?, sex = SprintEquivalents.Sex.men
        let eventOption = which == "convert" ? "--from" : "--event"
        while let argument = cursor.next() {
            switch argument {
            case eventOption: event = try cursor.value(for: argument, accepts: which == "convert" ? "60m, 100m or 200m" : "100m or 200m")
            case "--time": seconds = try cursor.decimal(for: argument, in: 1...100, accepts: "the time in seconds, such as 10.54")
            case "--wind" where which == "wind":
                wind = try cursor.decimal(for: argument, in: -WindCorrection.windLimit...WindCorrection.windLimit,
                                          accepts: "the wind in m/s from -10 to 10, + for a tailwind, such as 1.8 or -0.6")
            case "--women" where which == "convert": sex = .women
            case "--men" where which == "convert": sex = .men
            default:
                throw unknown(argument, accepted: which == "convert" ? "--from, --time, --men, --women" : "--event, --time, --wind")
            }
        }
        switch which {
        case "wind":
            guard let text = event, let e = WindCorrection.Event(name: text) else {
                throw UsageError("calc wind needs --event 100m or 200m" + (event.map { ", got '" + $0 + "'" } ?? ""))
            }
            guard let seconds else { throw UsageError("calc wind needs --time, the time run in seconds, such as 10.54") }
            guard let wind else { throw UsageError("calc wind needs --wind, the wind in m/s (+ tailwind, - headwind), such as 1.8") }
            return .wind(event: e, seconds: seconds, wind: wind)
        case "convert":
            guard let text = event, let e = SprintEquivalents.Event(name: text) else {
                throw UsageError("calc convert needs --from 60m, 100m or 200m" + (event.map { ", got '" + $0 + "'" } ?? ""))
            }
            guard let seconds else { throw UsageError("calc convert needs --time, the time in seconds, such as 11.15") }
            guard SprintEquivalents.points(e, sex, seconds: seconds) != nil else {
                throw UsageError("calc convert: " + DecimalText.fixed(seconds, places: 2) + " s over " + e.name
                    + " is beyond the World Athletics tables (they score times up to "
                    + DecimalText.fixed(SprintEquivalents.zeroPointsSeconds(e, sex), places: 2) + " s for " + sex.name + ")")
            }
            return .convert(from: e, seconds: seconds, sex: sex)
        default:
            throw UsageError("calc: unknown calculator '" + which + "' (calculators: wind, convert)")
        }
    }
}

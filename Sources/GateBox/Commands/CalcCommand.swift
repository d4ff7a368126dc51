import GateCore
import GateDevices

/// `ts-gate calc`: the sprint calculators, with the source of each model
/// named in its output so a coach can weigh the number.
enum CalcCommand {
    static func run(_ options: CalcOptions, console: Console) -> Int32 {
        for line in lines(options) { console.line(line) }
        return 0
    }

    static func lines(_ options: CalcOptions) -> [String] {
        func s(_ seconds: Double) -> String { DecimalText.fixed(seconds, places: 2) + " s" }
        switch options {
        case .wind(let event, let seconds, let wind):
            let still = WindCorrection.stillAir(event, seconds: seconds, wind: wind)
            let effect = still - seconds
            var lines = [
                event.name + " in " + s(seconds) + " with " + DecimalText.signed(wind, places: 1) + " m/s wind",
                "still air: " + s(still) + " (the wind " + (effect >= 0 ? "gave " : "cost ") + DecimalText.fixed(effect.magnitude, places: 3) + " s)",
                "with +2.0 m/s: " + s(WindCorrection.inWind(event, stillAirSeconds: still, wind: 2))
                    + ", with -2.0 m/s: " + s(WindCorrection.inWind(event, stillAirSeconds: still, wind: -2)),
            ]
            if wind > WindCorrection.legalWind { lines.append("wind-assisted: over +2.0 m/s, not legal for records") }
            lines.append("model: Moinat, Fabius & Emanuel (2018), Eur. J. Sport Sci. 18(9):1185-1190")
            return lines
        case .convert(let from, let seconds, let sex):
            let points = SprintEquivalents.points(from, sex, seconds: seconds) ?? 0
            var lines = [from.name + " in " + s(seconds) + " (" + sex.name + "): " + String(Int(points)) + " points"]
            for to in SprintEquivalents.Event.allCases where to != from {
                lines.append("  " + DecimalText.padRight(to.name, 5) + s(SprintEquivalents.seconds(to, sex, points: points)))
            }
            lines.append("model: World Athletics Scoring Tables, 2022 edition (equal points; 60 m indoor, 100 m and 200 m outdoor)")
            return lines
        }
    }
}

/// `ts-gate presets`: seed 000's presets as a table.
enum PresetsCommand {
    static func table() -> String {
        var out = DecimalText.padRight("id", 18) + DecimalText.padRight("name", 22) + DecimalText.padRight("distance", 17)
            + DecimalText.padRight("start", 33) + DecimalText.padRight("boxes", 7) + "category\n"
        for p in Preset.all {
            out += DecimalText.padRight(p.id, 18) + DecimalText.padRight(p.name, 22) + DecimalText.padRight(p.distanceText, 17)
                + DecimalText.padRight(p.startTypes.map { $0.name }.joined(separator: ", "), 33)
                + DecimalText.padRight(String(p.minDevices) + (p.maxDevices > p.minDevices ? "-" + String(p.maxDevices) : ""), 7)
                + p.category.name + "\n"
        }
        out += "The first start type is the preset's own (a box without a touch pad calls the next). A box alone stands at\n"
        out += "the finish and times a start-event preset from its start; a flying preset needs a box at each gate.\n"
        out += "Choose one with `preset = ID` in ts-gate.conf, or --preset ID on run and --simulate."
        return out
    }
}

/// A race run as `ts-gate results` reads it back from a `race_run` line:
/// the split, its segments and speeds, its uncertainty, and in a simulation
/// its error. (The box writes the line from the race's own record, in
/// GateBox; this is what a reader needs of it.)
public struct RaceRunLine: Equatable {
    public struct Segment: Equatable {
        /// The gate the segment ends at (1 for the first after the start).
        public var toGate: Int
        public var splitMs: Double
        public var cumulativeMs: Double
        public var speedMps: Double?
    }

    public var runId: String
    public var runNumber: Int
    public var gates: Int
    public var splitTimeMs: Double
    public var totalUncertaintyMs: Double
    public var syncMs: Double
    /// Start to finish, metres, when the gates' distances are known.
    public var distanceMetres: Double?
    public var segments: [Segment]
    public var splitErrorMs: Double?
    /// The finish instant on the writing box's clock (seed 002's finishTimeNanos).
    public var finishTimeNanos: Int64?
    public var syncErrorMs: Double?
    /// Who ran and whether it was a best, when the line names them.
    public var runAthlete: RunAthlete?

    /// The finish's mean speed, when the distance is known.
    public var speed: Speed? {
        distanceMetres.map { Speed(metresPerSecond: $0 / (splitTimeMs / 1000)) }
    }
}

extension ResultsReader {
    static func raceRun(_ f: Fields) throws(ResultsLineError) -> RaceRunLine {
        let gates = Int(try f.int("gates"))
        guard gates >= 2 && gates <= 4 else {
            throw ResultsLineError(message: "field \"gates\": expected 2 to 4, got " + String(gates))
        }
        var segments: [RaceRunLine.Segment] = []
        for n in 1..<gates {
            let key = String(n)
            segments.append(RaceRunLine.Segment(toGate: n, splitMs: try f.double("split" + key + "Ms"),
                                                cumulativeMs: try f.double("cumulative" + key + "Ms"),
                                                speedMps: try f.optionalDouble("speed" + key + "Mps")))
        }
        var distance: Double?
        if let start = try f.optionalDouble("gate0DistanceM"), let finish = try f.optionalDouble("gate" + String(gates - 1) + "DistanceM") {
            distance = finish - start
        }
        var line = RaceRunLine(runId: try f.string("runId"), runNumber: Int(try f.int("runNumber")), gates: gates,
                               splitTimeMs: try f.double("splitTimeMs"), totalUncertaintyMs: try f.double("totalUncertaintyMs"),
                               syncMs: try f.double("syncMs"), distanceMetres: distance, segments: segments,
                               splitErrorMs: try f.optionalDouble("splitErrorMs"),
                               finishTimeNanos: try f.optionalInt("finishTimeNanos"), syncErrorMs: try f.optionalDouble("syncErrorMs"))
        line.runAthlete = try runAthlete(f)
        return line
    }
}

extension ResultsTable {
    /// A race's runs as a table: the split, its speed and uncertainty, the
    /// segments (cumulative and speed) when there are lap gates, and the
    /// error against the simulator's truth when it is known.
    public static func renderRace(_ runs: [RaceRunLine], units: [SpeedUnit] = SpeedUnit.standard) -> String {
        guard !runs.isEmpty else { return "" }
        let showTruth = runs.contains { $0.splitErrorMs != nil }
        var out = "race runs:\n"
        var header = DecimalText.padLeft("run", 5) + DecimalText.padLeft("split s", 9)
        for unit in units { header += DecimalText.padLeft(unit.symbol, 7) }
        header += DecimalText.padLeft("±ms", 6)
        if showTruth { header += DecimalText.padLeft("error ms", 10) }
        let segmented = runs.contains { $0.segments.count > 1 }
        if segmented { header += "  segments s (" + (units.first ?? .metresPerSecond).symbol + "), cumulative s" }
        out += header + "\n"
        var best: RaceRunLine?
        for r in runs {
            var row = DecimalText.padLeft(String(r.runNumber), 5) + DecimalText.padLeft(DecimalText.fixed(r.splitTimeMs / 1000, places: 3), 9)
            for unit in units {
                row += DecimalText.padLeft(r.speed.map { DecimalText.fixed(unit.value($0), places: unit.places) } ?? "-", 7)
            }
            row += DecimalText.padLeft(DecimalText.fixed(r.totalUncertaintyMs, places: 2), 6)
            if showTruth { row += DecimalText.padLeft(r.splitErrorMs.map { DecimalText.signed($0, places: 3) } ?? "-", 10) }
            if segmented {
                row += " "
                for s in r.segments {
                    row += " " + DecimalText.fixed(s.splitMs / 1000, places: 3)
                    if let v = s.speedMps {
                        let unit = units.first ?? .metresPerSecond
                        row += " (" + DecimalText.fixed(unit.value(Speed(metresPerSecond: v)), places: unit.places) + ")"
                    }
                    row += " " + DecimalText.fixed(s.cumulativeMs / 1000, places: 3) + ";"
                }
            }
            if let note = athleteNote(r.runAthlete) { row += "  " + note }
            out += row + "\n"
            if best == nil || r.splitTimeMs < best!.splitTimeMs { best = r }
        }
        if let best { out += "best run: " + String(best.runNumber) + " in " + DecimalText.fixed(best.splitTimeMs / 1000, places: 3) + " s\n" }
        return out
    }
}

extension ResultsTable {
    /// A race run as a row of `csvHeader`: "race" in the lap column, the
    /// finish instant, the split as both elapsed and split time, the mean
    /// speed, the split's error against a simulator's truth in the error
    /// column, and the segments in the trailing columns (";" between them).
    public static func csvRow(_ r: RaceRunLine, sessionId: String) -> String {
        var row = sessionId + ",race," + r.runId + "," + (r.finishTimeNanos.map { String($0) } ?? "") + ","
        let split = DecimalText.fixed(r.splitTimeMs / 1000, places: 6)
        row += split + "," + split + ","
        if let speed = r.speed {
            row += DecimalText.fixed(speed.metresPerSecond, places: 3) + "," + DecimalText.fixed(speed.kilometresPerHour, places: 2)
                + "," + DecimalText.fixed(speed.milesPerHour, places: 2) + ","
        } else {
            row += ",,,"
        }
        row += DecimalText.fixed(r.totalUncertaintyMs, places: 3) + ",,,"
        row += (r.splitErrorMs.map { DecimalText.fixed($0, places: 3) } ?? "") + ","
        row += r.segments.map { DecimalText.fixed($0.splitMs / 1000, places: 6) }.joined(separator: ";") + ","
        row += r.segments.map { s in s.speedMps.map { DecimalText.fixed($0, places: 3) } ?? "" }.joined(separator: ";") + ","
        row += r.segments.map { DecimalText.fixed($0.cumulativeMs / 1000, places: 6) }.joined(separator: ";") + ","
        row += DecimalText.fixed(r.syncMs, places: 3) + ","
        row += r.syncErrorMs.map { DecimalText.fixed($0, places: 3) } ?? ""
        return row
    }
}

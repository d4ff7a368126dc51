/// The ways results are shown to a person: a line per crossing as it
/// happens, a table per session, and CSV for a spreadsheet.
public enum ResultsTable {
    /// "lap 1   6.338 s  split 6.338 s   8.21 m/s  29.6 km/h  18.4 mph  error +0.412 ms";
    /// with a start event (`runs`), "run 2   3.163 s  ...".
    public static func liveLine(_ r: CrossingRecord, runs: Bool = false, units: [SpeedUnit] = SpeedUnit.standard) -> String {
        var line: String
        if r.lap == 0 {
            line = "start  clock running"
        } else if runs {
            line = "run " + DecimalText.padRight(String(r.runNumber), 3)
                + DecimalText.padLeft(DecimalText.fixed(r.elapsedMs / 1000, places: 3), 8) + " s"
        } else {
            line = "lap " + DecimalText.padRight(String(r.lap), 3)
                + DecimalText.padLeft(DecimalText.fixed(r.elapsedMs / 1000, places: 3), 8) + " s  split "
                + DecimalText.fixed((r.splitTimeMs ?? 0) / 1000, places: 3) + " s"
        }
        line += " "
        for unit in units { line += " " + unit.text(r.speed) }
        if let error = r.detectionErrorMs { line += "  error " + DecimalText.signed(error, places: 3) + " ms" }
        if !r.stable { line += "  (tripod moved)" }
        if let note = reactionNote(r) { line += "  " + note }
        return line
    }

    /// "false start" or "reaction 0.153 s" for a called start the camera watched.
    static func reactionNote(_ r: CrossingRecord) -> String? {
        if r.falseStart {
            return "FALSE START" + (r.reactionMs.map { " (" + DecimalText.signed($0 / 1000, places: 3) + " s)" } ?? "")
        }
        return r.reactionMs.map { "reaction " + DecimalText.fixed($0 / 1000, places: 3) + " s" }
    }

    /// The columns before and after the speeds (one per unit shown).
    private static let columns: [(title: String, width: Int)] = [("lap", 5), ("time s", 10), ("split s", 9)]
    private static let speedWidth = 7

    /// A session as a table, speeds in `units`; the error column appears
    /// when the session was simulated.
    public static func render(session: SessionRecord?, crossings: [CrossingRecord], ended: SessionEndRecord?,
                              units: [SpeedUnit] = SpeedUnit.standard) -> String {
        let showTruth = crossings.contains { $0.truthCrossingTimeNanos != nil }
        // A start event per run (touch-release, countdown): rows are runs.
        let runs = session.map { $0.startType != "flying" } ?? false
        // A race box's crossings are its gate's: rows name the gate, the
        // time is on this box's clock, and the runs come in the race table.
        let race = session?.mode == "race"
        var out = ""
        if let s = session {
            out += s.sessionId + ": " + (s.simulated ? "simulated " : "") + s.mode
                + (race ? (crossings.first.map { " (" + $0.role + " gate), " } ?? ", ") : (runs ? " runs, " : " laps, "))
                + s.startType + " start, " + s.detection + ", " + String(s.fps) + " fps"
            if let seed = s.seed { out += ", seed " + String(seed) }
            out += "\n"
            if let preset = s.preset.flatMap({ Preset.named($0) }) {
                out += "preset " + preset.id + ": " + preset.name + ", "
                    + Preset.distanceText(metres: s.distanceMetres ?? preset.metres, yards: preset.yards) + "\n"
            } else if let preset = s.preset {
                out += "preset " + preset + "\n"   // one this build no longer knows: its id is still the record
            }
        }
        var header = ""
        for c in columns {
            header += DecimalText.padLeft(c.title == "lap" ? (race ? "gate" : (runs ? "run" : "lap")) : c.title,
                                          c.title == "lap" && race ? 7 : c.width)
        }
        for unit in units { header += DecimalText.padLeft(unit.symbol, speedWidth) }
        header += DecimalText.padLeft("±ms", 6)
        if showTruth { header += DecimalText.padLeft("error ms", 10) }
        out += header + "\n"
        var best: CrossingRecord?
        for r in crossings {
            var row = DecimalText.padLeft(race ? r.role : (r.lap == 0 ? "start" : String(runs ? r.runNumber : r.lap)), race ? 7 : 5)
            row += DecimalText.padLeft(DecimalText.fixed(race ? Double(r.crossingTimeNanos) / 1e9 : r.elapsedMs / 1000, places: 3), 10)
            row += DecimalText.padLeft(r.splitTimeMs.map { DecimalText.fixed($0 / 1000, places: 3) } ?? "-", 9)
            for unit in units { row += DecimalText.padLeft(DecimalText.fixed(unit.value(r.speed), places: unit.places), speedWidth) }
            row += DecimalText.padLeft(DecimalText.fixed(r.totalUncertaintyMs, places: 2), 6)
            if showTruth {
                row += DecimalText.padLeft(r.detectionErrorMs.map { DecimalText.signed($0, places: 3) } ?? "-", 10)
            }
            if !r.stable { row += "  tripod moved" }
            if let note = reactionNote(r) { row += "  " + note }
            if let note = athleteNote(r.runAthlete) { row += "  " + note }
            out += row + "\n"
            // A false start is timed, but it is no one's best.
            if let split = r.splitTimeMs, !r.falseStart, best == nil || split < best!.splitTimeMs! { best = r }
        }
        if crossings.isEmpty { out += "  (no crossings)\n" }
        if let best, let split = best.splitTimeMs {
            out += (runs ? "best run: " + String(best.runNumber) : "best lap: " + String(best.lap)) + " in " + DecimalText.fixed(split / 1000, places: 3) + " s\n"
        }
        if showTruth {
            var errors: [Double] = crossings.compactMap { $0.detectionErrorMs?.magnitude }
            errors.sort()
            if let worst = errors.last {
                let median = errors.count % 2 == 1 ? errors[errors.count / 2]
                    : (errors[errors.count / 2 - 1] + errors[errors.count / 2]) / 2
                out += "detection error against the simulator's truth: median " + DecimalText.fixed(median, places: 3)
                    + " ms, max " + DecimalText.fixed(worst, places: 3) + " ms over " + String(errors.count) + " crossings\n"
            }
        }
        if session != nil {
            if let ended {
                out += "session ended: " + ended.reason + "\n"
            } else {
                out += "session has no end record: the box stopped without closing it (power cut?); every crossing above was saved\n"
            }
        }
        return out
    }

    /// One row per crossing, and one per race run (`csvRow(_:sessionId:)`);
    /// the race's columns come last so that older sheets keep their columns.
    public static let csvHeader = "session,lap,run,crossing_time_ns,elapsed_s,split_s,speed_mps,speed_kmh,speed_mph,uncertainty_ms,direction,stable,detection_error_ms,segment_splits_s,segment_speeds_mps,segment_cumulative_s,sync_ms,sync_error_ms"

    public static func csvRow(_ r: CrossingRecord) -> String {
        var row = r.sessionId + "," + String(r.lap) + "," + r.runId + "," + String(r.crossingTimeNanos) + ","
        row += DecimalText.fixed(r.elapsedMs / 1000, places: 6) + ","
        row += (r.splitTimeMs.map { DecimalText.fixed($0 / 1000, places: 6) } ?? "") + ","
        row += DecimalText.fixed(r.speed.metresPerSecond, places: 3) + ","
        row += DecimalText.fixed(r.speed.kilometresPerHour, places: 2) + ","
        row += DecimalText.fixed(r.speed.milesPerHour, places: 2) + ","
        row += DecimalText.fixed(r.totalUncertaintyMs, places: 3) + "," + r.direction.code + ","
        row += (r.stable ? "true" : "false") + ","
        row += r.detectionErrorMs.map { DecimalText.fixed($0, places: 3) } ?? ""
        row += ",,,,,"   // the race's columns
        return row
    }
}

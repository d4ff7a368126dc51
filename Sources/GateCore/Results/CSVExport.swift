/// `ts-gate export csv`: every field of the chosen sessions, made from
/// their JSON Lines (never the reverse), for a spreadsheet. One row per
/// crossing of a box's own gate (the clock's start, a lap, a run's finish,
/// a race gate's crossing), one per race run, and one per segment of a race
/// run with lap gates. The session's columns repeat on every row so a
/// sheet can be filtered by any of them.
public enum CSVExport {
    public static let columns = [
        "session", "session_name", "session_note", "session_date_utc", "device", "mode", "preset", "start_type",
        "distance_m", "boxes", "row", "run", "run_id", "lap", "segment", "from_gate", "to_gate",
        "athlete", "athlete_id", "athlete_colour", "time_s", "split_s",
        "speed_mps", "speed_kmh", "speed_mph", "speed_kn", "uncertainty_ms",
        "pb", "sb", "previous_best_s", "improvement_s", "reaction_s", "false_start", "stable", "direction",
        "dropped_frames", "role", "crossing_time_ns", "start_time_ns", "frame_index", "interpolation_offset_ms",
        "detection_uncertainty_ms", "occupancy", "stability_trace", "sync_ms", "error_ms", "sync_error_ms", "recorded_utc",
    ]

    /// The header and every row of `sessions`, as RFC 4180 text.
    public static func text(_ sessions: [RecordedSession]) -> String {
        var out = CSVText.record(columns)
        for session in sessions {
            for row in rows(session) { out += CSVText.record(row) }
        }
        return out
    }

    /// A session's rows, each with a field per column.
    public static func rows(_ session: RecordedSession) -> [[String]] {
        var rows: [[String]] = []
        let runs = session.header.map { $0.startType != "flying" } ?? false
        for c in session.crossings {
            var row = Row(session)
            row["row"] = session.isRace ? "gate" : (c.lap == 0 ? "start" : (runs ? "run" : "lap"))
            row["run"] = String(c.runNumber)
            row["run_id"] = c.runId
            row["lap"] = String(c.lap)
            row.athlete(c.runAthlete)
            row["time_s"] = seconds(c.elapsedMs)
            row["split_s"] = c.splitTimeMs.map(seconds) ?? ""
            row.speed(c.speedMps)
            row["uncertainty_ms"] = milliseconds(c.totalUncertaintyMs)
            row["reaction_s"] = c.reactionMs.map(seconds) ?? ""
            row["false_start"] = bool(c.falseStart)
            row["stable"] = bool(c.stable)
            row["direction"] = c.direction.code
            row["dropped_frames"] = String(c.droppedFrames)
            row["role"] = c.role
            row["crossing_time_ns"] = String(c.crossingTimeNanos)
            row["start_time_ns"] = String(c.startTimeNanos)
            row["frame_index"] = String(c.frameIndex)
            row["interpolation_offset_ms"] = milliseconds(c.interpolationOffsetMs)
            row["detection_uncertainty_ms"] = milliseconds(c.uncertaintyMs)
            row["occupancy"] = DecimalText.fixed(c.occupancyAtTrigger, places: 3)
            row["stability_trace"] = c.stabilityTrace ?? ""
            row["error_ms"] = c.detectionErrorMs.map(milliseconds) ?? ""
            row["recorded_utc"] = CalendarDate.isoText(unixMillis: c.timestamp)
            rows.append(row.fields)
        }
        for r in session.raceRuns {
            var row = Row(session)
            row["row"] = "race"
            row["run"] = String(r.runNumber)
            row["run_id"] = r.runId
            row["from_gate"] = "0"
            row["to_gate"] = String(r.gates - 1)
            row.athlete(r.runAthlete)
            row["time_s"] = seconds(r.splitTimeMs)
            row["split_s"] = seconds(r.splitTimeMs)
            if let speed = r.speed { row.speed(speed.metresPerSecond) }
            row["uncertainty_ms"] = milliseconds(r.totalUncertaintyMs)
            row["crossing_time_ns"] = r.finishTimeNanos.map { String($0) } ?? ""
            row["sync_ms"] = milliseconds(r.syncMs)
            row["error_ms"] = r.splitErrorMs.map(milliseconds) ?? ""
            row["sync_error_ms"] = r.syncErrorMs.map(milliseconds) ?? ""
            rows.append(row.fields)
            // A run between two gates is its one segment: only lap gates add rows.
            guard r.segments.count > 1 else { continue }
            for s in r.segments {
                var segment = Row(session)
                segment["row"] = "segment"
                segment["run"] = String(r.runNumber)
                segment["run_id"] = r.runId
                segment["segment"] = String(s.toGate)
                segment["from_gate"] = String(s.toGate - 1)
                segment["to_gate"] = String(s.toGate)
                segment.athlete(r.runAthlete, bests: false)   // a best is the whole run's
                segment["time_s"] = seconds(s.cumulativeMs)
                segment["split_s"] = seconds(s.splitMs)
                if let v = s.speedMps { segment.speed(v) }
                rows.append(segment.fields)
            }
        }
        return rows
    }

    /// A row being filled, column by name; a column left alone stays empty.
    struct Row {
        var fields = Array(repeating: "", count: CSVExport.columns.count)

        /// A row with the session's columns filled: they repeat on every row.
        init(_ s: RecordedSession) {
            fields[CSVExport.index("session")] = s.id
            fields[CSVExport.index("session_name")] = s.name ?? ""
            fields[CSVExport.index("session_note")] = s.note ?? ""
            if let millis = s.timestamp { fields[CSVExport.index("session_date_utc")] = CalendarDate.isoText(unixMillis: millis) }
            if let metres = s.distanceMetres { fields[CSVExport.index("distance_m")] = DecimalText.fixed(metres, places: 3) }
            if let boxes = s.boxes { fields[CSVExport.index("boxes")] = String(boxes) }
            guard let h = s.header else { return }
            fields[CSVExport.index("device")] = h.deviceId
            fields[CSVExport.index("mode")] = h.mode
            fields[CSVExport.index("preset")] = h.preset ?? ""
            fields[CSVExport.index("start_type")] = h.startType
        }

        subscript(column: String) -> String {
            get { fields[CSVExport.index(column)] }
            set { fields[CSVExport.index(column)] = newValue }
        }

        mutating func athlete(_ a: RunAthlete?, bests: Bool = true) {
            guard let a else { return }
            self["athlete"] = a.name
            self["athlete_id"] = a.id ?? ""
            self["athlete_colour"] = a.colour ?? ""
            guard bests else { return }
            self["pb"] = bool(a.personalBest)
            self["sb"] = bool(a.seasonBest)
            self["previous_best_s"] = a.previousBestMs.map(seconds) ?? ""
            self["improvement_s"] = a.improvementMs.map(seconds) ?? ""
        }

        mutating func speed(_ metresPerSecond: Double) {
            let v = Speed(metresPerSecond: metresPerSecond)
            self["speed_mps"] = DecimalText.fixed(v.metresPerSecond, places: 3)
            self["speed_kmh"] = DecimalText.fixed(v.kilometresPerHour, places: 3)
            self["speed_mph"] = DecimalText.fixed(v.milesPerHour, places: 3)
            self["speed_kn"] = DecimalText.fixed(v.knots, places: 3)
        }
    }

    /// A column's place; every name used above is one of `columns` (the tests read each back).
    static func index(_ column: String) -> Int {
        guard let i = columns.firstIndex(of: column) else { fatalError("CSV column " + column + " is not in CSVExport.columns") }
        return i
    }

    /// Milliseconds on file as seconds, every digit kept (the file holds µs).
    static func seconds(_ ms: Double) -> String { DecimalText.fixed(ms / 1000, places: 6) }
    static func milliseconds(_ ms: Double) -> String { DecimalText.fixed(ms, places: 3) }
    static func bool(_ b: Bool) -> String { b ? "true" : "false" }
}

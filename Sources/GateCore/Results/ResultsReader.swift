/// Reads a results file back, tolerating what a power cut leaves: a torn
/// last line is reported and skipped, a damaged line in the middle is
/// reported with its number and skipped, and every good line is kept.
public struct ResultsReader {
    public enum Record: Equatable {
        case session(SessionRecord)
        case start(StartRecord)
        case reaction(ReactionRecord)
        case crossing(CrossingRecord)
        case end(SessionEndRecord)
        /// A run of a race of boxes, as this box recorded it.
        case raceRun(RaceRunLine)
        /// A coach's name or note for the session, appended later.
        case note(SessionNoteRecord)
    }

    public struct Parsed {
        public var records: [Record] = []
        /// Human-readable problems, each naming the line: "line 7: ...".
        public var warnings: [String] = []
    }

    public static func parse(_ text: String) -> Parsed {
        var parsed = Parsed()
        let endsWithNewline = text.utf8.last == 0x0A
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let isLast = index == lines.count - 1
            if raw.isEmpty { continue }
            let line = String(raw)
            do throws(ResultsLineError) {
                parsed.records.append(try record(from: line))
            } catch {
                if isLast && !endsWithNewline {
                    parsed.warnings.append("line \(number): torn last line (\(raw.utf8.count) bytes, no newline) ignored; the box likely lost power while writing it")
                } else {
                    parsed.warnings.append("line \(number): \(error.message); line skipped")
                }
            }
        }
        return parsed
    }

    public struct ResultsLineError: Error {
        public var message: String
    }

    static func record(from line: String) throws(ResultsLineError) -> Record {
        let fields: [(key: String, value: JSONScalar)]
        do {
            fields = try JSONLineReader.parse(line)
        } catch {
            throw ResultsLineError(message: "not a JSON object (column \(error.column): expected \(error.expected))")
        }
        let f = Fields(fields: fields)
        let type = try f.string("type")
        switch type {
        case "session":
            let format = try f.int("format")
            guard format == Int64(ResultsFormat.version) else {
                throw ResultsLineError(message: "results format \(format) is not supported (this build reads format \(ResultsFormat.version))")
            }
            var seed: UInt64?
            if let s = f.optionalString("seed") {
                guard let v = DecimalText.parseInt(Substring(s)), v >= 0 else { throw ResultsLineError(message: "field \"seed\": expected a decimal integer") }
                seed = UInt64(v)
            }
            var session = SessionRecord(
                sessionId: try f.string("sessionId"), deviceId: try f.string("deviceId"), mode: try f.string("mode"),
                startType: try f.string("startType"), detection: try f.string("detection"),
                fps: Int(try f.int("fps")), width: Int(try f.int("width")), height: Int(try f.int("height")),
                gatePosition: try f.double("gatePosition"), viewWidthMetres: try f.double("viewWidthM"),
                timestamp: try f.int("timestamp"), simulated: try f.bool("simulated"), seed: seed)
            session.preset = f.optionalString("preset")
            session.distanceMetres = try f.optionalDouble("distanceM")
            return .session(session)
        case "crossing":
            let directionCode = try f.string("direction")
            guard let direction = CrossingDirection(code: directionCode) else {
                throw ResultsLineError(message: "field \"direction\": expected \"ltr\" or \"rtl\", found \"\(directionCode)\"")
            }
            var crossing = CrossingRecord(
                sessionId: try f.string("sessionId"), runId: try f.string("runId"), lap: Int(try f.int("lap")),
                role: try f.string("role"), crossingTimeNanos: try f.int("crossingTimeNanos"),
                frameIndex: try f.int("frameIndex"), interpolationOffsetMs: try f.double("interpolationOffsetMs"),
                uncertaintyMs: try f.double("uncertaintyMs"), occupancyAtTrigger: try f.double("occupancyAtTrigger"),
                direction: direction, startTimeNanos: try f.int("startTimeNanos"), elapsedMs: try f.double("elapsedMs"),
                splitTimeMs: try f.optionalDouble("splitTimeMs"), totalUncertaintyMs: try f.double("totalUncertaintyMs"),
                speedMps: try f.double("speedMps"), droppedFrames: Int(try f.int("droppedFrames")),
                stable: try f.bool("stable"), timestamp: try f.int("timestamp"),
                truthCrossingTimeNanos: try f.optionalInt("truthCrossingTimeNanos"))
            crossing.stabilityTrace = f.optionalString("stabilityTrace")
            crossing.reactionMs = try f.optionalDouble("reactionMs")
            crossing.falseStart = try f.optionalBool("falseStart") ?? false
            try readAthlete(f, into: &crossing)
            return .crossing(crossing)
        case "start":
            var start = StartRecord(sessionId: try f.string("sessionId"), runId: try f.string("runId"),
                                    startType: try f.string("startType"), startTimeNanos: try f.int("startTimeNanos"),
                                    source: try f.string("source"), timestamp: try f.int("timestamp"))
            start.uncertaintyMs = try f.optionalDouble("uncertaintyMs")
            return .start(start)
        case "reaction":
            var reaction = ReactionRecord(
                sessionId: try f.string("sessionId"), runId: try f.string("runId"), goTimeNanos: try f.int("goTimeNanos"),
                movementTimeNanos: try f.optionalInt("movementTimeNanos"), uncertaintyMs: try f.optionalDouble("uncertaintyMs"),
                unseen: f.optionalString("unseen"), timestamp: try f.int("timestamp"),
                truthMovementTimeNanos: try f.optionalInt("truthMovementTimeNanos"))
            reaction.falseStart = try f.bool("falseStart")
            return .reaction(reaction)
        case "session_end":
            return .end(SessionEndRecord(sessionId: try f.string("sessionId"), laps: Int(try f.int("laps")),
                                         reason: try f.string("reason"), timestamp: try f.int("timestamp")))
        case "race_run":
            return .raceRun(try raceRun(f))
        case "session_note":
            return .note(try sessionNote(f))
        default:
            throw ResultsLineError(message: "unknown record type \"\(type)\" (expected session, start, reaction, crossing, race_run, session_note or session_end)")
        }
    }

    /// Typed field access with errors that name the field and what it should be.
    struct Fields {
        let fields: [(key: String, value: JSONScalar)]

        func value(_ key: String) -> JSONScalar? {
            for field in fields where field.key == key { return field.value }
            return nil
        }

        func string(_ key: String) throws(ResultsLineError) -> String {
            guard let v = value(key)?.stringValue else { throw missing(key, "a string") }
            return v
        }

        func optionalString(_ key: String) -> String? { value(key)?.stringValue }

        func int(_ key: String) throws(ResultsLineError) -> Int64 {
            guard let v = value(key)?.intValue else { throw missing(key, "an integer") }
            return v
        }

        func optionalInt(_ key: String) throws(ResultsLineError) -> Int64? {
            guard let v = value(key), v != .null else { return nil }
            guard let i = v.intValue else { throw missing(key, "an integer or null") }
            return i
        }

        func double(_ key: String) throws(ResultsLineError) -> Double {
            guard let v = value(key)?.doubleValue else { throw missing(key, "a number") }
            return v
        }

        func optionalDouble(_ key: String) throws(ResultsLineError) -> Double? {
            guard let v = value(key), v != .null else { return nil }
            guard let d = v.doubleValue else { throw missing(key, "a number or null") }
            return d
        }

        func bool(_ key: String) throws(ResultsLineError) -> Bool {
            guard let v = value(key)?.boolValue else { throw missing(key, "true or false") }
            return v
        }

        func optionalBool(_ key: String) throws(ResultsLineError) -> Bool? {
            guard let v = value(key), v != .null else { return nil }
            guard let b = v.boolValue else { throw missing(key, "true, false or null") }
            return b
        }

        func missing(_ key: String, _ expected: String) -> ResultsLineError {
            value(key) == nil ? ResultsLineError(message: "field \"\(key)\" is missing (expected \(expected))")
                : ResultsLineError(message: "field \"\(key)\": expected \(expected)")
        }
    }
}

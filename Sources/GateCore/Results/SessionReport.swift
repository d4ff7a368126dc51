/// `ts-gate export html`: a session as one self-contained HTML page that
/// opens in any browser from the card, a phone's included: its name and
/// note, a table of runs with their speeds and the athletes' bests, and
/// each crossing's photos inline as data: URIs. Nothing outside the page
/// is fetched. A pure function of the records and the photos' bytes, so
/// the same page can be written to a file or served.
public enum SessionReport {
    /// A picture of one crossing, as the box wrote it beside the results
    /// (`photos/<runId>-<lap>-strip.png`, `-frame.png`).
    public struct Photo: Equatable {
        public enum Kind: Equatable, Sendable {
            case strip, frame

            public var name: String { self == .strip ? "strip" : "frame" }
        }

        public var runId: String
        public var lap: Int
        public var kind: Kind
        public var png: [UInt8]

        public init(runId: String, lap: Int, kind: Kind, png: [UInt8]) {
            self.runId = runId; self.lap = lap; self.kind = kind; self.png = png
        }

        /// Where the box keeps it, from the session's directory.
        public static func path(runId: String, lap: Int, kind: Kind) -> String {
            "photos/" + runId + "-" + String(lap) + "-" + kind.name + ".png"
        }
    }

    /// The photos a session may have, one strip and one frame per crossing
    /// of its box's gate: the reader looks for these and skips the absent.
    public static func photoPaths(_ session: RecordedSession) -> [(runId: String, lap: Int, kind: Photo.Kind, path: String)] {
        var paths: [(runId: String, lap: Int, kind: Photo.Kind, path: String)] = []
        for c in session.crossings {
            for kind in [Photo.Kind.strip, .frame] {
                paths.append((c.runId, c.lap, kind, Photo.path(runId: c.runId, lap: c.lap, kind: kind)))
            }
        }
        return paths
    }

    /// The page, as UTF-8 bytes.
    public static func html(_ session: RecordedSession, units: [SpeedUnit] = SpeedUnit.standard, photos: [Photo] = []) -> [UInt8] {
        var page = Page()
        let title = session.name ?? session.id
        page += "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        page += "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>"
        page.text(title)
        page += "</title><style>" + style + "</style></head><body><h1>"
        page.text(title)
        page += "</h1><p class=\"m\">"
        page.text(summary(session))
        page += "</p>"
        if let note = session.note {
            page += "<p class=\"n\">"
            page.text(note)
            page += "</p>"
        }
        if !session.warnings.isEmpty {
            page += "<p class=\"m\">"
            page.text(String(session.warnings.count) + (session.warnings.count == 1 ? " damaged line" : " damaged lines")
                      + " of the results file skipped")
            page += "</p>"
        }
        let rows = RunRow.rows(session)
        if rows.isEmpty {
            page += "<p>No timed runs.</p>"
        } else {
            table(rows, units: units, photos: photos, into: &page)
        }
        for row in rows {
            let pictures = photos.filter { p in row.crossings.contains { $0.runId == p.runId && $0.lap == p.lap } }
            guard !pictures.isEmpty else { continue }
            page += "<figure id=\""
            page.text(row.anchor)
            page += "\"><figcaption>"
            page.text(row.label + (row.athlete.map { " · " + $0.name } ?? "") + " · " + DecimalText.fixed(row.timeMs / 1000, places: 3) + " s")
            page += "</figcaption>"
            for picture in pictures {
                page += "<img alt=\"" + (picture.kind == .strip ? "photo-finish strip" : "crossing frame") + "\" src=\"data:image/png;base64,"
                Base64.encode(picture.png, into: &page.bytes)
                page += "\">"
            }
            page += "</figure>"
        }
        page += "<p class=\"m\">Made by ts-gate from " + ResultsFormat.fileName + "; that file is the record.</p></body></html>\n"
        return page.bytes
    }

    /// The table: numbers on the right; who ran, the bests, the start's
    /// notes and a link to the photos in one left column that wraps, so a
    /// phone shows the times without scrolling sideways.
    static func table(_ rows: [RunRow], units: [SpeedUnit], photos: [Photo], into page: inout Page) {
        let splits = rows.contains { $0.splitsText != nil }
        let athletes = rows.contains { $0.athlete != nil }
        let notes = rows.map { row in
            marks(row, photo: photos.contains { p in row.crossings.contains { $0.runId == p.runId && $0.lap == p.lap } })
        }
        let textColumn = athletes || notes.contains { !$0.isEmpty }
        let best = rows.filter { !$0.falseStart }.map { $0.timeMs }.min()
        page += "<div class=\"w\"><table><tr><th>" + (rows[0].isLap ? "Lap" : "Run") + "</th>"
        if textColumn { page += "<th class=\"l\">" + (athletes ? "Athlete" : "") + "</th>" }
        page += "<th>Time s</th>" + (splits ? "<th>Split s</th>" : "")
        for unit in units { page += "<th>"; page.text(unit.symbol); page += "</th>" }
        page += "<th>±ms</th></tr>"
        for (row, note) in zip(rows, notes) {
            page += row.timeMs == best ? "<tr class=\"best\"><td>" : "<tr><td>"
            page.text(row.number)
            page += "</td>"
            if textColumn {
                page += "<td class=\"l\">"
                if let a = row.athlete {
                    if let colour = a.colour, athleteColours.contains(colour) { page += "<i style=\"color:" + colour + "\">●</i> " }
                    page.text(a.name)
                }
                if !note.isEmpty { page += "<div class=\"k\">" + note + "</div>" }
                page += "</td>"
            }
            page += "<td>" + DecimalText.fixed(row.timeMs / 1000, places: 3) + "</td>"
            if splits { page += "<td>" + (row.splitsText ?? "") + "</td>" }
            for unit in units {
                page += "<td>" + (row.speed.map { DecimalText.fixed(unit.value($0), places: unit.places) } ?? "–") + "</td>"
            }
            page += "<td>" + DecimalText.fixed(row.uncertaintyMs, places: 2) + "</td></tr>"
        }
        page += "</table></div>"
    }

    /// A row's marks as markup: "PB SB −0.106 s", a false start or the
    /// reaction, a moved tripod, the link to its photos.
    static func marks(_ row: RunRow, photo: Bool) -> String {
        var parts: [String] = []
        if let a = row.athlete {
            if a.personalBest { parts.append("<b class=\"b pb\">PB</b>") }
            if a.seasonBest { parts.append("<b class=\"b sb\">SB</b>") }
            if (a.personalBest || a.seasonBest), let gain = a.improvementMs {
                parts.append("−" + DecimalText.fixed(gain.magnitude / 1000, places: 3) + " s")
            }
        }
        if row.falseStart { parts.append("<b class=\"b fs\">false start</b>") }
        if let reaction = row.reactionMs, !row.falseStart { parts.append("reaction " + DecimalText.fixed(reaction / 1000, places: 3) + " s") }
        if !row.stable { parts.append("tripod moved") }
        if photo { parts.append("<a href=\"#" + HTMLText.escaped(row.anchor) + "\">photo</a>") }
        return parts.joined(separator: " ")
    }

    /// "session-0003 · 2026-11-03 17:42 UTC · Flying 30m, 30 m · flying start · 2 boxes · simulated".
    static func summary(_ s: RecordedSession) -> String {
        var parts = [s.id]
        if let date = s.dateText { parts.append(date) }
        if let h = s.header {
            if let id = h.preset {
                let preset = Preset.named(id)
                parts.append((preset?.name ?? id) + ", "
                             + Preset.distanceText(metres: h.distanceMetres ?? preset?.metres, yards: preset?.yards))
            } else if let metres = s.distanceMetres {
                parts.append(Preset.distanceText(metres: metres))
            }
            parts.append(startTypeName(h.startType) + " start")
            if h.simulated { parts.append("simulated") }
        }
        if let boxes = s.boxes { parts.append(boxes == 1 ? "1 box" : String(boxes) + " boxes") }
        return parts.joined(separator: " · ")
    }

    static func startTypeName(_ code: String) -> String {
        for type in [StartType.flying, .touchRelease, .countdown, .voice, .inFrame] where type.code == code { return type.name }
        return code
    }

    /// The eight colours an athlete may have (seed 000 section 13.1), all
    /// CSS colour names; anything else on file is not put into the page's style.
    static let athleteColours = ["red", "orange", "yellow", "green", "blue", "purple", "pink", "gray"]

    static let style = "body{font:16px/1.4 system-ui,sans-serif;margin:0 auto;padding:12px;max-width:60em;color:#111}"
        + "h1{font-size:1.4em;margin:0 0 .2em}.m{color:#555;font-size:.9em}.n{font-style:italic;white-space:pre-line}"
        + ".w{overflow-x:auto}table{border-collapse:collapse;width:100%}"
        + "th,td{padding:6px 4px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}.l{text-align:left;white-space:normal}"
        + ".best td{font-weight:bold}.k{font-size:.85em;font-weight:normal}.b{padding:0 4px;border-radius:3px;color:#fff;font-size:.8em}"
        + ".pb{background:#b50}.sb{background:#05a}.fs{background:#a00}i{font-style:normal}"
        + "figure{margin:1em 0}img{max-width:100%;height:auto;margin:4px 0;display:block}"

    /// An output buffer: text and base64 go straight into its bytes.
    struct Page {
        var bytes: [UInt8] = []

        static func += (page: inout Page, text: String) { page.bytes.append(contentsOf: text.utf8) }

        /// Text from the records (names, notes), escaped.
        mutating func text(_ text: String) { bytes.append(contentsOf: HTMLText.escaped(text).utf8) }
    }
}

/// A row of the report's table: a lap, a run from a start, or a race run,
/// with the crossings whose photos belong to it.
struct RunRow {
    var number: String
    var isLap: Bool
    var label: String
    var timeMs: Double
    /// A race run's segments, "1.234 · 2.345", when it had lap gates.
    var splitsText: String?
    var speed: Speed?
    var uncertaintyMs: Double
    var athlete: RunAthlete?
    var falseStart = false
    var reactionMs: Double?
    var stable = true
    var crossings: [(runId: String, lap: Int)]
    var anchor: String

    static func rows(_ s: RecordedSession) -> [RunRow] {
        if s.isRace {
            return s.raceRuns.map { r in
                let splits = r.segments.count > 1
                    ? r.segments.map { DecimalText.fixed($0.splitMs / 1000, places: 3) }.joined(separator: " · ") : nil
                return RunRow(number: String(r.runNumber), isLap: false, label: "Run " + String(r.runNumber), timeMs: r.splitTimeMs,
                              splitsText: splits, speed: r.speed, uncertaintyMs: r.totalUncertaintyMs, athlete: r.runAthlete,
                              crossings: s.crossings.filter { $0.runId == r.runId }.map { ($0.runId, $0.lap) },
                              anchor: "p-" + r.runId)
            }
        }
        let runs = s.header.map { $0.startType != "flying" } ?? false
        return s.crossings.compactMap { c in
            guard let split = c.splitTimeMs else { return nil }   // the crossing that started a flying clock
            let number = String(runs ? c.runNumber : c.lap)
            return RunRow(number: number, isLap: !runs, label: (runs ? "Run " : "Lap ") + number, timeMs: split,
                          splitsText: nil, speed: c.speed, uncertaintyMs: c.totalUncertaintyMs, athlete: c.runAthlete,
                          falseStart: c.falseStart, reactionMs: c.reactionMs, stable: c.stable,
                          crossings: [(c.runId, c.lap)], anchor: "p-" + c.runId + "-" + String(c.lap))
        }
    }
}

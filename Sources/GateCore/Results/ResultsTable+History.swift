extension ResultsTable {
    /// A recorded session as `ts-gate results` shows it: the session's
    /// table and its race's, with the coach's name and note and the day it
    /// was recorded under the table's first line.
    public static func render(_ s: RecordedSession, units: [SpeedUnit] = SpeedUnit.standard) -> String {
        let table = render(session: s.header, crossings: s.crossings, ended: s.end, units: units) + renderRace(s.raceRuns, units: units)
        var label = ""
        if let name = s.name { label += "name: " + name + "\n" }
        // A note's own line breaks stay, indented under it.
        if let note = s.note { label += "note: " + note.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n      ") + "\n" }
        if let date = s.dateText { label += "recorded " + date + "\n" }
        guard s.header != nil, let newline = table.firstIndex(of: "\n") else { return label + table }
        return String(table[...newline]) + label + String(table[table.index(after: newline)...])
    }

    /// "Ana PB SB -0.120 s": who ran a row and the bests it set.
    static func athleteNote(_ athlete: RunAthlete?) -> String? {
        guard let a = athlete else { return nil }
        var note = a.name
        if a.personalBest { note += " PB" }
        if a.seasonBest { note += " SB" }
        if (a.personalBest || a.seasonBest), let gain = a.improvementMs {
            note += " -" + DecimalText.fixed(gain.magnitude / 1000, places: 3) + " s"
        }
        return note
    }
}

import GateCore
import GateDevices

extension Squad {
    /// The squad a session starts with, from the data directory: the
    /// athletes file's roster by name, each spoken name added to `voice`
    /// (the sound bank is made from it), and the bests the results on the
    /// card give. What cannot be read is said and left out; the box times
    /// on without it.
    static func load(dataDirectory: String, voice: inout Voice, console: Console) -> Squad {
        var squad = Squad()
        let store = AthletesStore(dataDirectory: dataDirectory)
        let read: (roster: AthleteRoster, warnings: [String])
        do { read = try store.read() } catch {
            console.warning("ts-gate: " + error.message + "; runs are not assigned to athletes")
            return squad
        }
        for warning in read.warnings { console.warning("ts-gate: " + warning) }
        guard !read.roster.isEmpty else { return squad }
        squad.athletes = read.roster.byName
        let clips = NameClips.load(read.roster, store: store)
        for (id, clip) in clips.clips {
            if let slot = voice.addName(samples: clip.samples, rate: clip.rate) { squad.nameSlots[id] = slot }
        }
        if !clips.missing.isEmpty {
            console.line("athletes without a name clip (a beep stands in): " + clips.missing.joined(separator: ", "))
        }
        let bests = store.bests(season: read.roster)
        for warning in bests.warnings { console.warning("ts-gate: " + warning) }
        squad.bests = bests.book
        return squad
    }
}

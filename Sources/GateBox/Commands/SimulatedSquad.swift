import GateCore
import GateDevices

/// `--simulate --athletes N`: the squad that takes turns. The data
/// directory's athletes file gives it (the first N by name); athletes it
/// lacks are made up and added to it, with their name clips, as
/// `ts-gate athletes add` would, so a second simulated session finds them
/// and their bests.
enum SimulatedSquad {
    static let madeUpNames = ["Ada Quick", "Ben Swift", "Cleo Dash", "Dev Rapid", "Eve Bolt", "Finn Stride", "Gia Sprint", "Hal Pace"]

    static func prepare(count: Int, dataDirectory: String, voice: inout Voice, console: Console) throws(GateError) -> Squad {
        let store = AthletesStore(dataDirectory: dataDirectory)
        var roster = try store.read().roster
        for name in madeUpNames where roster.athletes.count < count && !roster.nameTaken(name) {
            let number = roster.highestNumber + 1
            let athlete = Athlete(id: roster.nextId, name: name, colour: AthleteColour.forNewAthlete(number: number))
            try store.append(AthletesFile.line(athlete, timestamp: MonotonicClock.unixMillis()))
            console.line("simulated athlete " + athlete.name + " (" + athlete.id + ") added to " + store.path)
            if case .noEngine = NameClips.make(athlete.calledName, path: store.nameClipPath(id: athlete.id)) {
                console.line("name clip: espeak-ng is not installed, so the box beeps instead of saying " + athlete.name)
            }
            roster = try store.read().roster
        }
        var squad = Squad.load(dataDirectory: dataDirectory, voice: &voice, console: console)
        squad.athletes = Array(squad.athletes.prefix(count))
        return squad
    }
}

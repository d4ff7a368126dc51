import GateCore
import GateDevices

/// `ts-gate athletes`: the squad a coach times, kept in the athletes file
/// beside the results. Every change is one appended record (`AthletesFile`);
/// `show` reads the bests from the results themselves.
enum AthletesCommand {
    static func run(_ options: AthletesOptions, console: Console) -> Int32 {
        let store = AthletesStore(dataDirectory: options.dataDirectory ?? defaultDataDirectory())
        let read: (roster: AthleteRoster, warnings: [String])
        do { read = try store.read() } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        for warning in read.warnings { console.warning("ts-gate: " + warning) }
        let roster = read.roster
        do throws(AthletesFailure) {
            switch options.action {
            case .list:
                console.line(list(roster, store: store))
            case .show(let key):
                let athlete = try find(key, in: roster)
                let bests = store.bests(season: roster)
                for warning in bests.warnings { console.warning("ts-gate: " + warning) }
                console.line(show(athlete, book: bests.book, roster: roster))
            case .add(let name):
                guard !roster.nameTaken(name) else {
                    throw .usage("athletes add: an athlete is already called '" + name + "' (ts-gate athletes edit changes them)")
                }
                var athlete = Athlete(id: roster.nextId, name: name,
                                      colour: options.colour ?? AthleteColour.forNewAthlete(number: roster.highestNumber + 1))
                apply(options, to: &athlete)
                try append(AthletesFile.line(athlete, timestamp: MonotonicClock.unixMillis()), store)
                console.line("added " + athlete.name + " (" + athlete.id + ", " + athlete.colour.name + ") to " + store.path)
                if options.makeNameClip { console.line(nameClip(athlete, store: store)) }
            case .edit(let key):
                var athlete = try find(key, in: roster)
                let before = athlete
                if let name = options.name {
                    guard !roster.nameTaken(name, except: athlete.id) else {
                        throw .usage("athletes edit: another athlete is already called '" + name + "'")
                    }
                    athlete.name = name
                }
                apply(options, to: &athlete)
                guard athlete != before else {
                    throw .usage("athletes edit " + key + ": nothing to change (give --name, --nickname, --colour, --birthdate or --gender)")
                }
                try append(AthletesFile.line(athlete, timestamp: MonotonicClock.unixMillis()), store)
                console.line("edited " + describe(athlete))
                if options.makeNameClip && athlete.calledName != before.calledName { console.line(nameClip(athlete, store: store)) }
            case .remove(let key):
                let athlete = try find(key, in: roster)
                try append(AthletesFile.removalLine(id: athlete.id, timestamp: MonotonicClock.unixMillis()), store)
                console.line("removed " + athlete.name + " (" + athlete.id + "); their runs keep their name and colour")
            case .newSeason:
                let now = MonotonicClock.unixMillis()
                try append(AthletesFile.seasonLine(name: options.seasonName, timestamp: now), store)
                console.line("a new season" + (options.seasonName.map { " (" + $0 + ")" } ?? "")
                    + " starts now: season bests count runs from here on; personal bests stay. A running box takes it at its next session (SIGHUP)")
            }
        } catch {
            switch error {
            case .usage(let message):
                console.problem("ts-gate: " + message)
                return 2
            case .failed(let gateError):
                console.problem("ts-gate: " + gateError.message)
                return 1
            }
        }
        return 0
    }

    enum AthletesFailure: Error {
        /// The command line named something that is not there: exit 2.
        case usage(String)
        case failed(GateError)
    }

    static func find(_ key: String, in roster: AthleteRoster) throws(AthletesFailure) -> Athlete {
        guard let athlete = roster.find(key) else {
            let names = roster.byName.map { $0.name }
            throw .usage("athletes: no athlete '" + key + "'; expected a name, nickname or id"
                + (names.isEmpty ? " (there are none yet: ts-gate athletes add NAME)" : ": " + names.joined(separator: ", ")))
        }
        return athlete
    }

    static func append(_ line: String, _ store: AthletesStore) throws(AthletesFailure) {
        do { try store.append(line) } catch { throw .failed(error) }
    }

    /// The options' fields over `athlete`; "" clears an optional field.
    static func apply(_ options: AthletesOptions, to athlete: inout Athlete) {
        if let nickname = options.nickname { athlete.nickname = nickname.isEmpty ? nil : nickname }
        if let colour = options.colour { athlete.colour = colour }
        if let birthdate = options.birthdate { athlete.birthdate = birthdate.isEmpty ? nil : birthdate }
        if let gender = options.gender { athlete.gender = AthleteGender(name: gender) }
    }

    /// Speaks the name into its clip; one line says what came of it.
    static func nameClip(_ athlete: Athlete, store: AthletesStore) -> String {
        switch NameClips.make(athlete.calledName, path: store.nameClipPath(id: athlete.id)) {
        case .made(let path): return "name clip: " + path
        case .noEngine:
            return "name clip: espeak-ng is not installed, so the box beeps instead of saying " + athlete.calledName
                + " (install espeak-ng, then ts-gate athletes edit to make it)"
        case .failed(let why): return "name clip not made (" + why + "): the box beeps instead of saying the name"
        }
    }

    static func describe(_ athlete: Athlete) -> String {
        var text = athlete.name
        if let nickname = athlete.nickname { text += " (\"" + nickname + "\")" }
        text += ", " + athlete.colour.name
        if let birthdate = athlete.birthdate { text += ", born " + birthdate }
        if let gender = athlete.gender { text += ", " + gender.name }
        return text + " [" + athlete.id + "]"
    }

    static func list(_ roster: AthleteRoster, store: AthletesStore) -> String {
        guard !roster.isEmpty else { return "no athletes yet in " + store.path + " (ts-gate athletes add NAME)" }
        var out = DecimalText.padRight("id", 14) + DecimalText.padRight("name", 24) + DecimalText.padRight("nickname", 14)
            + DecimalText.padRight("colour", 8) + DecimalText.padRight("birthdate", 12) + "gender"
        for a in roster.byName {
            out += "\n" + DecimalText.padRight(a.id, 14) + DecimalText.padRight(a.name, 24) + DecimalText.padRight(a.nickname ?? "-", 14)
                + DecimalText.padRight(a.colour.name, 8) + DecimalText.padRight(a.birthdate ?? "-", 12) + (a.gender?.name ?? "-")
        }
        return out
    }

    /// The athlete, then per test their personal and season bests, the
    /// last runs and the trend over them (seed 000 section 13.5).
    static func show(_ athlete: Athlete, book: BestsBook, roster: AthleteRoster) -> String {
        var out = describe(athlete)
        let keys = book.keys(athleteId: athlete.id)
        guard !keys.isEmpty else {
            return out + "\nno timed runs yet (runs with a start event and a preset's distance set bests)"
        }
        out += "\nseason" + (roster.seasonName.map { " " + $0 } ?? "") + (roster.seasonStartMillis == nil ? ": all runs (no new season started)" : ": runs since it began")
        out += "\n" + DecimalText.padRight("test", 24) + DecimalText.padLeft("runs", 5) + DecimalText.padLeft("PB", 9)
            + DecimalText.padLeft("SB", 9) + "   last runs, oldest first   trend"
        for key in keys {
            guard let entry = book.entry(athleteId: athlete.id, key: key) else { continue }
            func s(_ ms: Double?) -> String { ms.map { DecimalText.fixed($0 / 1000, places: 2) } ?? "-" }
            let last = entry.runs.suffix(5)
            out += "\n" + DecimalText.padRight(key, 24) + DecimalText.padLeft(String(entry.runs.count), 5)
                + DecimalText.padLeft(s(entry.personalMs), 9) + DecimalText.padLeft(s(entry.seasonMs), 9) + "   "
                + DecimalText.padRight(last.map { s($0.ms) }.joined(separator: " "), 26) + trend(Array(last.map { $0.ms }))
        }
        return out
    }

    /// The last runs' direction: the newest against the mean of the ones
    /// before it, so one good day stands out without hiding a slide.
    static func trend(_ ms: [Double]) -> String {
        guard ms.count >= 2, let newest = ms.last else { return "-" }
        let earlier = ms.dropLast()
        let mean = earlier.reduce(0, +) / Double(earlier.count)
        let change = (newest - mean) / 1000
        if change.magnitude < 0.005 { return "steady" }
        return (change < 0 ? "faster by " : "slower by ") + DecimalText.fixed(change.magnitude, places: 2)
            + " s than the " + String(earlier.count) + " before"
    }
}

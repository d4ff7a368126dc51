/// Who ran a run, as the run recorded them, and whether it was a best
/// (seed 000 sections 9.8 and 13.4). Read from a crossing's or a race
/// run's optional fields: "athlete" (the name), "athleteColour",
/// "athleteId", "pb" and "sb" (true when the run set one), "previousBestMs"
/// and "improvementMs". Files written before athletes have none of them.
public struct RunAthlete: Equatable {
    public var name: String
    public var colour: String?
    public var id: String?
    public var personalBest = false
    public var seasonBest = false
    /// The best this run beat, and by how much, ms.
    public var previousBestMs: Double?
    public var improvementMs: Double?

    public init(name: String, colour: String? = nil, id: String? = nil) {
        self.name = name; self.colour = colour; self.id = id
    }
}

extension ResultsReader {
    /// The athlete fields of a line; nil when it names no athlete.
    static func runAthlete(_ f: Fields) throws(ResultsLineError) -> RunAthlete? {
        guard let name = f.optionalString("athlete") else { return nil }
        // An id may be written as a string or a number: keep its text either way.
        var id: String?
        switch f.value("athleteId") {
        case .string(let text)?, .number(let text)?: id = text
        default: id = nil
        }
        var athlete = RunAthlete(name: name, colour: f.optionalString("athleteColour"), id: id)
        athlete.personalBest = try f.optionalBool("pb") ?? false
        athlete.seasonBest = try f.optionalBool("sb") ?? false
        athlete.previousBestMs = try f.optionalDouble("previousBestMs")
        athlete.improvementMs = try f.optionalDouble("improvementMs")
        return athlete
    }
}

extension ResultsReader {
    /// A crossing's athlete fields into the record's own (`best` when the
    /// line says pb or sb, even false: the run could set one).
    static func readAthlete(_ f: Fields, into crossing: inout CrossingRecord) throws(ResultsLineError) {
        crossing.athlete = f.optionalString("athlete")
        crossing.athleteColour = f.optionalString("athleteColour")
        // An id may be written as a string or a number: keep its text either way.
        switch f.value("athleteId") {
        case .string(let text)?, .number(let text)?: crossing.athleteId = text
        default: crossing.athleteId = nil
        }
        let pb = try f.optionalBool("pb"), sb = try f.optionalBool("sb")
        guard pb != nil || sb != nil else { return }
        var best = BestsBook.Outcome()
        best.personalBest = pb ?? false
        best.seasonBest = sb ?? false
        best.previousBestMs = try f.optionalDouble("previousBestMs")
        best.improvementMs = try f.optionalDouble("improvementMs")
        crossing.best = best
    }
}

extension CrossingRecord {
    /// The run's athlete fields (as the box wrote them: `athlete`,
    /// `athleteColour`, `athleteId`, `best`) in the form history, the
    /// table and the exports read.
    public var runAthlete: RunAthlete? {
        get {
            guard let name = athlete else { return nil }
            var runner = RunAthlete(name: name, colour: athleteColour, id: athleteId)
            if let best {
                runner.personalBest = best.personalBest
                runner.seasonBest = best.seasonBest
                runner.previousBestMs = best.previousBestMs
                runner.improvementMs = best.improvementMs
            }
            return runner
        }
        set {
            athlete = newValue?.name
            athleteColour = newValue?.colour
            athleteId = newValue?.id
            guard let runner = newValue, runner.personalBest || runner.seasonBest || runner.previousBestMs != nil else { best = nil; return }
            var outcome = BestsBook.Outcome()
            outcome.personalBest = runner.personalBest
            outcome.seasonBest = runner.seasonBest
            outcome.previousBestMs = runner.previousBestMs
            outcome.improvementMs = runner.improvementMs
            best = outcome
        }
    }
}

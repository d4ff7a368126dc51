import GateCore
import GateDevices

/// The athletes a session can time and what is known of them, loaded
/// before the loop (`Squad.load`): the roster in the order the button
/// cycles it (by name), the voice slot of each spoken name, and the bests
/// the results on the card give.
public struct Squad: Equatable {
    public var athletes: [Athlete] = []
    /// `SoundName.name` slots of the athletes whose clip loaded, by id.
    public var nameSlots: [String: Int] = [:]
    public var bests = BestsBook()

    public init() {}
}

/// Who runs next, and which test the box times next: the state the
/// button's double tap (next athlete) and triple tap (next preset) move,
/// owned here so the loop only hands it gestures, starts and crossings.
///
/// The athlete picked when a run starts is the run's, whatever is picked
/// while it is under way; each crossing record carries them as they were,
/// and what the run did to their bests.
struct NextRunPicker {
    let squad: Squad
    /// Index into the squad's athletes; nil: nobody (runs not assigned).
    private(set) var current: Int?
    /// The athlete of each run from its start event (flying laps take the
    /// one picked at the crossing).
    private var byRun: [Int: Int] = [:]
    private(set) var bests: BestsBook
    /// `{startType}_{distance}m` of this session's runs; nil: its runs set
    /// no bests (a flying start, or no preset's distance).
    let bestsKey: String?
    /// The preset the triple tap has picked for the next session.
    private(set) var preset: Preset?
    /// Presets this box can run: a box alone skips those needing a start gate.
    private let presets: [Preset]

    init(squad: Squad, startType: StartType, distanceMetres: Double?, preset: Preset?, alone: Bool) {
        self.squad = squad
        bests = squad.bests
        current = squad.athletes.isEmpty ? nil : 0
        bestsKey = startType.isExternal ? distanceMetres.map { BestsBook.key(startType: startType.code, metres: $0) } : nil
        self.preset = preset
        presets = Preset.all.filter { !alone || PresetAlone.refusal($0) == nil }
    }

    var athlete: Athlete? { current.map { squad.athletes[$0] } }

    /// Double tap: the next athlete, then nobody, then the first again.
    /// Returns the line to log and the sound that confirms it: the name's
    /// clip, else a beep.
    mutating func nextAthlete(voice: Voice) -> (line: String, sound: SoundProgram)? {
        guard !squad.athletes.isEmpty else { return nil }
        if let i = current { current = i + 1 < squad.athletes.count ? i + 1 : nil } else { current = 0 }
        guard let athlete else {
            return ("next run: no athlete (runs are not assigned)", spoken(.phrase(.noAthlete), voice: voice))
        }
        let slot = squad.nameSlots[athlete.id]
        return ("next run: " + athlete.name + " (" + athlete.colour.name + ")" + (slot == nil ? "; no name clip, so a beep" : ""),
                spoken(slot.map { .name(slot: $0, text: athlete.calledName) }, voice: voice))
    }

    /// Triple tap: the next preset this box can run, for the next session.
    mutating func nextPreset() -> (preset: Preset, line: String) {
        let i = preset.flatMap { p in presets.firstIndex { $0.id == p.id } } ?? -1
        let next = presets[(i + 1) % presets.count]
        preset = next
        return (next, "preset " + next.id + ": " + next.name + ", " + next.distanceText + "; the session closes and a new one starts with it")
    }

    /// The preset's spoken name (a beep without its clip): what a session
    /// started by the preset gesture says first.
    static func presetSound(_ preset: Preset, voice: Voice) -> SoundProgram {
        var program = SoundProgram()
        if let phrase = Phrase.preset(preset), program.add(.phrase(phrase), atNanos: 0, voice: voice) { return program }
        return SoundProgram.single(.tone(.beep), voice: voice)
    }

    /// The name or phrase, or a beep when the voice lacks it.
    private func spoken(_ sound: SoundName?, voice: Voice) -> SoundProgram {
        var program = SoundProgram()
        if let sound, program.add(sound, atNanos: 0, voice: voice) { return program }
        return SoundProgram.single(.tone(.beep), voice: voice)
    }

    /// A start event began `run`: it is the picked athlete's.
    mutating func runStarted(_ run: Int) {
        byRun[run] = current
    }

    /// Stamps the crossing with its athlete as they are now and, for a
    /// finished run that counts, what it did to their bests; returns what
    /// to say after the time ("new personal best", "season best"), by how
    /// much it beat the best before, and a line for the log.
    mutating func stamp(_ record: inout CrossingRecord, external: Bool) -> (remark: Phrase?, gainNanos: Int64?, line: String?) {
        let index = external ? byRun[record.runNumber] : current
        guard let index else { return (nil, nil, nil) }
        let athlete = squad.athletes[index]
        record.athleteId = athlete.id
        record.athlete = athlete.name
        record.athleteColour = athlete.colour.name
        guard let key = bestsKey, let run = BestsBook.countedRun(record) else { return (nil, nil, nil) }
        let outcome = bests.record(athleteId: run.athleteId, key: key, ms: run.ms, timestamp: record.timestamp)
        record.best = outcome
        guard outcome.personalBest || outcome.seasonBest else { return (nil, nil, nil) }
        var line = athlete.name + ": " + (outcome.personalBest ? "new personal best" : "season best") + " at " + key
        if let previous = outcome.previousBestMs, let gain = outcome.improvementMs {
            line += ", " + DecimalText.fixed(gain / 1000, places: 2) + " s better than " + DecimalText.fixed(previous / 1000, places: 2) + " s"
        } else {
            line += " (first timed run)"
        }
        return (outcome.personalBest ? .newPersonalBest : .seasonBest, outcome.improvementMs.map { Int64(($0 * 1e6).rounded()) }, line)
    }
}

import Testing
@testable import GateCore

@Suite struct AthletesFileTests {
    func athlete(_ n: Int, _ name: String, _ colour: AthleteColour = .red) -> Athlete {
        Athlete(id: AthleteRoster.id(number: n), name: name, colour: colour)
    }

    @Test func anEditIsTheWholeAthleteAgainAndTheLastRecordWins() {
        var ada = athlete(1, "Ada Quick")
        var text = AthletesFile.line(ada, timestamp: 1) + "\n" + AthletesFile.line(athlete(2, "Ben Swift", .blue), timestamp: 2) + "\n"
        ada.name = "Ada Quicker"
        ada.nickname = "Ace"
        ada.birthdate = "2009-04-17"
        ada.gender = .female
        text += AthletesFile.line(ada, timestamp: 3) + "\n"
        let (roster, warnings) = AthletesFile.parse(text)
        #expect(warnings.isEmpty)
        #expect(roster.athletes.map(\.id) == ["athlete-0001", "athlete-0002"], "an edit keeps the athlete's place and id")
        #expect(roster.athletes[0] == ada)
        #expect(roster.athletes[1].colour == .blue && roster.athletes[1].nickname == nil)
        #expect(roster.nextId == "athlete-0003")
    }

    @Test func aRemovedAthleteIsGoneButTheirIdIsNeverGivenAgain() {
        let text = AthletesFile.line(athlete(1, "Ada Quick"), timestamp: 1) + "\n" + AthletesFile.line(athlete(2, "Ben Swift"), timestamp: 2)
            + "\n" + AthletesFile.removalLine(id: "athlete-0002", timestamp: 3) + "\n"
        let (roster, warnings) = AthletesFile.parse(text)
        #expect(warnings.isEmpty)
        #expect(roster.athletes.map(\.name) == ["Ada Quick"])
        #expect(roster.nextId == "athlete-0003", "runs on the card still name athlete-0002")
        #expect(roster.find("Ben Swift") == nil)
    }

    @Test func aTornLastLineIsSkippedAndSaid() {
        let good = AthletesFile.line(athlete(1, "Ada Quick"), timestamp: 1)
        let torn = String(AthletesFile.line(athlete(2, "Ben Swift"), timestamp: 2).prefix(30))
        let (roster, warnings) = AthletesFile.parse(good + "\n" + torn)
        #expect(roster.athletes.map(\.name) == ["Ada Quick"])
        #expect(warnings.count == 1 && warnings[0].hasPrefix("athletes.jsonl line 2: torn last line ignored"), "\(warnings)")
    }

    @Test func aDamagedLineInTheMiddleIsNamedAndTheRestKept() {
        let text = "{\"type\":\"athlete\",\"id\":\"athlete-0001\",\"name\":\"Ada\",\"colour\":\"teal\",\"timestamp\":1}\n"
            + "not json\n" + AthletesFile.line(athlete(2, "Ben Swift"), timestamp: 2) + "\n"
        let (roster, warnings) = AthletesFile.parse(text)
        #expect(roster.athletes.map(\.name) == ["Ben Swift"])
        #expect(warnings.count == 2)
        #expect(warnings[0].contains("line 1") && warnings[0].contains("\"colour\"") && warnings[0].contains("teal"))
        #expect(warnings[1].contains("line 2: not a JSON object"))
    }

    @Test func aNewSeasonIsARecordOfItsOwn() {
        let text = AthletesFile.line(athlete(1, "Ada Quick"), timestamp: 1) + "\n"
            + AthletesFile.seasonLine(name: "2027 indoor", timestamp: 5000) + "\n"
        let (roster, _) = AthletesFile.parse(text)
        #expect(roster.seasonStartMillis == 5000 && roster.seasonName == "2027 indoor")
        #expect(roster.athletes.count == 1)
    }

    @Test func athletesAreFoundByIdNameNicknameOrAUniqueStart() {
        var roster = AthleteRoster()
        var ben = athlete(2, "Ben Swift")
        ben.nickname = "Benny"
        roster.put(athlete(1, "Ada Quick"))
        roster.put(ben)
        roster.put(athlete(3, "Bea Dash"))
        #expect(roster.find("athlete-0001")?.name == "Ada Quick")
        #expect(roster.find("ada quick")?.name == "Ada Quick")
        #expect(roster.find("BENNY")?.name == "Ben Swift")
        #expect(roster.find("ada")?.name == "Ada Quick")
        #expect(roster.find("be") == nil, "Ben and Bea both start so")
        #expect(roster.find("") == nil && roster.find("Cy") == nil)
        #expect(roster.nameTaken("BEN SWIFT") && !roster.nameTaken("Ben Swift", except: "athlete-0002"))
        #expect(roster.byName.map(\.name) == ["Ada Quick", "Bea Dash", "Ben Swift"])
    }

    @Test func badFieldsAreRefusedWithWhatWasExpected() {
        #expect(AthleteFieldCheck.name("Ada Quick") == nil && AthleteFieldCheck.name("Zoë O'Neil-Smith") == nil)
        #expect(AthleteFieldCheck.name("")?.contains("empty") == true)
        #expect(AthleteFieldCheck.name("   ")?.contains("empty") == true)
        #expect(AthleteFieldCheck.name(String(repeating: "a", count: 41))?.contains("at most 40") == true)
        #expect(AthleteFieldCheck.name("Ada\tQuick")?.contains("control character") == true)
        #expect(AthleteFieldCheck.name(" Ada")?.contains("space") == true)
        #expect(AthleteFieldCheck.birthdate("2009-04-17") == nil && AthleteFieldCheck.birthdate("2008-02-29") == nil)
        #expect(AthleteFieldCheck.birthdate("2009-02-29")?.contains("no day of the calendar") == true)
        #expect(AthleteFieldCheck.birthdate("17/04/2009") == "birthdate '17/04/2009': expected a date as YYYY-MM-DD, such as 2009-04-17")
        #expect(AthleteFieldCheck.birthdate("2009-13-01") != nil && AthleteFieldCheck.birthdate("1850-01-01") != nil)
        #expect(AthleteColour(name: "grey") == .gray && AthleteColour(name: "teal") == nil)
        #expect(AthleteGender(name: "f") == .female && AthleteGender(name: "woman") == nil)
        #expect(AthleteColour.forNewAthlete(number: 1) == .red && AthleteColour.forNewAthlete(number: 9) == .red)
    }
}

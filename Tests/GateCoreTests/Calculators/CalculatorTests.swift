import Testing
@testable import GateCore

/// The calculators against what their sources publish.
@Suite struct WindCorrectionTests {
    /// Moinat et al. (2018), abstract: a +2.0 m/s tailwind is worth 0.140 s over 200 m.
    @Test func twoMetresPerSecondIsWorth140MillisecondsOver200m() {
        #expect((WindCorrection.effect(.m200, seconds: 20.5, wind: 2) - 0.140).magnitude < 1e-9)
        #expect((WindCorrection.stillAir(.m200, seconds: 20.00, wind: 2) - 20.14).magnitude < 1e-9)
    }

    /// Their abstract: a 13 s 100 m runner gains 69% more from +2.0 m/s than a 10 s one.
    @Test func slowerRunnersGain69PercentMoreOver100m() {
        let slow = WindCorrection.effect(.m100, seconds: 13, wind: 2), fast = WindCorrection.effect(.m100, seconds: 10, wind: 2)
        #expect(((slow / fast - 1) * 100).rounded() == 69)
        #expect((fast - 0.0826).magnitude < 0.0001)
    }

    @Test func aHeadwindCostsAndNoWindIsNeutral() {
        #expect(WindCorrection.stillAir(.m100, seconds: 10.5, wind: 0) == 10.5)
        #expect(WindCorrection.stillAir(.m100, seconds: 10.5, wind: -1.5) < 10.5)
        #expect(WindCorrection.stillAir(.m200, seconds: 21, wind: -1) < 21)
    }

    @Test func inWindUndoesStillAir() {
        for (t, w) in [(10.0, 2.0), (12.3, -1.8), (9.8, 0.9)] {
            let still = WindCorrection.stillAir(.m100, seconds: t, wind: w)
            #expect((WindCorrection.inWind(.m100, stillAirSeconds: still, wind: w) - t).magnitude < 1e-6)
        }
    }
}

@Suite struct SprintEquivalentsTests {
    /// Rows of the WA Scoring Tables (2022 edition).
    @Test(arguments: [
        (SprintEquivalents.Event.m100, SprintEquivalents.Sex.men, 11.15, 842),
        (.m200, .men, 22.62, 842),
        (.m60, .men, 7.19, 845),
        (.m100, .women, 12.78, 843),
        (.m200, .women, 26.12, 842),
        (.m60, .women, 8.18, 843),
        (.m100, .men, 9.58, 1356),
    ])
    func scoresAsTheTables(event: SprintEquivalents.Event, sex: SprintEquivalents.Sex, seconds: Double, points: Int) throws {
        #expect(Int(try #require(SprintEquivalents.points(event, sex, seconds: seconds))) == points)
    }

    @Test func convertsBetweenEventsThatScoreAlike() throws {
        #expect(try #require(SprintEquivalents.convert(11.15, from: .m100, to: .m200, sex: .men)).rounded(toPlaces: 2) == 22.62)
        #expect(try #require(SprintEquivalents.convert(11.15, from: .m100, to: .m60, sex: .men)).rounded(toPlaces: 2) == 7.19)
        #expect(try #require(SprintEquivalents.convert(8.18, from: .m60, to: .m100, sex: .women)).rounded(toPlaces: 2) == 12.78)
        let there = try #require(SprintEquivalents.convert(10.4, from: .m100, to: .m200, sex: .men))
        let back = try #require(SprintEquivalents.convert(there, from: .m200, to: .m100, sex: .men))
        #expect((back - 10.4).magnitude < 1e-9)
    }

    @Test func timesBeyondTheTablesAreRefused() {
        #expect(SprintEquivalents.points(.m100, .men, seconds: 17.5) == nil)
        #expect(SprintEquivalents.points(.m60, .women, seconds: 0) == nil)
        #expect(SprintEquivalents.zeroPointsSeconds(.m200, .men) == 35.5)
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}

import Testing
@testable import GateCore

@Suite struct PresetsTests {
    @Test func theTableIsSeed000sThirteenRowsInOrder() {
        #expect(Preset.all.map { $0.id } == ["10m", "20m", "30m", "60m", "100m", "practice", "flying-10m", "flying-30m",
                                             "flying", "takeoff-velocity", "5-10-5", "l-drill", "40yd"])
        #expect(Set(Preset.all.map { $0.id }).count == 13, "ids are unique")
        let rows = Preset.all.map { p in
            [p.name, p.distanceText, p.startTypes.map { $0.name }.joined(separator: "/"),
             String(p.minDevices) + (p.maxDevices > p.minDevices ? "-" + String(p.maxDevices) : ""), p.category.name]
        }
        #expect(rows[0] == ["10m Acceleration", "10 m", "touch-release/voice/countdown", "2", "Acceleration"])
        #expect(rows[4] == ["100m Sprint", "100 m", "touch-release/voice/countdown", "2-4", "Acceleration"])
        #expect(rows[5] == ["Solo Mode", "variable", "flying", "1", "Acceleration"])
        #expect(rows[8] == ["Flying Sprint", "10/20/30 m", "flying", "2", "Max Speed"])
        #expect(rows[9] == ["Take Off Velocity", "5 m", "flying", "2", "Max Speed"])
        #expect(rows[10] == ["Pro Agility (5-10-5)", "20 yd (18.29 m)", "in-frame", "1", "Agility"])
        #expect(rows[11] == ["L-Drill (3-Cone)", "30 yd (27.43 m)", "in-frame", "1", "Agility"])
        #expect(rows[12] == ["40 Yard Dash", "40 yd (36.58 m)", "touch-release/voice/countdown", "2", "Combine"])
    }

    @Test func yardsAreYardsAndMetresExactly() throws {
        let dash = try #require(Preset.named("40yd"))
        #expect(dash.yards == 40 && (dash.metres! - 36.576).magnitude < 1e-9)
        #expect(dash.gates(boxes: 2) == [0, 40 * 0.9144])
        #expect(Preset.named("40 yd") == nil && Preset.named("") == nil)
    }

    @Test func gatesFillSplitsInOrderAsBoxesAreAdded() throws {
        let hundred = try #require(Preset.named("100m"))
        #expect(hundred.gates(boxes: 1) == [0, 100], "fewer boxes than the preset takes: its fewest")
        #expect(hundred.gates(boxes: 2) == [0, 100])
        #expect(hundred.gates(boxes: 3) == [0, 30, 100])
        #expect(hundred.gates(boxes: 4) == [0, 30, 60, 100])
        #expect(hundred.gates(boxes: 9) == [0, 30, 60, 100], "more boxes than it takes: its most")
        #expect(Preset.named("flying")!.gates(boxes: 2, finish: 20) == [0, 20])
        #expect(Preset.named("practice")!.gates(boxes: 1) == [0])
    }

    @Test func nextCyclesThroughEveryPresetAndWraps() {
        var p = Preset.all[0]
        var seen: [String] = []
        for _ in 0..<13 { seen.append(p.id); p = p.next }
        #expect(seen == Preset.all.map { $0.id })
        #expect(p == Preset.all[0])
    }

    @Test func aBoxAloneRefusesFlyingPresetsAndNamesMissingSplits() throws {
        for id in ["flying-10m", "flying-30m", "flying", "takeoff-velocity"] {
            let refusal = try #require(PresetAlone.refusal(Preset.named(id)!))
            #expect(refusal.hasPrefix("preset " + id + " times the ") && refusal.contains("needs 2 boxes"))
        }
        for id in ["10m", "20m", "30m", "60m", "100m", "practice", "5-10-5", "l-drill", "40yd"] {
            #expect(PresetAlone.refusal(Preset.named(id)!) == nil, "\(id): a box alone times it")
        }
        #expect(PresetAlone.missing(Preset.named("100m")!, startType: .touchRelease)
                == "the split gates at 30 m and 60 m need more boxes (race = host, up to 4); this box at the finish times the 100 m from the start")
        #expect(PresetAlone.missing(Preset.named("10m")!, startType: .touchRelease) == nil)
        let called = try #require(PresetAlone.missing(Preset.named("40yd")!, startType: .voice))
        #expect(called.contains("reaches the athlete 107 ms after GO"))
    }
}

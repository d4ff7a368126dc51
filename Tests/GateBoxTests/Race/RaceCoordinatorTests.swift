import Testing
@testable import GateCore
import GateProtocol
@testable import GateBox

/// Races of boxes driven by scripted calls on coordinators wired to each other.
@Suite struct RaceCoordinatorTests {
    static let twoGates = try! RacePlan(finishMetres: 30)
    /// The finish box's clock runs 2.5 s (and a bit) ahead of the host's.
    static let ahead: Int64 = 2_500_123_457

    static func twoBoxes(settings: RaceSettings = RaceSettings()) -> RaceRig {
        RaceRig(plan: twoGates, roles: [.start, .finish], clockAhead: [0, ahead], settings: settings)
    }

    /// A prediction with a fitted drift rate is carried to the crossing's own
    /// instant: 20 ppm over the 10 s between the prediction and the finish.
    @Test func thePeersOffsetFollowsItsDriftLineToTheCrossing() throws {
        var rig = Self.twoBoxes()
        rig.armAll()
        let syncedAt = rig.clock(0)
        let p = RaceRig.prediction(offset: Self.ahead, driftPpm: 20)
        rig.apply(rig.boxes[0].syncChanged(peer: 0, canTime: true, reason: "", prediction: p, now: syncedAt), from: 0)
        let start = syncedAt + 6_000_000_000
        rig.cross(0, atHostNanos: start, uncertaintyMs: 0.4)
        let finishHost = start + 4_000_000_000   // 10 s after the prediction
        let finishLocal = finishHost + Self.ahead + 200_000   // the peer's clock gained 20 ppm x 10 s
        rig.apply(rig.boxes[1].localCrossing(LocalCrossing(timeNanos: finishLocal, frameIndex: 1, interpolationOffsetMs: 0,
                                                           uncertaintyMs: 0.5, occupancyAtTrigger: 0.4, speedMps: 7.5),
                                             now: rig.clock(1)), from: 1)
        let host = try #require(rig.records[0].first)
        // Offset at the finish: 2.5 s + 200 us (to the nanosecond, less the
        // few the first guess of the finish's host instant shifts).
        #expect(abs(host.clockOffsetNanos - (Self.ahead + 200_000)) < 10)
        #expect(abs(host.splitTimeMs - 4000) < 1e-5)
    }

    @Test func aTwoBoxFlyingRaceSplitsFinishMinusOffsetMinusStart() throws {
        var rig = Self.twoBoxes()
        rig.armAll()
        #expect(rig.boxes[0].state == .waitingForCrossing)
        #expect(rig.boxes[1].state == .waitingForCrossing)
        #expect(rig.boxes[1].role == .finish && rig.boxes[1].gateIndex == 1)
        #expect(rig.sent("arm_gates", from: 0) == [.armGates(ArmGates(runNumber: 1))])

        let start: Int64 = 20_000_000_017
        rig.cross(0, atHostNanos: start, uncertaintyMs: 0.4)
        #expect(rig.boxes[0].state == .running(startNanos: start))
        #expect(rig.boxes[1].state == .running(startNanos: start))
        let finishLocal = start + 3_482_000_000 + Self.ahead
        rig.apply(rig.boxes[1].localCrossing(LocalCrossing(timeNanos: finishLocal, frameIndex: 418, interpolationOffsetMs: 0.2,
                                                           uncertaintyMs: 0.5, occupancyAtTrigger: 0.4, speedMps: 8.6),
                                             now: rig.clock(1)), from: 1)

        // The crossing_event carries the finish box's own stamp and no offset.
        let events = rig.sent("crossing_event", from: 1)
        #expect(events == [.crossingEvent(CrossingEvent(role: .finish, crossingTimeNanos: finishLocal, clockOffsetNanos: 0,
                                                        frameIndex: 418, occupancyAtTrigger: 0.4, interpolationOffsetMs: 0.2,
                                                        uncertaintyMs: 0.5))])
        #expect(rig.boxes[1].outbox.isEmpty, "acknowledged")
        #expect(rig.boxes[0].state == .finished && rig.boxes[1].state == .finished)

        let host = try #require(rig.records[0].first)
        #expect(rig.records[0].count == 1 && rig.records[1].count == 1)
        #expect(host.splitTimeMs == Double(finishLocal - Self.ahead - start) / 1e6)
        #expect(host.splitTimeMs == 3482)
        #expect(host.startTimeNanos == start && host.finishTimeNanos == finishLocal - Self.ahead)
        #expect(host.clockOffsetNanos == Self.ahead)
        #expect(host.budget == SplitBudget(startDetectionMs: 0.4, finishDetectionMs: 0.5, syncMs: 0.3, driftMs: 0.1))
        #expect(abs(host.totalUncertaintyMs - (0.16 + 0.25 + 0.09 + 0.01).squareRoot()) < 1e-12)
        // The finish box records the same run from the broadcast.
        var peer = rig.records[1][0]
        #expect(peer.deviceId == "def-789")
        peer.deviceId = host.deviceId
        #expect(peer == host)
        #expect(rig.said[0].contains("race: run 1: 3.482 s (30 m, 8.62 m/s) +-0.7 ms"))
        #expect(rig.said[1].contains("race: run 1: 3.482 s (30 m, 8.62 m/s) +-0.7 ms"))
        #expect(rig.said[0].contains("race: finish gate (box def-789) joined at 30 m"))
        #expect(rig.indications[0].contains(.runFinished) && rig.indications[1].contains(.runFinished))

        let line = host.jsonLine()
        #expect(line.hasPrefix(#"{"type":"race_run","sessionId":"sess-456","deviceId":"abc-123","runId":"run-001","runNumber":1,"startType":"flying","gates":2,"gate0Role":"start","gate0DistanceM":0.000,"gate0CrossingTimeNanos":20000000017,"gate0ClockOffsetNanos":0,"gate0UncertaintyMs":0.400,"gate1Role":"finish","gate1DistanceM":30.000,"#))
        #expect(line.contains(#""gate1ClockOffsetNanos":2500123457,"#))
        #expect(line.contains(#""splitTimeMs":3482.000,"startTimeNanos":20000000017,"finishTimeNanos":23482000017,"#))
        #expect(line.contains(#""clockOffsetNanos":2500123457,"split1Ms":3482.000,"cumulative1Ms":3482.000,"speed1Mps":8.616,"#))
        #expect(line.hasSuffix(#""startDetectionMs":0.400,"finishDetectionMs":0.500,"syncMs":0.300,"driftMs":0.100}"#))

        // The host resets every box and arms run 2 after the re-arm delay.
        #expect(rig.sent("reset_for_next_run", from: 0).isEmpty)
        #expect(rig.boxes[0].nextDueNanos! <= rig.now + 2_000_000_000)
        rig.advance(to: rig.now + 3_000_000_000)
        #expect(rig.sent("reset_for_next_run", from: 0) == [.resetForNextRun(ResetForNextRun(keepCalibration: true))])
        #expect(rig.boxes[0].state == .waitingForCrossing && rig.boxes[1].state == .waitingForCrossing)
        #expect(rig.sent("arm_gates", from: 0).last == .armGates(ArmGates(runNumber: 2)))
        #expect(rig.boxes[1].runNumber == 2)
    }

    /// 100 m with splits at 30 and 60 m, each box's clock elsewhere.
    @Test func aFourBoxHundredMetresHasThreeSegmentsAndSpeeds() throws {
        let plan = try RacePlan(finishMetres: 100, splits: [30, 60])
        let ahead: [Int64] = [0, -7_000_000_003, 2_500_000_011, 91_000_000_000]
        var rig = RaceRig(plan: plan, roles: [.start, .lap, .lap, .finish], clockAhead: ahead)
        rig.armAll()
        #expect(rig.boxes.map { $0.gateIndex } == [0, 1, 2, 3])
        #expect(rig.said[0].contains("race: lap gate (box ghi-456) joined at 60 m"))
        #expect(rig.boxes[0].state == .waitingForCrossing)

        let t0: Int64 = 50_000_000_000
        let marks: [Int64] = [0, 4_100_000_000, 7_600_000_000, 11_850_000_000]
        for b in 0..<4 { rig.cross(b, atHostNanos: t0 + marks[b], uncertaintyMs: 0.5) }

        let record = try #require(rig.records[0].first)
        #expect(rig.records.allSatisfy { $0.count == 1 })
        #expect(record.segments.map { $0.splitNanos } == [4_100_000_000, 3_500_000_000, 4_250_000_000])
        #expect(record.segments.map { $0.cumulativeSplitNanos } == [4_100_000_000, 7_600_000_000, 11_850_000_000])
        #expect(record.splitTimeMs == 11_850)
        let speeds = record.segments.map { record.speedMps(of: $0)! }
        #expect(abs(speeds[0] - 30 / 4.1) < 1e-9 && abs(speeds[1] - 30 / 3.5) < 1e-9 && abs(speeds[2] - 40 / 4.25) < 1e-9)
        #expect(record.gates.map { $0.clockOffsetNanos } == ahead)
        // The start is the host's own clock: only the finish box's sync counts.
        #expect(record.budget == SplitBudget(startDetectionMs: 0.5, finishDetectionMs: 0.5, syncMs: 0.3, driftMs: 0.1))
        #expect(record.segments.count == 3)
        let line = record.jsonLine()
        #expect(line.contains(#""split2Ms":3500.000,"cumulative2Ms":7600.000,"speed2Mps":8.571,"#))
        #expect(line.contains(#""split3Ms":4250.000,"cumulative3Ms":11850.000,"speed3Mps":9.412,"#))
        #expect(rig.said[3].contains("race: run 1: 11.850 s (100 m, 8.44 m/s) +-0.8 ms; splits 4.100 (7.32 m/s) / 3.500 (8.57 m/s) / 4.250 (9.41 m/s)"))
        for b in 1..<4 { #expect(rig.records[b][0].segments == record.segments) }
    }

    @Test func aCrossingMadeWhileTheLinkIsDownCountsOnceWhenItReturns() throws {
        var rig = Self.twoBoxes()
        rig.armAll()
        let start: Int64 = 20_000_000_000
        rig.cross(0, atHostNanos: start)
        rig.linkUp[1] = false                       // the radio dropped; nobody noticed yet
        rig.cross(1, atHostNanos: start + 4_000_000_000)
        #expect(rig.boxes[1].outbox.count == 1)
        #expect(rig.records[0].isEmpty)
        #expect(rig.boxes[0].state == .running(startNanos: start))
        rig.disconnect(1)
        #expect(rig.boxes[0].state == .running(startNanos: start), "a lost link does not end the run")

        // Back, but the host's acknowledgement is lost on the way.
        rig.now += 10_000_000_000
        rig.dropNextAck = true
        rig.connect(1)
        #expect(rig.said[0].contains("race: finish gate (box def-789) rejoined at 30 m"))
        #expect(rig.records[0].count == 1 && rig.records[1].count == 1)
        #expect(rig.records[0][0].splitTimeMs == 4000)
        #expect(rig.boxes[1].outbox.count == 1, "no ack came")

        // Again: the host counts nothing twice, and this time the ack arrives.
        rig.disconnect(1)
        rig.connect(1)
        #expect(rig.dropped.filter { $0.payload.type == "crossing_event" }.count == 1)
        #expect(rig.sent("crossing_event", from: 1).count == 2)
        #expect(rig.sent("crossing_ack", from: 0).count == 1, "and one dropped before")
        #expect(rig.boxes[1].outbox.isEmpty)
        #expect(rig.records[0].count == 1 && rig.records[1].count == 1)
        #expect(rig.sent("split_time_calculated", from: 0).count == 1)
    }

    /// Seed 002 section 7.1: what the host sent while a box was away
    /// reaches it when it rejoins, once; a box that heard it keeps nothing.
    @Test func aResultSentWhileABoxWasAwayReachesItOnceWhenItRejoins() throws {
        let plan = try RacePlan(finishMetres: 60, splits: [30])
        var rig = RaceRig(plan: plan, roles: [.start, .lap, .finish], clockAhead: [0, 3, 5])
        rig.armAll()
        let t0: Int64 = 50_000_000_000
        rig.cross(0, atHostNanos: t0)
        rig.cross(1, atHostNanos: t0 + 4_000_000_000)
        rig.disconnect(1)                           // the lap box walks off after its crossing
        rig.cross(2, atHostNanos: t0 + 7_500_000_000)
        #expect(rig.records[0].count == 1 && rig.records[2].count == 1)
        #expect(rig.records[1].isEmpty, "away when the result went out")

        rig.now += 30_000_000_000
        rig.connect(1)
        #expect(rig.said[0].contains("race: 1 result kept while box def-789 was away sent to it"))
        #expect(rig.records[1].count == 1)
        #expect(rig.records[1].first?.splitTimeMs == 7_500)
        #expect(rig.boxes[1].state == .finished, "its run 1 is over; the next arm_gates starts run 2")

        // Away and back again: nothing is sent twice.
        rig.disconnect(1)
        rig.connect(1)
        #expect(rig.records[1].count == 1)
        #expect(rig.records[2].count == 1, "the finish box was there all along")
        #expect(rig.sent("split_time_calculated", from: 0).count == 2)
    }

    @Test func aRejoiningBoxKeepsItsRoleAndAStrangerFindsTheSessionFull() throws {
        let plan = try RacePlan(finishMetres: 60, splits: [30])
        var rig = RaceRig(plan: plan, roles: [.start, .finish, .lap, .finish], clockAhead: [0, 5, 7, 9])
        rig.connect(1)
        rig.connect(2)
        #expect(rig.boxes[1].role == .finish && rig.boxes[1].gateIndex == 2)
        #expect(rig.boxes[2].role == .lap && rig.boxes[2].gateIndex == 1)
        #expect(rig.boxes[0].state == .syncing)
        let accepted = rig.sent("session_join_accepted", from: 0)
        #expect(accepted.last == .sessionJoinAccepted(SessionJoinAccepted(
            sessionId: "sess-456", assignedRole: .lap, distanceFromStart: 30,
            devices: [SessionDevice(deviceId: "abc-123", role: .start, name: "box 0"),
                      SessionDevice(deviceId: "ghi-456", role: .lap, name: "box 2", distanceFromStart: 30),
                      SessionDevice(deviceId: "def-789", role: .finish, name: "box 1")],
            gateIndex: 1)))

        rig.disconnect(1)
        #expect(rig.boxes[0].state == .connecting)
        rig.connect(3)                              // another box asks for the finish
        #expect(rig.sent("error", from: 0).last == .error(ErrorReport(code: "SESSION_FULL", message: "every gate of the race has a box")))
        #expect(rig.boxes[3].role == .finish && rig.boxes[3].gateIndex == nil)
        #expect(rig.boxes[3].state == .connecting)
        #expect(rig.said[0].contains("race: box jkl-012 refused: every gate already has a box"))

        rig.connect(1)
        #expect(rig.boxes[1].role == .finish && rig.boxes[1].gateIndex == 2)
        #expect(rig.said[0].contains("race: finish gate (box def-789) rejoined at 60 m"))
        #expect(rig.boxes[0].state == .syncing)
    }

    @Test func aJoinForAnotherSessionIsRefused() {
        var rig = RaceRig(plan: Self.twoGates, roles: [.start, .finish], clockAhead: [0, 0], sessionIds: ["sess-456", "sess-999"])
        rig.connect(1)
        #expect(rig.sent("error", from: 0) == [.error(ErrorReport(code: "WRONG_SESSION", message: "this box hosts session sess-456, not sess-999"))])
        #expect(rig.said[0].contains("race: box def-789 asked to join session sess-999; refused, this is sess-456"))
        #expect(rig.sent("session_join_accepted", from: 0).isEmpty)
        #expect(rig.boxes[0].state == .connecting && rig.boxes[1].state == .connecting)
        #expect(rig.boxes[1].gateIndex == nil)
    }

    /// Seed 002 section 8: a message from an older session, replayed on a
    /// link that has joined since, is refused and said; one dated a little
    /// before the join (a clock set while running) is not.
    @Test func aMessageDatedWellBeforeItsLinksJoinIsRefusedAsAReplay() {
        var rig = Self.twoBoxes()
        rig.armAll()
        let armed = rig.boxes[0].state
        let joined = rig.millis(1)
        rig.now += 5_000_000_000
        let replay = TimingMessage(timestamp: joined - 60_000, deviceId: "def-789",
                                   payload: .gateNotReady(GateNotReady(role: .finish, reason: "tripod_moved")))
        let effects = rig.boxes[0].received(replay, from: 0, now: rig.clock(0))
        #expect(effects == [.say("race: a gate_not_ready from box def-789 dated 60 s before its join refused (a replay?)")])
        #expect(rig.boxes[0].refusedReplays == 1)
        #expect(rig.boxes[0].state == armed)

        // The joiner refuses the host's old messages the same way.
        let old = TimingMessage(timestamp: rig.millis(0) - 120_000, deviceId: "abc-123",
                                payload: .heartbeat(Heartbeat(state: .armed, thermalState: .nominal)))
        #expect(rig.boxes[1].received(old, from: 0, now: rig.clock(1)).count == 1)
        #expect(rig.boxes[1].refusedReplays == 1)

        // Within the window: taken as sent.
        var late = replay
        late.timestamp = joined - 10_000
        _ = rig.boxes[0].received(late, from: 0, now: rig.clock(0))
        #expect(rig.boxes[0].refusedReplays == 1)
        #expect(rig.boxes[0].state != armed, "the gate's not-ready was heard")
    }

    @Test func heartbeatsFlowAndASilentPeerIsLost() {
        var rig = Self.twoBoxes()
        rig.armAll()
        let t = rig.now
        #expect(rig.boxes[0].nextDueNanos == t + 2_000_000_000)
        rig.advance(to: t + 2_000_000_000)
        rig.advance(to: t + 4_000_000_000)
        #expect(rig.sent("heartbeat", from: 0) == [.heartbeat(Heartbeat(state: .armed, thermalState: .nominal)),
                                                 .heartbeat(Heartbeat(state: .armed, thermalState: .nominal))])
        #expect(rig.sent("heartbeat", from: 1).count == 2)
        #expect(!rig.indications[0].contains(.peerLost))

        rig.linkUp[1] = false                       // silence both ways from here
        let lastHeard = t + 4_000_000_000
        rig.advance(to: lastHeard + 5_999_999_999)
        #expect(!rig.indications[0].contains(.peerLost))
        rig.advance(to: lastHeard + 6_000_000_000)
        #expect(rig.said[0].contains("race: box def-789 silent for 6 s: link lost; its crossings will be counted when it is back"))
        #expect(rig.indications[0].last == .peerLost)
        #expect(rig.said[1].contains("race: the host silent for 6 s: link lost; this box's crossings are kept until it is back"))
        #expect(rig.indications[1].last == .peerLost)
        #expect(rig.boxes[0].nextDueNanos == nil)
        #expect(rig.boxes[0].state == .waitingForCrossing, "an armed run stays armed")
    }

    /// Arming needs every gate to have a box, every peer to time, every gate ready.
    @Test(arguments: [
        (connect: false, sync: true, ready: true, state: RaceState.connecting),
        (connect: true, sync: false, ready: true, state: .syncing),
        (connect: true, sync: true, ready: false, state: .ready),
        (connect: true, sync: true, ready: true, state: .waitingForCrossing),
    ])
    func armsOnlyWhenEveryGateIsReadyAndEveryPeerCanTime(connect: Bool, sync: Bool, ready: Bool, state: RaceState) throws {
        let plan = try RacePlan(finishMetres: 60, splits: [30])
        var rig = RaceRig(plan: plan, roles: [.start, .lap, .finish], clockAhead: [0, 11, 22])
        rig.connect(1)
        if connect { rig.connect(2) }
        rig.sync(1)
        if sync && connect { rig.sync(2) }
        rig.ready(0)
        rig.ready(1)
        if ready && connect { rig.ready(2) }
        #expect(rig.boxes[0].state == state)
        #expect(rig.sent("arm_gates", from: 0).isEmpty == (state != .waitingForCrossing))
    }

    @Test func syncFallingBelowFairRefusesTimingAndDisarms() {
        var rig = Self.twoBoxes()
        rig.armAll()
        #expect(rig.boxes[0].state == .waitingForCrossing)
        rig.sync(1, canTime: false, uncertaintyMs: 12)
        var details = JSONObject()
        details.append("lastUncertaintyMs", .double(12.1))
        details.append("requiredMs", .double(10))
        #expect(rig.sent("error", from: 0) == [.error(ErrorReport(
            code: "CLOCK_SYNC_FAILED", message: "Unable to achieve acceptable clock sync quality: clock sync poor: +-12.0 ms",
            details: details))])
        #expect(rig.boxes[0].state == .syncing && rig.boxes[1].state == .syncing)
        #expect(rig.indications[0].last == .syncTooPoor && rig.indications[1].last == .syncTooPoor)
        #expect(rig.said[0].contains { $0.hasPrefix("race: clock sync with box def-789 too poor to time") })
        rig.cross(0, atHostNanos: 30_000_000_000)
        #expect(rig.boxes[0].state == .syncing, "not armed: the crossing is ignored")

        rig.sync(1)
        // Every gate stayed ready: armed again as soon as the sync recovers.
        #expect(rig.boxes[0].state == .waitingForCrossing && rig.boxes[1].state == .waitingForCrossing)
        #expect(rig.sent("arm_gates", from: 0).last == .armGates(ArmGates(runNumber: 1)))
    }

    @Test func aTouchReleaseAtTheStartBoxStartsTheRun() throws {
        let plan = try RacePlan(finishMetres: 30, startType: .touchRelease)
        var settings = RaceSettings()
        settings.rearmDelayNanos = 0
        var rig = RaceRig(plan: plan, roles: [.start, .finish], clockAhead: [0, Self.ahead], settings: settings)
        rig.armAll()
        // Walking up to the line through the start gate starts nothing.
        rig.cross(0, atHostNanos: 30_000_000_000)
        #expect(rig.boxes[0].state == .waitingForCrossing)
        let release: Int64 = 40_000_000_001
        rig.apply(rig.boxes[0].localStart(atNanos: release, source: "gpio-edge", now: rig.clock(0)), from: 0)
        #expect(rig.boxes[0].state == .running(startNanos: release))
        #expect(rig.boxes[1].state == .running(startNanos: release))
        // The athlete then passes the start box's camera: not a second start.
        rig.cross(0, atHostNanos: release + 300_000_000)
        #expect(rig.said[0].filter { $0 == "race: a crossing at the start gate of a touch-release race is not its start; ignored" }.count == 2)
        rig.cross(1, atHostNanos: release + 4_250_000_000, uncertaintyMs: 0.5)
        let record = try #require(rig.records[0].first)
        #expect(record.startType == "touchRelease")
        #expect(record.splitTimeMs == 4250)
        #expect(record.startTimeNanos == release && record.budget.startDetectionMs == 0)
        #expect(rig.records[1].first?.splitTimeMs == 4250)
        // No re-arm delay: run 2 is armed at once.
        #expect(rig.boxes[0].state == .waitingForCrossing && rig.boxes[0].runNumber == 2)
        #expect(rig.boxes[1].state == .waitingForCrossing)
    }

    @Test func plansAreValidated() {
        #expect(throws: RacePlanError.gateCount(1)) { try RacePlan(gates: [PlannedGate(role: .start, distanceMetres: 0)]) }
        #expect(throws: RacePlanError.startNotFirst) {
            try RacePlan(gates: [PlannedGate(role: .start, distanceMetres: 5), PlannedGate(role: .finish, distanceMetres: 30)])
        }
        #expect(throws: RacePlanError.notALapGate(index: 1)) {
            try RacePlan(gates: [PlannedGate(role: .start, distanceMetres: 0), PlannedGate(role: .finish, distanceMetres: 10),
                                 PlannedGate(role: .finish, distanceMetres: 30)])
        }
        #expect(throws: RacePlanError.distanceNotIncreasing(index: 2)) { try RacePlan(finishMetres: 30, splits: [30]) }
        #expect(throws: RacePlanError.gateCount(5)) { try RacePlan(finishMetres: 100, splits: [20, 40, 60]) }
    }
}

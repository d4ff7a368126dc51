import Testing
@testable import GateProtocol

/// The box's extensions for races of boxes: crossing_ack, and optional
/// members of session_join, session_join_accepted, capabilities and
/// split_time_calculated. Each reads back what is written, and a message
/// without them reads as before.
@Suite struct RaceMessageTests {
    @Test func crossingAckRoundTrips() throws {
        let message = TimingMessage(timestamp: 1_706_000_100_500, deviceId: "abc-123",
                                    payload: .crossingAck(CrossingAck(role: .finish, crossingTimeNanos: 1_706_000_100_123_456_789)))
        let text = message.encodedText()
        #expect(text == #"{"type":"crossing_ack","timestamp":1706000100500,"deviceId":"abc-123","payload":{"role":"finish","crossingTimeNanos":1706000100123456789}}"#)
        #expect(try TimingMessage.decode(text) == message)
    }

    @Test func crossingAckWithoutItsStampIsRefused() {
        #expect(throws: MessageDecodeError.self) {
            try TimingMessage.decode(#"{"type":"crossing_ack","timestamp":1,"deviceId":"a","payload":{"role":"finish"}}"#)
        }
    }

    @Test func joinWithNameAndPreciseSyncRoundTrips() throws {
        let join = SessionJoin(sessionId: "sess-456", requestedRole: .finish,
                               version: PeerVersionInfo(protocolVersion: "1.0", platform: "ts-gate"),
                               capabilities: Capabilities(binaryClockSync: true, multiGate: true, preciseClockSync: true),
                               name: "box B")
        let message = TimingMessage(timestamp: 1, deviceId: "def-789", payload: .sessionJoin(join))
        let text = message.encodedText()
        #expect(text.contains(#""capabilities":{"binaryClockSync":true,"multiGate":true,"preciseClockSync":true},"name":"box B""#))
        #expect(try TimingMessage.decode(text) == message)
    }

    @Test func acceptedWithGateIndexRoundTrips() throws {
        let accepted = SessionJoinAccepted(sessionId: "sess-456", assignedRole: .lap, distanceFromStart: 30,
                                           devices: [SessionDevice(deviceId: "abc-123", role: .start, name: "A"),
                                                     SessionDevice(deviceId: "def-789", role: .lap, name: "B", distanceFromStart: 30)],
                                           gateIndex: 1)
        let message = TimingMessage(timestamp: 1, deviceId: "abc-123", payload: .sessionJoinAccepted(accepted))
        #expect(message.encodedText().hasSuffix(#""distanceFromStart":30.0}],"gateIndex":1}}"#))
        #expect(try TimingMessage.decode(message.encodedText()) == message)
    }

    static let detail = SplitDetail(
        runNumber: 2, startType: "flying",
        gates: [SplitGate(gateIndex: 0, role: .start, distanceFromStart: 0, crossingTimeNanos: 1_000_000_000,
                          clockOffsetNanos: 0, uncertaintyMs: 0.4),
                SplitGate(gateIndex: 1, role: .finish, distanceFromStart: 30, crossingTimeNanos: 6_982_000_000,
                          clockOffsetNanos: 2_500_000_000, uncertaintyMs: 0.5)],
        segments: [SplitSegment(fromGateIndex: 0, toGateIndex: 1, splitNanos: 3_482_000_000, cumulativeSplitNanos: 3_482_000_000)],
        budget: SplitBudget(startDetectionMs: 0.4, finishDetectionMs: 0.5, syncMs: 0.3, driftMs: 0.1))

    @Test func splitWithDetailRoundTripsAndKeepsSeedFieldsFirst() throws {
        let split = SplitTimeCalculated(runId: "run-002", splitTimeMs: 3482, startTimeNanos: 1_000_000_000,
                                        finishTimeNanos: 4_482_000_000, totalUncertaintyMs: 0.72, detail: Self.detail)
        let message = TimingMessage(timestamp: 1, deviceId: "abc-123", payload: .splitTimeCalculated(split))
        let text = message.encodedText()
        #expect(text.hasPrefix(#"{"type":"split_time_calculated","timestamp":1,"deviceId":"abc-123","payload":{"runId":"run-002","splitTimeMs":3482.0,"startTimeNanos":1000000000,"finishTimeNanos":4482000000,"totalUncertaintyMs":0.72,"runNumber":2,"startType":"flying","gates":[{"gateIndex":0,"role":"start""#))
        #expect(text.contains(#""segments":[{"fromGateIndex":0,"toGateIndex":1,"splitNanos":3482000000,"cumulativeSplitNanos":3482000000}]"#))
        #expect(text.hasSuffix(#""uncertaintyBudget":{"startDetectionMs":0.4,"finishDetectionMs":0.5,"syncMs":0.3,"driftMs":0.1}}}"#))
        #expect(try TimingMessage.decode(text) == message)
    }

    @Test func splitWithoutDetailStaysAsTheSeedWritesIt() throws {
        let split = SplitTimeCalculated(runId: "run-001", splitTimeMs: 4827.3, startTimeNanos: 1, finishTimeNanos: 2, totalUncertaintyMs: 2.4)
        let text = TimingMessage(timestamp: 1, deviceId: "a", payload: .splitTimeCalculated(split)).encodedText()
        #expect(text.hasSuffix(#""totalUncertaintyMs":2.4}}"#))
        #expect(try TimingMessage.decode(text).payload == .splitTimeCalculated(split))
    }

    @Test func splitDetailMissingItsBudgetIsRefused() {
        let text = #"{"type":"split_time_calculated","timestamp":1,"deviceId":"a","payload":{"runId":"run-001","splitTimeMs":1.0,"startTimeNanos":1,"finishTimeNanos":2,"totalUncertaintyMs":1.0,"runNumber":1,"startType":"flying","gates":[],"segments":[]}}"#
        #expect(throws: MessageDecodeError.self) { try TimingMessage.decode(text) }
    }
}

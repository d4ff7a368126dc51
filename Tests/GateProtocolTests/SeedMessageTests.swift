import Testing
@testable import GateProtocol

/// Seed 002's examples read to the right fields, and what the box writes
/// reads back the same.
@Suite struct SeedMessageTests {
    static func decode(_ text: String) throws -> TimingMessage {
        try TimingMessage.decode(text)
    }

    @Test(arguments: SeedExamples.all)
    func everyExampleReadsAndRoundTrips(_ text: String) throws {
        let message = try Self.decode(text)
        #expect(message.type != "")
        if case .unknown = message.payload { Issue.record("seed type read as unknown: \(message.type)") }
        let written = message.encodedText()
        #expect(!written.contains("\n") && !written.contains(": ") && !written.contains(", "), "compact output")
        let again = try TimingMessage.decode(written)
        #expect(again == message)
        // Writing is deterministic: the same message gives the same bytes.
        #expect(again.encodedText() == written)
    }

    @Test func sessionCreate() throws {
        let message = try Self.decode(SeedExamples.sessionCreate)
        #expect(message.type == "session_create")
        #expect(message.timestamp == 1_706_000_000_000)
        #expect(message.deviceId == "abc-123")
        #expect(message.payload == .sessionCreate(SessionCreate(
            sessionId: "sess-456", sessionCode: "123456", hostRole: .start,
            settings: SessionSettings(distance: 40, startType: .flying))))
        #expect(message.encodedText() == #"{"type":"session_create","timestamp":1706000000000,"deviceId":"abc-123","payload":{"sessionId":"sess-456","sessionCode":"123456","hostRole":"start","settings":{"distance":40.0,"startType":"flying"}}}"#)
    }

    @Test func sessionJoin() throws {
        let message = try Self.decode(SeedExamples.sessionJoin)
        #expect(message.timestamp == 1_706_000_001_000)
        #expect(message.deviceId == "def-789")
        #expect(message.payload == .sessionJoin(SessionJoin(sessionId: "sess-456", requestedRole: .finish)))
    }

    @Test func sessionJoinAccepted() throws {
        let message = try Self.decode(SeedExamples.sessionJoinAccepted)
        #expect(message.timestamp == 1_706_000_002_000)
        #expect(message.payload == .sessionJoinAccepted(SessionJoinAccepted(
            sessionId: "sess-456", assignedRole: .finish,
            devices: [SessionDevice(deviceId: "abc-123", role: .start, name: "iPhone 15"),
                      SessionDevice(deviceId: "def-789", role: .finish, name: "Pixel 8")])))
    }

    @Test func sessionEnd() throws {
        let message = try Self.decode(SeedExamples.sessionEnd)
        #expect(message.timestamp == 1_706_001_000_000)
        #expect(message.payload == .sessionEnd(SessionEnd(sessionId: "sess-456", reason: .userEnded)))
    }

    @Test func clockSyncPingKeepsNineteenDigitNanoseconds() throws {
        let message = try Self.decode(SeedExamples.clockSyncPing)
        #expect(message.timestamp == 1_706_000_010_000)
        #expect(message.payload == .clockSyncPing(ClockSyncPing(sequence: 1, t1: 1_706_000_010_000_123_456)))
        #expect(message.encodedText().contains(#""t1":1706000010000123456"#))
    }

    @Test func clockSyncPong() throws {
        let message = try Self.decode(SeedExamples.clockSyncPong)
        #expect(message.timestamp == 1_706_000_010_005)
        #expect(message.deviceId == "def-789")
        #expect(message.payload == .clockSyncPong(ClockSyncPong(
            sequence: 1, t1: 1_706_000_010_000_123_456, t2: 1_706_000_010_002_345_678, t3: 1_706_000_010_003_456_789)))
    }

    @Test func clockSyncResult() throws {
        let message = try Self.decode(SeedExamples.clockSyncResult)
        #expect(message.payload == .clockSyncResult(ClockSyncResult(
            offsetNanos: -5_000_000, rttNanos: 10_000_000, uncertaintyMs: 2.5, quality: .good, samplesUsed: 5)))
    }

    @Test func gateCalibrating() throws {
        let message = try Self.decode(SeedExamples.gateCalibrating)
        #expect(message.timestamp == 1_706_000_030_000)
        #expect(message.payload == .gateCalibrating(GateCalibrating(role: .start, progress: 0.5)))
    }

    @Test func gateReady() throws {
        let message = try Self.decode(SeedExamples.gateReady)
        #expect(message.payload == .gateReady(GateReady(role: .start, gatePosition: 0.45, capturedFps: 240)))
    }

    @Test func gateNotReady() throws {
        let message = try Self.decode(SeedExamples.gateNotReady)
        #expect(message.payload == .gateNotReady(GateNotReady(role: .start, reason: "calibration_failed")))
    }

    @Test func crossingEvent() throws {
        let message = try Self.decode(SeedExamples.crossingEvent)
        #expect(message.timestamp == 1_706_000_100_000)
        #expect(message.payload == .crossingEvent(CrossingEvent(
            role: .start, crossingTimeNanos: 1_706_000_100_123_456_789, clockOffsetNanos: -5_000_000, frameIndex: 1234,
            occupancyAtTrigger: 0.42, interpolationOffsetMs: 0.73, uncertaintyMs: 1.2)))
        #expect(message.encodedText() == #"{"type":"crossing_event","timestamp":1706000100000,"deviceId":"abc-123","payload":{"role":"start","crossingTimeNanos":1706000100123456789,"clockOffsetNanos":-5000000,"frameIndex":1234,"occupancyAtTrigger":0.42,"interpolationOffsetMs":0.73,"uncertaintyMs":1.2}}"#)
    }

    @Test func splitTimeCalculated() throws {
        let message = try Self.decode(SeedExamples.splitTimeCalculated)
        #expect(message.payload == .splitTimeCalculated(SplitTimeCalculated(
            runId: "run-001", splitTimeMs: 4827.3, startTimeNanos: 1_706_000_095_123_456_789,
            finishTimeNanos: 1_706_000_100_123_456_789, totalUncertaintyMs: 2.4)))
    }

    @Test func heartbeat() throws {
        let message = try Self.decode(SeedExamples.heartbeat)
        #expect(message.payload == .heartbeat(Heartbeat(state: .armed, batteryLevel: 0.85, thermalState: .nominal)))
    }

    @Test func resetForNextRun() throws {
        let message = try Self.decode(SeedExamples.resetForNextRun)
        #expect(message.payload == .resetForNextRun(ResetForNextRun(keepCalibration: true)))
    }

    @Test func armGates() throws {
        let message = try Self.decode(SeedExamples.armGates)
        #expect(message.timestamp == 1_706_000_400_000)
        #expect(message.payload == .armGates(ArmGates(runNumber: 2)))
    }

    @Test func errorKeepsItsDetails() throws {
        let message = try Self.decode(SeedExamples.error)
        guard case .error(let report) = message.payload else {
            Issue.record("not an error message")
            return
        }
        #expect(report.code == "CLOCK_SYNC_FAILED")
        #expect(report.message == "Unable to achieve acceptable clock sync quality")
        #expect(report.details?["lastUncertaintyMs"] == .number(JSONNumber(validatedText: "25.4")))
        if case .number(let required)? = report.details?["requiredMs"] {
            #expect(required.doubleValue == 10.0)
        } else {
            Issue.record("requiredMs is not a number")
        }
    }
}

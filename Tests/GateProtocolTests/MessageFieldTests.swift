import Testing
@testable import GateProtocol

/// The optional fields of seed 002 section 9, forward compatibility, and the
/// refusals that name the message type and field.
@Suite struct MessageFieldTests {
    @Test func versionAndCapabilitiesTravelWithSessionCreate() throws {
        let text = #"""
        {"type":"session_create","timestamp":1706000000000,"deviceId":"abc-123",
         "payload":{"sessionId":"s","sessionCode":"012345","hostRole":"startLine",
                    "settings":{"startType":"touchRelease"},
                    "protocolVersion":"1.0","appVersion":"1.2.3","platform":"android",
                    "capabilities":{"highSpeedCamera":true,"maxFps":240,"binaryClockSync":true,"multiGate":false,"laser":true}}}
        """#
        let message = try TimingMessage.decode(text)
        let expected = SessionCreate(
            sessionId: "s", sessionCode: "012345", hostRole: .start, settings: SessionSettings(startType: .touchRelease),
            version: PeerVersionInfo(protocolVersion: "1.0", appVersion: "1.2.3", platform: "android"),
            capabilities: Capabilities(highSpeedCamera: true, maxFps: 240, binaryClockSync: true, multiGate: false))
        #expect(message.payload == .sessionCreate(expected))
        #expect(message.encodedText() == #"{"type":"session_create","timestamp":1706000000000,"deviceId":"abc-123","payload":{"sessionId":"s","sessionCode":"012345","hostRole":"start","settings":{"startType":"touchRelease"},"protocolVersion":"1.0","appVersion":"1.2.3","platform":"android","capabilities":{"highSpeedCamera":true,"maxFps":240,"binaryClockSync":true,"multiGate":false}}}"#)
        #expect(try TimingMessage.decode(message.encoded()) == message)
    }

    @Test func sessionJoinCarriesVersionToo() throws {
        let join = SessionJoin(sessionId: "s", requestedRole: .lap,
                               version: PeerVersionInfo(protocolVersion: "1.1", platform: "ts-gate"),
                               capabilities: Capabilities(maxFps: 120))
        let message = TimingMessage(timestamp: 5, deviceId: "box", payload: .sessionJoin(join))
        #expect(message.encodedText() == #"{"type":"session_join","timestamp":5,"deviceId":"box","payload":{"sessionId":"s","requestedRole":"lap","protocolVersion":"1.1","platform":"ts-gate","capabilities":{"maxFps":120}}}"#)
        #expect(try TimingMessage.decode(message.encoded()) == message)
    }

    @Test func aLapGateCarriesItsDistance() throws {
        let accepted = SessionJoinAccepted(
            sessionId: "s", assignedRole: .lap, distanceFromStart: 30,
            devices: [SessionDevice(deviceId: "a", role: .start, name: "A"),
                      SessionDevice(deviceId: "b", role: .lap, name: "B", distanceFromStart: 30),
                      SessionDevice(deviceId: "c", role: .controlOnly, name: "C")])
        let message = TimingMessage(timestamp: 1, deviceId: "a", payload: .sessionJoinAccepted(accepted))
        let text = message.encodedText()
        #expect(text.contains(#"{"deviceId":"b","role":"lap","name":"B","distanceFromStart":30.0}"#))
        #expect(text.contains(#""role":"controlOnly""#))
        #expect(try TimingMessage.decode(text) == message)
    }

    @Test func unknownTypesAreKeptAsUnknown() throws {
        let message = try TimingMessage.decode(#"{"type":"photo_strip","timestamp":3,"deviceId":"x","payload":{"anything":[1,2,{"a":null}]}}"#)
        #expect(message.payload == .unknown(type: "photo_strip"))
        #expect(message.type == "photo_strip")
        let bare = try TimingMessage.decode(#"{"type":"later_thing","timestamp":3,"deviceId":"x"}"#)
        #expect(bare.payload == .unknown(type: "later_thing"))
    }

    @Test func unknownFieldsAndWordsAreIgnoredOrKept() throws {
        let message = try TimingMessage.decode(#"{"type":"heartbeat","timestamp":1,"deviceId":"x","extra":{"deep":[true]},"payload":{"state":"recording","thermalState":"hot","cpu":0.3}}"#)
        #expect(message.payload == .heartbeat(Heartbeat(state: .other("recording"), thermalState: .other("hot"))))
        #expect(message.encodedText() == #"{"type":"heartbeat","timestamp":1,"deviceId":"x","payload":{"state":"recording","thermalState":"hot"}}"#)
    }

    @Test func nullReadsAsAbsent() throws {
        let message = try TimingMessage.decode(#"{"type":"heartbeat","timestamp":1,"deviceId":"x","payload":{"state":"idle","batteryLevel":null,"thermalState":"fair"}}"#)
        #expect(message.payload == .heartbeat(Heartbeat(state: .idle, batteryLevel: nil, thermalState: .fair)))
    }

    // MARK: refusals

    static func refusal(_ text: String) -> MessageDecodeError? {
        do {
            _ = try TimingMessage.decode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingFieldIsNamed() {
        let error = Self.refusal(#"{"type":"crossing_event","timestamp":1,"deviceId":"x","payload":{"role":"start","clockOffsetNanos":0,"frameIndex":1,"occupancyAtTrigger":0.4,"interpolationOffsetMs":0.1,"uncertaintyMs":1}}"#)
        #expect(error == .field(messageType: "crossing_event", field: "payload.crossingTimeNanos", expected: "an integer", found: "missing"))
        #expect(error?.description == "crossing_event: payload.crossingTimeNanos: expected an integer, found missing")
    }

    @Test func aWrongTypeIsNamed() {
        #expect(Self.refusal(#"{"type":"clock_sync_ping","timestamp":1,"deviceId":"x","payload":{"sequence":1,"t1":"1706000010000123456"}}"#)
                == .field(messageType: "clock_sync_ping", field: "payload.t1", expected: "an integer", found: "a string"))
        #expect(Self.refusal(#"{"type":"arm_gates","timestamp":1,"deviceId":"x","payload":{"runNumber":2.5}}"#)
                == .field(messageType: "arm_gates", field: "payload.runNumber", expected: "an integer within 64 bits", found: "the number 2.5"))
        #expect(Self.refusal(#"{"type":"reset_for_next_run","timestamp":1,"deviceId":"x","payload":{"keepCalibration":"yes"}}"#)
                == .field(messageType: "reset_for_next_run", field: "payload.keepCalibration", expected: "true or false", found: "a string"))
        #expect(Self.refusal(#"{"type":"clock_sync_ping","timestamp":1,"deviceId":"x","payload":{"sequence":1,"t1":99999999999999999999}}"#)
                == .field(messageType: "clock_sync_ping", field: "payload.t1", expected: "an integer within 64 bits", found: "the number 99999999999999999999"))
    }

    @Test func nestedFieldsAreNamedByPath() {
        #expect(Self.refusal(#"{"type":"session_create","timestamp":1,"deviceId":"x","payload":{"sessionId":"s","sessionCode":"1","hostRole":"start","settings":{"distance":"40m","startType":"flying"}}}"#)
                == .field(messageType: "session_create", field: "payload.settings.distance", expected: "a number", found: "a string"))
        #expect(Self.refusal(#"{"type":"session_join_accepted","timestamp":1,"deviceId":"x","payload":{"sessionId":"s","assignedRole":"finish","devices":[{"deviceId":"a","role":"start","name":"A"},{"deviceId":"b","role":"judge","name":"B"}]}}"#)
                == .field(messageType: "session_join_accepted", field: "payload.devices[1].role",
                          expected: "one of start, finish, lap, controlOnly", found: "\"judge\""))
        #expect(Self.refusal(#"{"type":"session_join_accepted","timestamp":1,"deviceId":"x","payload":{"sessionId":"s","assignedRole":"finish","devices":[7]}}"#)
                == .field(messageType: "session_join_accepted", field: "payload.devices[0]", expected: "an object", found: "a number"))
    }

    @Test func theEnvelopeIsChecked() {
        #expect(Self.refusal(#"{"timestamp":1,"deviceId":"x","payload":{}}"#)
                == .field(messageType: "", field: "type", expected: "a string", found: "missing"))
        #expect(Self.refusal(#"{"type":"arm_gates","timestamp":"now","deviceId":"x","payload":{"runNumber":1}}"#)
                == .field(messageType: "arm_gates", field: "timestamp", expected: "an integer", found: "a string"))
        #expect(Self.refusal(#"{"type":"arm_gates","timestamp":1,"deviceId":"x"}"#)
                == .field(messageType: "arm_gates", field: "payload", expected: "an object", found: "missing"))
        #expect(Self.refusal(#"{"type":"arm_gates","timestamp":1,"deviceId":"x","payload":[1]}"#)
                == .field(messageType: "arm_gates", field: "payload", expected: "an object", found: "an array"))
        #expect(Self.refusal(#"[1,2]"#) == .field(messageType: "", field: "(message)", expected: "an object", found: "an array"))
    }

    @Test func brokenJSONIsReportedAsJSON() {
        let truncated = String(SeedExamples.crossingEvent.dropLast(20))
        guard case .json(let error)? = Self.refusal(truncated) else {
            Issue.record("truncated message not refused as JSON")
            return
        }
        #expect(error.offset == truncated.utf8.count)
    }

    @Test func nonFiniteNumbersAreWrittenAsNullAndRefusedOnRead() {
        let message = TimingMessage(timestamp: 1, deviceId: "x",
                                    payload: .gateCalibrating(GateCalibrating(role: .finish, progress: .nan)))
        let text = message.encodedText()
        #expect(text.hasSuffix(#""progress":null}}"#))
        #expect(Self.refusal(text) == .field(messageType: "gate_calibrating", field: "payload.progress", expected: "a number", found: "null"))
        #expect(Self.refusal(#"{"type":"gate_calibrating","timestamp":1,"deviceId":"x","payload":{"role":"start","progress":1e999}}"#)
                == .field(messageType: "gate_calibrating", field: "payload.progress", expected: "a number within Double's range", found: "the number 1e999"))
    }
}

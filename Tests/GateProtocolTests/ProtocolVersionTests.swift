import Testing
@testable import GateProtocol

@Suite struct ProtocolVersionTests {
    @Test func parsesMajorDotMinorOnly() {
        #expect(ProtocolVersion(parsing: "1.0") == ProtocolVersion(major: 1, minor: 0))
        #expect(ProtocolVersion(parsing: "2.13") == ProtocolVersion(major: 2, minor: 13))
        for bad in ["1", "1.0.2", "v1.0", "-1.0", "+1.0", "1.x", ".1", "1.", "", "1..0", "1234567890.0", " 1.0"] {
            #expect(ProtocolVersion(parsing: bad) == nil, "\(bad)")
        }
        #expect(ProtocolVersion(major: 1, minor: 10).text == "1.10")
        #expect(ProtocolVersion(major: 1, minor: 9) < ProtocolVersion(major: 1, minor: 10))
        #expect(ProtocolVersion(major: 1, minor: 99) < ProtocolVersion(major: 2, minor: 0))
    }

    @Test func sameMajorAgreesOnTheLowerMinor() {
        let ours = ProtocolVersion(major: 1, minor: 2)
        #expect(ProtocolVersion.negotiate(ours: ours, theirs: "1.0") == .agreed(ProtocolVersion(major: 1, minor: 0)))
        #expect(ProtocolVersion.negotiate(ours: ours, theirs: "1.5") == .agreed(ProtocolVersion(major: 1, minor: 2)))
        #expect(ProtocolVersion.negotiate(ours: ours, theirs: "1.2") == .agreed(ours))
        #expect(ProtocolVersion.negotiate(theirs: "1.0") == .agreed(.current))
    }

    @Test func aPeerWithoutAVersionIsTakenAsOnePointZero() {
        #expect(ProtocolVersion.negotiate(ours: ProtocolVersion(major: 1, minor: 3), theirs: nil)
                == .agreed(ProtocolVersion(major: 1, minor: 0)))
        if case .refused = ProtocolVersion.negotiate(ours: ProtocolVersion(major: 2, minor: 0), theirs: nil) {} else {
            Issue.record("a 2.x box accepted a peer without a version")
        }
    }

    @Test func anotherMajorIsRefusedWithAReason() {
        #expect(ProtocolVersion.negotiate(ours: ProtocolVersion(major: 1, minor: 0), theirs: "2.1")
                == .refused(reason: "the peer speaks protocol 2.1 and this box 1.0: major versions 2 and 1 are incompatible"))
        #expect(ProtocolVersion.negotiate(theirs: "one")
                == .refused(reason: "the peer's protocol version \"one\" is not major.minor"))
    }

    @Test func readsTheVersionFromASessionJoin() throws {
        let message = try TimingMessage.decode(#"{"type":"session_join","timestamp":1,"deviceId":"p","payload":{"sessionId":"s","requestedRole":"finish","protocolVersion":"1.4"}}"#)
        guard case .sessionJoin(let join) = message.payload else {
            Issue.record("not a join")
            return
        }
        #expect(ProtocolVersion.negotiate(theirs: join.version.protocolVersion) == .agreed(ProtocolVersion(major: 1, minor: 0)))
    }
}

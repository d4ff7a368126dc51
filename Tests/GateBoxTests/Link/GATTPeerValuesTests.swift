import Testing
@testable import GateBox
import GateProtocol

/// The GATT station's rule for one peer (seed 002 section 8): reads are
/// open, and until the peer joins, Timing Messages takes only the fragments
/// of a session_join and Clock Sync takes nothing.
@Suite struct GATTPeerValuesTests {
    static let gatt = GateGATTService(deviceName: "ts-gate-0001")

    static func values(joined: Bool = false) -> GATTPeerValues {
        var v = GATTPeerValues(timingMessages: gatt.timingMessages, deviceInfoID: gatt.deviceInfo, clockSync: gatt.clockSync,
                               deviceInfo: Array("{\"deviceId\":\"box\"}".utf8))
        v.joined = joined
        return v
    }

    static func fragments(_ payload: TimingPayload) -> [[UInt8]] {
        let bytes = TimingMessage(timestamp: 1, deviceId: "phone-1", payload: payload).encoded()
        return try! Fragmenter.fragments(of: bytes, messageId: 7, attPayloadSize: 20)
    }

    /// Hands each fragment to the rule as the station does; the answer to each.
    static func write(_ chunks: [[UInt8]], into v: inout GATTPeerValues) -> [ATTErrorCode?] {
        chunks.map { chunk in
            v.pendingWrite = chunk
            return v.authorize(.write, of: gatt.timingMessages)
        }
    }

    static let join = TimingPayload.sessionJoin(SessionJoin(sessionId: "s-1", requestedRole: .finish,
                                                            version: PeerVersionInfo(protocolVersion: "1.0")))
    static let heartbeat = TimingPayload.heartbeat(Heartbeat(state: .idle, thermalState: .nominal))

    @Test func anyoneReadsDeviceInfo() {
        var v = Self.values()
        #expect(v.authorize(.read, of: Self.gatt.deviceInfo) == nil)
        #expect(v.authorize(.read, of: Self.gatt.timingMessages) == nil)
        #expect(v.value(of: Self.gatt.deviceInfo) == Array("{\"deviceId\":\"box\"}".utf8))
    }

    @Test func clockSyncIsRefusedUntilTheJoin() {
        var v = Self.values()
        #expect(v.authorize(.write, of: Self.gatt.clockSync) == .insufficientAuthorization)
        var joined = Self.values(joined: true)
        #expect(joined.authorize(.write, of: Self.gatt.clockSync) == nil)
    }

    @Test func aSessionJoinIsTakenFragmentByFragment() throws {
        var v = Self.values()
        let chunks = Self.fragments(Self.join)
        #expect(chunks.count > 2)
        #expect(Self.write(chunks, into: &v).allSatisfy { $0 == nil })
        let whole = try #require(v.completed.first)
        #expect(try TimingMessage.decode(whole).payload == Self.join)
    }

    @Test func anythingElseIsRefusedWhenItIsWholeBeforeTheJoin() {
        var v = Self.values()
        let answers = Self.write(Self.fragments(Self.heartbeat), into: &v)
        #expect(answers.dropLast().allSatisfy { $0 == nil })
        #expect(answers.last! == .insufficientAuthorization)
        #expect(v.completed.isEmpty && v.problem == "a message other than session_join before joining")
        // A chunk that is no fragment at all.
        var w = Self.values()
        #expect(Self.write([[0xFF]], into: &w) == [.insufficientAuthorization])
        #expect(w.problem != nil)
    }

    @Test func afterTheJoinEveryMessageIsTaken() {
        var v = Self.values(joined: true)
        #expect(Self.write(Self.fragments(Self.heartbeat), into: &v).allSatisfy { $0 == nil })
        #expect(v.completed.count == 1)
    }
}

import Testing
@testable import GateCore

@Suite struct ClockSyncExchangeTests {
    static let ms: Int64 = 1_000_000

    @Test func theResponderAnswersAPingWithItsReceiveAndSendStamps() throws {
        var b = ClockSyncExchange(initiates: false, precise: false, linkRole: .peripheral, intervalNanos: 15 * Self.ms)
        // PING seq 7, t1 = 1000 (little-endian), received at 5000, answered at 5300.
        let ping: [UInt8] = [0x01, 7, 0xE8, 0x03, 0, 0, 0, 0, 0, 0]
        let pongMaybe = b.received(ping, stampNanos: 5000, now: 5300)
        let pong = try #require(pongMaybe)
        #expect(pong.type == .pong && pong.sequence == 7)
        #expect(try ClockSyncPacket.parse(pong.bytes) == .pong(sequence: 7, t1: 1000, t2: 5000, t3: 5300))
        // Plain: nothing is awaited, so an acknowledgement asks for nothing.
        b.sent(pong, token: 3, now: 5300)
        #expect(b.completed(token: 3, stampNanos: 9000) == nil)
    }

    @Test func aPreciseResponderFollowsItsPongWithTheRadiosSendInstant() throws {
        let interval = 15 * Self.ms
        var b = ClockSyncExchange(initiates: false, precise: true, linkRole: .peripheral, intervalNanos: interval)
        let pongMaybe = b.received(ClockSyncPacket.ping(sequence: 9, t1: 1).bytes(), stampNanos: 100 * Self.ms, now: 100 * Self.ms + 40_000)
        let pong = try #require(pongMaybe)
        b.sent(pong, token: 11, now: 100 * Self.ms + 40_000)
        #expect(b.completed(token: 10, stampNanos: 1) == nil)   // not ours
        let followUpMaybe = b.completed(token: 11, stampNanos: 130 * Self.ms)
        let followUp = try #require(followUpMaybe)
        // A 26-byte pong in a notification: 3 + 26 + 14 bytes at 8 us = 344 us
        // on the air; acknowledged by the central at the next event, an
        // interval after the event began, past its empty packet and the space.
        let delay = interval + 80_000 - (80_000 + 150_000 + 344_000)
        #expect(try ClockSyncPacket.parse(followUp.bytes) == .followUp(sequence: 9, of: .pong, preciseSendNanos: 130 * Self.ms - delay))
        // Reported once only.
        #expect(b.completed(token: 11, stampNanos: 130 * Self.ms) == nil)
    }

    @Test func aPongThatMayShareItsEventWithAnotherPacketGetsNoFollowUp() throws {
        let interval = 30 * Self.ms
        var b = ClockSyncExchange(initiates: false, precise: true, linkRole: .peripheral, intervalNanos: interval)
        let first = b.received(ClockSyncPacket.ping(sequence: 1, t1: 1).bytes(), stampNanos: 0, now: 0)
        b.sent(try #require(first), token: 1, now: 0)
        // A second pong 10 ms later, the first not yet acknowledged: it may
        // ride in the same event, where the first's acknowledgement comes
        // within the event. No follow-up for it; the first keeps its own.
        let second = b.received(ClockSyncPacket.ping(sequence: 2, t1: 2).bytes(), stampNanos: 10 * Self.ms, now: 10 * Self.ms)
        b.sent(try #require(second), token: 2, now: 10 * Self.ms)
        #expect(b.ambiguousPongs == 1)
        #expect(b.completed(token: 1, stampNanos: 40 * Self.ms) != nil)
        #expect(b.completed(token: 2, stampNanos: 41 * Self.ms) == nil)
        // Timing messages waiting on the link make a pong unsure too.
        let third = b.received(ClockSyncPacket.ping(sequence: 3, t1: 3).bytes(), stampNanos: 200 * Self.ms, now: 200 * Self.ms)
        b.sent(try #require(third), token: 3, now: 200 * Self.ms, linkBusy: true)
        #expect(b.completed(token: 3, stampNanos: 240 * Self.ms) == nil)
        // Alone on the link, an interval after the last: it has its follow-up.
        let fourth = b.received(ClockSyncPacket.ping(sequence: 4, t1: 4).bytes(), stampNanos: 400 * Self.ms, now: 400 * Self.ms)
        b.sent(try #require(fourth), token: 4, now: 400 * Self.ms)
        #expect(b.completed(token: 4, stampNanos: 440 * Self.ms) != nil)
        #expect(b.ambiguousPongs == 2)
    }

    @Test func aPreciseInitiatorUsesASampleOnlyWhenItsThreeStampsAreIn() throws {
        var a = ClockSyncExchange(initiates: true, precise: true, linkRole: .central, intervalNanos: 15 * Self.ms)
        a.start(now: 0)
        let pingMaybe = a.tick(now: 0)
        let ping = try #require(pingMaybe)
        #expect(ping.bytes.count == 10 && ping.sequence == 0)
        a.sent(ping, token: 1, now: 0)
        // The peer is 2 s ahead. The pong comes back, then the follow-up,
        // then (late) our own acknowledgement: any order will do.
        let peer: Int64 = 2_000_000_000
        #expect(a.received(ClockSyncPacket.pong(sequence: 0, t1: 0, t2: peer + 10 * Self.ms, t3: peer + 11 * Self.ms).bytes(),
                           stampNanos: 30 * Self.ms, now: 30 * Self.ms) == nil)
        #expect(a.received(ClockSyncPacket.followUp(sequence: 0, of: .pong, preciseSendNanos: peer + 25 * Self.ms).bytes(),
                           stampNanos: 47 * Self.ms, now: 47 * Self.ms) == nil)
        // Nothing fed yet: finishing the round now would find no sample.
        // Our ping's acknowledgement: it left at 10 ms (+230 us to the report).
        #expect(a.completed(token: 1, stampNanos: 10 * Self.ms + 230_000) == nil)
        // Finish the round (the other 99 pings go unanswered: below a quarter, it fails)...
        var c = ClockSyncConfiguration(); c.fullSamples = 1
        var one = ClockSyncExchange(initiates: true, precise: true, linkRole: .central, intervalNanos: 15 * Self.ms, configuration: c)
        one.start(now: 0)
        let pMaybe = one.tick(now: 0)
        let p = try #require(pMaybe)
        one.sent(p, token: 1, now: 0)
        _ = one.completed(token: 1, stampNanos: 10 * Self.ms + 230_000)
        _ = one.received(ClockSyncPacket.pong(sequence: 0, t1: 0, t2: peer + 10 * Self.ms, t3: peer + 11 * Self.ms).bytes(),
                         stampNanos: 30 * Self.ms, now: 30 * Self.ms)
        #expect(one.estimator?.lastResult == nil)
        _ = one.received(ClockSyncPacket.followUp(sequence: 0, of: .pong, preciseSendNanos: peer + 25 * Self.ms).bytes(),
                         stampNanos: 47 * Self.ms, now: 47 * Self.ms)
        _ = one.tick(now: 48 * Self.ms)
        let result = try #require(one.estimator?.lastResult)
        // t1 = 10 ms, t2 = peer + 10 ms, t3 = peer + 25 ms, t4 = 30 ms:
        // offset = ((peer) + (peer - 5 ms)) / 2 = peer - 2.5 ms. With the
        // host's t1 = 0 and t3 = peer + 11 ms it would have been peer - 4.5 ms.
        #expect(result.offsetNanos == peer - 2_500_000)
    }

    @Test func aPlainInitiatorTakesThePongAsItComes() throws {
        var c = ClockSyncConfiguration(); c.fullSamples = 1
        var a = ClockSyncExchange(initiates: true, precise: false, linkRole: .central, intervalNanos: 7_500_000, configuration: c)
        a.start(now: 0)
        let pingMaybe = a.tick(now: 1000)
        let ping = try #require(pingMaybe)
        a.sent(ping, token: 5, now: 1000)
        _ = a.received(ClockSyncPacket.pong(sequence: ping.sequence, t1: 1000, t2: 501_000, t3: 502_000).bytes(), stampNanos: 3000, now: 3100)
        _ = a.tick(now: 4000)
        let result = try #require(a.estimator?.lastResult)
        #expect(result.offsetNanos == ((501_000 - 1000) + (502_000 - 3000)) / 2)
    }

    @Test func aGarbledPacketIsRefusedAndNamed() {
        var b = ClockSyncExchange(initiates: false, precise: true, linkRole: .peripheral, intervalNanos: 7_500_000)
        #expect(b.received([0x01, 2, 3], stampNanos: 1, now: 2) == nil)
        #expect(b.refusedPackets == 1)
        #expect(b.lastRefusal.hasPrefix("clock sync packet refused: "))
        #expect(b.received([], stampNanos: 1, now: 2) == nil)
        #expect(b.refusedPackets == 2)
    }
}

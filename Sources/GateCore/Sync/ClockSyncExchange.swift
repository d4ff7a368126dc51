/// Clock sync with one peer over one BLE connection: the packets of the Clock
/// Sync characteristic in and out, on either side, plain or precise.
///
/// Plain (seed 002 section 4, what phones do): t1 and t3 are the instants
/// the hosts hand their packets to the link, t2 and t4 the kernel's receive
/// stamps. Each packet then waits for the next connection event, 7.5-50 ms
/// apart, and the pong always waits longer than the ping (its event comes
/// round only after the ping's), so the offset errs by a large part of an
/// interval whatever the filter keeps.
///
/// Precise (between ts-gate boxes, capability `preciseClockSync`): t1 and
/// t3 are taken from the controller's report that the packet was
/// acknowledged (HCI Number Of Completed Packets), less the delay the Core
/// Specification fixes between the packet's end on the air and that
/// acknowledgement: the central's packet is acknowledged by the peripheral's
/// answer in the same exchange; the peripheral's only by the central's
/// packet at the next connection event. The send stamp then names the same
/// moment on the air as the peer's receive stamp does, both seen through a
/// controller-to-host transport alike on the two boxes. The peripheral's
/// precise t3 reaches the initiator after its pong, in a FOLLOW_UP (as PTP's
/// two-step sync carries its precise stamp); a sample is used only once
/// both its precise stamps are in.
public struct ClockSyncExchange {
    public enum LinkRole: Equatable, Sendable { case central, peripheral }

    /// A packet for the link; report what became of it with `sent`.
    public struct Outgoing: Equatable, Sendable {
        public var bytes: [UInt8]
        public var type: ClockSyncPacketType
        public var sequence: UInt8
    }

    /// The initiator's estimator (nil on the responder, which keeps no state
    /// but its packets awaiting acknowledgement).
    public private(set) var estimator: ClockSyncEstimator?
    public let precise: Bool
    public let linkRole: LinkRole
    public var intervalNanos: Int64
    /// The last packet refused, for the log; empty when none was.
    public private(set) var lastRefusal = ""
    public private(set) var refusedPackets = 0

    /// Our packets the controller has not reported acknowledged yet, oldest
    /// first (the link reports them in order). An ambiguous pong is kept
    /// as a FOLLOW_UP: acknowledged, it asks for nothing.
    private var awaitingAck: [(token: Int, type: ClockSyncPacketType, sequence: UInt8, count: Int, sentNanos: Int64)] = []
    /// Per sequence, the initiator's parts of a precise sample.
    private var ownSendNanos: [Int64?]
    private var pongStamps: [(t2: Int64, t3: Int64, t4: Int64)?]
    private var peerSendNanos: [Int64?]

    /// Air timing of LE 1M (Core Specification v5.3, Vol 6 Part B 2.1, 4.1.1):
    /// 8 us a byte, 10 bytes of preamble, access address, header and CRC, 4
    /// of L2CAP header; 150 us between packets; an empty packet 80 us.
    static let nanosPerByte: Int64 = 8_000
    static let interFrameNanos: Int64 = 150_000
    static let emptyPacketNanos: Int64 = 80_000
    /// An ATT Write Command or Handle Value Notification: opcode and handle.
    static let attHeaderBytes = 3

    public init(initiates: Bool, precise: Bool, linkRole: LinkRole, intervalNanos: Int64,
                configuration: ClockSyncConfiguration = .standard) {
        self.precise = precise
        self.linkRole = linkRole
        self.intervalNanos = intervalNanos
        if initiates {
            var c = configuration
            if precise {
                if c.stampSlackNanos == 0 { c.stampSlackNanos = ClockSyncExchange.preciseSlackNanos }
                // A precise sample's round trip is its stamps' noise, not time
                // spent waiting: a low one is no better a sample. Keep most
                // and let the median reject the odd one.
                c.keepFraction = ClockSyncExchange.preciseKeepFraction
                // Pings four connection events apart: each pong then has its
                // event to itself, not one shared with the last FOLLOW_UP.
                c.fullIntervalNanos = max(c.fullIntervalNanos, 4 * intervalNanos)
                c.miniIntervalNanos = max(c.miniIntervalNanos, 4 * intervalNanos)
            }
            estimator = ClockSyncEstimator(configuration: c)
        }
        ownSendNanos = Array(repeating: nil, count: 256)
        pongStamps = Array(repeating: nil, count: 256)
        peerSendNanos = Array(repeating: nil, count: 256)
        awaitingAck.reserveCapacity(128)
    }

    /// What a precise stamp may be off by: a controller's delay in reporting
    /// an acknowledgement (up to about 1 ms batched on a USB dongle's 1 ms
    /// poll) plus the two transports' jitter. It widens each sample's bound;
    /// it does not move the estimate.
    public static let preciseSlackNanos: Int64 = 1_000_000
    public static let preciseKeepFraction = 0.8

    /// Starts syncing (the initiator) with a full sync at `now`.
    public mutating func start(now: Int64) {
        estimator?.start(now: now)
        awaitingAck.removeAll(keepingCapacity: true)
    }

    /// The initiator's next ping if one is due at `now`, else nil; call it
    /// again at once after a ping (another may be due) and at `nextDueNanos`.
    public mutating func tick(now: Int64) -> Outgoing? {
        // Optional chaining mutates in place (a copy would copy the round's buffers).
        guard case .sendPing(let sequence, _)? = estimator?.step(now: now) else { return nil }
        let slot = Int(sequence)
        ownSendNanos[slot] = nil; pongStamps[slot] = nil; peerSendNanos[slot] = nil
        return Outgoing(bytes: ClockSyncPacket.ping(sequence: sequence, t1: now).bytes(), type: .ping, sequence: sequence)
    }

    /// When the initiator wants `tick` next (its next ping or round deadline).
    public mutating func nextDueNanos(now: Int64) -> Int64? {
        switch estimator?.step(now: now) {
        case .wait(let until)?: return until
        case .sendPing?: return now   // only if the caller skipped a tick
        case .idle?, nil: return nil
        }
    }

    /// The link took `packet` at `now` (token for its acknowledgement
    /// report), or refused it (nil: no connection; the sample is simply
    /// lost). `linkBusy`: other packets of ours (timing messages) were
    /// waiting for the air too.
    public mutating func sent(_ packet: Outgoing, token: Int?, now: Int64, linkBusy: Bool = false) {
        guard precise, let token else { return }
        if awaitingAck.count >= 128 { awaitingAck.removeFirst() }   // a link that stopped reporting
        // A peripheral's packet that may share its connection event with
        // another of ours may be acknowledged within the event rather than
        // at the next one: its send instant is unsure, and it gets no
        // FOLLOW_UP. One sent an interval (and the transports' few ms)
        // before it has had its event.
        var ambiguous = false
        if linkRole == .peripheral && packet.type == .pong {
            ambiguous = linkBusy
            for earlier in awaitingAck where now - earlier.sentNanos < intervalNanos + ClockSyncExchange.transportAllowanceNanos {
                ambiguous = true
            }
        }
        awaitingAck.append((token, ambiguous ? .followUp : packet.type, packet.sequence, packet.bytes.count, now))
        if ambiguous { ambiguousPongs += 1 }
    }

    /// Host to controller and back, at worst (a USB dongle's 1 ms poll, jitter).
    static let transportAllowanceNanos: Int64 = 3_000_000

    /// Pongs sent without a FOLLOW_UP because their send instant was unsure.
    public private(set) var ambiguousPongs = 0

    /// A packet on the Clock Sync characteristic, received at `stampNanos`
    /// (the kernel's receive stamp); `now` is this box's time. Returns the
    /// responder's pong to send, if any.
    public mutating func received(_ bytes: [UInt8], stampNanos: Int64, now: Int64) -> Outgoing? {
        let packet: ClockSyncPacket
        do { packet = try ClockSyncPacket.parse(bytes) } catch {
            refusedPackets += 1
            lastRefusal = "clock sync packet refused: " + error.message
            return nil
        }
        switch packet {
        case .ping(let sequence, _):
            guard let pong = packet.reply(t2: stampNanos, t3: now) else { return nil }
            return Outgoing(bytes: pong.bytes(unsequencedForm: ClockSyncPacket.unsequencedForm(ofLength: bytes.count) ?? .typed),
                            type: .pong, sequence: sequence ?? 0)
        case .pong(let sequence, let t1, let t2, let t3):
            guard estimator != nil else { return nil }
            if precise, let sequence {
                pongStamps[Int(sequence)] = (t2, t3, stampNanos)
                feedIfWhole(Int(sequence))
            } else {
                estimator?.receivePong(sequence: sequence, echoedT1: t1, t2: t2, t3: t3, receivedAt: stampNanos)
            }
            return nil
        case .followUp(let sequence, let of, let preciseNanos):
            guard of == .pong, estimator != nil else { return nil }
            peerSendNanos[Int(sequence)] = preciseNanos
            feedIfWhole(Int(sequence))
            return nil
        }
    }

    /// The controller reported packet `token` acknowledged, heard at
    /// `stampNanos`. Returns the responder's FOLLOW_UP to send, if any.
    public mutating func completed(token: Int, stampNanos: Int64) -> Outgoing? {
        guard precise, let index = awaitingAck.firstIndex(where: { $0.token == token }) else { return nil }
        let packet = awaitingAck[index]
        awaitingAck.removeSubrange(0...index)   // in order: anything older was lost with a dropped link
        let airNanos = stampNanos - acknowledgementDelay(attValueBytes: packet.count)
        switch packet.type {
        case .ping:
            ownSendNanos[Int(packet.sequence)] = airNanos
            feedIfWhole(Int(packet.sequence))
            return nil
        case .pong:
            let followUp = ClockSyncPacket.followUp(sequence: packet.sequence, of: .pong, preciseSendNanos: airNanos)
            return Outgoing(bytes: followUp.bytes(), type: .followUp, sequence: packet.sequence)
        case .followUp:
            return nil
        }
    }

    /// From the end of our packet on the air to the acknowledgement the
    /// controller reports: the central's is acknowledged by the peripheral's
    /// answer (the inter-frame space and an empty packet); the peripheral's
    /// by the central's first packet of the next event, one interval after
    /// the event began, less the central's packet, the space and our own.
    /// (Our packet is taken to be the event's first exchange, as sync
    /// packets sent on a quiet link are.)
    func acknowledgementDelay(attValueBytes: Int) -> Int64 {
        let air = Int64(attValueBytes + ClockSyncExchange.attHeaderBytes + 4 + 10) * ClockSyncExchange.nanosPerByte
        switch linkRole {
        case .central: return ClockSyncExchange.interFrameNanos + ClockSyncExchange.emptyPacketNanos
        case .peripheral:
            return intervalNanos + ClockSyncExchange.emptyPacketNanos
                - (ClockSyncExchange.emptyPacketNanos + ClockSyncExchange.interFrameNanos + air)
        }
    }

    /// A precise sample goes to the estimator once its own send instant, the
    /// pong and the peer's FOLLOW_UP are all in, whatever their order.
    private mutating func feedIfWhole(_ slot: Int) {
        guard let t1 = ownSendNanos[slot], let pong = pongStamps[slot], let t3 = peerSendNanos[slot] else { return }
        let sequence = UInt8(slot)
        if estimator?.refineOwnSendStamp(sequence: sequence, preciseNanos: t1) == true {
            // t1 was replaced: match the pong by its sequence alone.
            estimator?.receivePong(sequence: sequence, echoedT1: 0, t2: pong.t2, t3: t3, receivedAt: pong.t4)
        }
        ownSendNanos[slot] = nil; pongStamps[slot] = nil; peerSendNanos[slot] = nil
    }
}

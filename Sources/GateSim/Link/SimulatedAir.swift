import GateCore
import GateDevices

/// One BLE connection between two simulated boxes, on the simulator's true
/// time: what makes clock sync over BLE hard, and nothing kinder.
///
/// - A packet leaves only at a connection event (every `intervalNanos` from
///   the connection's anchor); the central speaks first in each exchange of
///   the event, the peripheral answers after the inter-frame space.
/// - Each side's host reaches its controller, and hears back from it,
///   through a transport with its own latency and jitter.
/// - A packet lost on the air goes again at the next event; later ones wait.
/// - A silence longer than the supervision timeout drops the connection;
///   packets still queued in the controllers are lost with it.
///
/// A box sees only what Linux would show it, on its own clock: the kernel's
/// receive stamp of each packet (`received`), the instant its host learnt
/// that a packet it sent was acknowledged (`completed`: HCI Number Of
/// Completed Packets), and the connection going down and up. The true air
/// times stay in here.
public final class SimulatedAir {
    public enum Side: Int, Equatable {
        case central = 0, peripheral = 1
        public var other: Side { self == .central ? .peripheral : .central }
    }

    public enum Event: Equatable {
        /// A packet arrived; `stampNanos` is the kernel's receive stamp on the receiver's clock.
        case received(LinkChannel, [UInt8], stampNanos: Int64)
        /// The controller reported the packet `token` acknowledged; the stamp
        /// is when the sender's host heard it, on the sender's clock.
        case completed(token: Int, stampNanos: Int64)
        case disconnected(stampNanos: Int64)
        case connected(stampNanos: Int64)
    }

    /// A time the air carried nothing (interference, a body in the way, a box
    /// carried off): [start, end) in true time.
    public struct Outage: Equatable {
        public var startNanos: Int64
        public var endNanos: Int64
        public init(startNanos: Int64, endNanos: Int64) { self.startNanos = startNanos; self.endNanos = endNanos }
    }

    /// One connection's life: from its anchor to its drop (or the end of time).
    private struct Connection {
        var index: Int
        /// When both hosts know it is up; its first event follows within an interval.
        var upNanos: Int64
        var anchorNanos: Int64
        var endNanos: Int64
    }

    /// What a controller hands its host; stamped when the host gets it.
    private enum Report {
        case received(LinkChannel, [UInt8])
        case completed(token: Int)
        case disconnected
        case connected
    }

    /// A report on its way up a transport: handed over at `controllerNanos`,
    /// due at `arrivalNanos` if nothing ahead of it holds it up.
    private struct Pending {
        var controllerNanos: Int64
        var arrivalNanos: Int64
        var report: Report
    }

    public let profile: LinkProfile
    public let outages: [Outage]
    private let clocks: [DriftingClock]
    private let latencyNanos: [Int64]
    private var random: SplitMix64
    private var connections: [Connection] = []
    private var pending: [[Pending]] = [[], []]
    private var nextToken = 0
    /// Per side: the earliest (connection, event) a new packet may take, so
    /// packets keep their order.
    private var firstFreeEvent: [(connection: Int, event: Int64)] = [(0, 0), (0, 0)]
    /// Packets each side put in an event, and where in the event the next
    /// exchange begins (ns from its anchor): key connection << 40 | event.
    private var slotsUsed: [Int64: (central: Int, peripheral: Int, cursor: Int64)] = [:]

    /// The last instant each side's controller-to-host transport delivered
    /// something: a UART or USB endpoint is a queue, so what the controller
    /// hands it in order reaches the host in order, jitter or not.
    private var lastToHost: [Int64] = [Int64.min, Int64.min]

    /// Packets sent and packets the air lost, per side (lost tries included).
    public private(set) var sentPackets = [0, 0]
    public private(set) var lostTries = [0, 0]

    /// The connection is up at `connectedAtNanos` (true time), with the
    /// central's clock `clocks.central` and the peripheral's `clocks.peripheral`.
    public init(profile: LinkProfile, central: DriftingClock, peripheral: DriftingClock, outages: [Outage] = [],
                connectedAtNanos: Int64 = 0, seed: UInt64) {
        self.profile = profile
        self.outages = outages.sorted { $0.startNanos < $1.startNanos }
        clocks = [central, peripheral]
        random = SplitMix64(seed: seed ^ 0xA1B2_C3D4_E5F6_0718)
        var lat: [Int64] = []
        for _ in 0..<2 {
            lat.append(profile.latencyNanos + Int64(random.uniform(-1, 1) * Double(profile.latencySpreadNanos)))
        }
        latencyNanos = lat
        planConnections(from: connectedAtNanos)
    }

    /// Lays out every connection and its drop from the outages: a silence
    /// longer than the supervision timeout ends one, and the next begins a
    /// reconnect's time after the air comes back, at a new anchor.
    private func planConnections(from start: Int64) {
        var up = start
        var index = 0
        while true {
            let anchor = up + Int64(random.unit() * Double(profile.intervalNanos))
            var end = Int64.max
            var next: Int64?
            for outage in outages where outage.endNanos > anchor {
                let silence = outage.endNanos - max(outage.startNanos, anchor)
                guard silence >= profile.supervisionTimeoutNanos else { continue }
                end = max(outage.startNanos, anchor) + profile.supervisionTimeoutNanos
                next = outage.endNanos + profile.reconnectNanos
                break
            }
            connections.append(Connection(index: index, upNanos: up, anchorNanos: anchor, endNanos: end))
            if index == 0 {
                for side in [Side.central, .peripheral] {
                    schedule(.connected, for: side, fromController: up, arriving: up + latencyNanos[side.rawValue])
                }
            }
            guard let reconnect = next else { return }
            for side in [Side.central, .peripheral] {
                schedule(.disconnected, for: side, fromController: end, arriving: end + latencyNanos[side.rawValue])
                schedule(.connected, for: side, fromController: reconnect, arriving: reconnect + latencyNanos[side.rawValue])
            }
            index += 1
            up = reconnect
        }
    }

    /// The connection up at true time `t`, if any.
    private func connection(atTrue t: Int64) -> Connection? {
        for c in connections where t >= c.upNanos && t < c.endNanos { return c }
        return nil
    }

    public func isConnected(atTrue t: Int64) -> Bool { connection(atTrue: t) != nil }

    private func inOutage(_ t: Int64) -> Bool {
        for o in outages where t >= o.startNanos && t < o.endNanos { return true }
        return false
    }

    private func stamp(_ side: Side, atTrue t: Int64) -> Int64 { clocks[side.rawValue].local(atTrue: t) }

    private func jitter() -> Int64 { Int64(random.unit() * Double(profile.jitterNanos)) }

    /// Queues a report in the order its controller emits it. Reports are
    /// scheduled when their packet is sent, out of emission order, but never
    /// before one already delivered: a send happens now and its reports later.
    private func schedule(_ report: Report, for side: Side, fromController c: Int64, arriving a: Int64) {
        var list = pending[side.rawValue]
        var i = list.count
        while i > 0 && list[i - 1].controllerNanos > c { i -= 1 }
        list.insert(Pending(controllerNanos: c, arrivalNanos: a, report: report), at: i)
        pending[side.rawValue] = list
    }

    /// When the first report queued for `side` reaches its host: FIFO.
    private func firstArrival(_ side: Side) -> Int64? {
        guard let first = pending[side.rawValue].first else { return nil }
        return max(first.arrivalNanos, lastToHost[side.rawValue])
    }

    /// The host of `side` writes `bytes` (one ATT PDU) at true time `t`.
    /// Returns the packet's token for its `completed` event, or nil when
    /// there is no connection (the socket's ENOTCONN).
    public func send(from side: Side, _ channel: LinkChannel, _ bytes: [UInt8], atTrue t: Int64) -> Int? {
        guard let link = connection(atTrue: t) else { return nil }
        let token = nextToken
        nextToken += 1
        sentPackets[side.rawValue] += 1
        let interval = profile.intervalNanos
        let atController = t + latencyNanos[side.rawValue] + jitter()
        var event = max(Int64(0), (atController - link.anchorNanos + interval - 1) / interval)
        let free = firstFreeEvent[side.rawValue]
        if free.connection == link.index { event = max(event, free.event) }
        while true {
            let anchor = link.anchorNanos + event * interval
            // The connection dropped first: the packet dies in the controller.
            guard anchor < link.endNanos else { return token }
            let key = Int64(link.index) << 40 | event
            let used = slotsUsed[key] ?? (0, 0, 0)
            let mine = side == .central ? used.central : used.peripheral
            // One exchange: this packet and the other side's empty answer (or
            // its empty opener), each followed by the inter-frame space. An
            // event closes before the next one's anchor.
            let exchange = profile.airNanos(bytes: bytes.count) + profile.emptyNanos + 2 * profile.interFrameNanos
            let full = mine >= profile.packetsPerEvent || (used.cursor > 0 && used.cursor + exchange > interval)
            if inOutage(anchor) || full { event += 1; continue }
            slotsUsed[key] = side == .central ? (used.central + 1, used.peripheral, used.cursor + exchange)
                : (used.central, used.peripheral + 1, used.cursor + exchange)
            if random.unit() < profile.lossProbability {
                lostTries[side.rawValue] += 1
                event += 1
                continue
            }
            firstFreeEvent[side.rawValue] = (link.index, event)
            deliver(token, channel, bytes, from: side, anchor: anchor, offset: used.cursor, connectionEnd: link.endNanos)
            if slotsUsed.count > 4096 { slotsUsed = slotsUsed.filter { $0.key >= key - 1024 } }
            return token
        }
    }

    /// Times one packet that made it: the receiver's stamp and the sender's
    /// acknowledgement report.
    private func deliver(_ token: Int, _ channel: LinkChannel, _ bytes: [UInt8], from side: Side, anchor: Int64, offset: Int64,
                         connectionEnd: Int64) {
        let air = profile.airNanos(bytes: bytes.count)
        let ifs = profile.interFrameNanos
        // Each exchange of the event opens with the central's packet and is
        // answered by the peripheral's; a side with nothing to say sends an
        // empty packet.
        let centralStart = anchor + offset
        let start = side == .central ? centralStart : centralStart + profile.emptyNanos + ifs
        let end = start + air
        let receiver = side.other
        schedule(.received(channel, bytes), for: receiver, fromController: end, arriving: end + latencyNanos[receiver.rawValue] + jitter())
        // The acknowledgement: the central's packet is acknowledged by the
        // peripheral's answer in the same exchange; the peripheral's by the
        // central's next packet, at the next connection event. (Were two of
        // the peripheral's packets in one event, the first would be
        // acknowledged within it; the box sends its sync packets so that
        // this never decides a stamp: ClockSyncExchange's ambiguous pongs.)
        let acked = side == .central ? end + ifs + profile.emptyNanos
            : anchor + profile.intervalNanos + profile.emptyNanos
        guard acked < connectionEnd else { return }   // never acknowledged: the link dropped first
        let report = acked + Int64(random.unit() * Double(profile.completionDelayNanos))
        schedule(.completed(token: token), for: side, fromController: report, arriving: report + latencyNanos[side.rawValue] + jitter())
    }

    /// The earliest true time something reaches `side`'s host.
    public func nextDueNanos(for side: Side) -> Int64 { firstArrival(side) ?? Int64.max }

    /// The earliest true time something reaches either host.
    public var nextDueNanos: Int64 {
        min(firstArrival(.central) ?? Int64.max, firstArrival(.peripheral) ?? Int64.max)
    }

    /// The next event for `side` due at or before true time `t`.
    public func take(for side: Side, upTo t: Int64) -> Event? {
        guard let at = firstArrival(side), at <= t else { return nil }
        let first = pending[side.rawValue].removeFirst()
        lastToHost[side.rawValue] = at
        let stamp = stamp(side, atTrue: at)
        switch first.report {
        case .received(let channel, let bytes): return .received(channel, bytes, stampNanos: stamp)
        case .completed(let token): return .completed(token: token, stampNanos: stamp)
        case .disconnected: return .disconnected(stampNanos: stamp)
        case .connected: return .connected(stampNanos: stamp)
        }
    }
}

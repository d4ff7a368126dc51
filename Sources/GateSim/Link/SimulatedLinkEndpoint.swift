import GateCore
import GateDevices

/// One box's links in a multi-box simulation: its side of each simulated
/// air, read and written at the world's true time (the driver moves it).
/// A box alone has none.
public struct SimulatedLinkEndpoint: PeerLink {
    private struct Peer {
        var air: SimulatedAir
        var side: SimulatedAir.Side
    }

    private var peers: [Peer] = []
    private let world: VirtualClock
    /// Packets sent per peer and refused (no connection), for the driver's report.
    public private(set) var refusedSends = 0

    /// A box with no links.
    public init() { world = VirtualClock() }

    /// A box on `links` (one per peer, in peer order), on the world's clock.
    public init(world: VirtualClock, links: [(air: SimulatedAir, side: SimulatedAir.Side)]) {
        self.world = world
        peers = links.map { Peer(air: $0.air, side: $0.side) }
    }

    public var peerCount: Int { peers.count }

    /// When the next report reaches this box, in true time.
    public var nextDueTrueNanos: Int64 {
        var due = Int64.max
        for p in peers { due = min(due, p.air.nextDueNanos(for: p.side)) }
        return due
    }

    public mutating func nextEvent() throws(GateError) -> LinkEvent? {
        let now = world.nowNanos
        for (index, p) in peers.enumerated() {
            guard let event = p.air.take(for: p.side, upTo: now) else { continue }
            switch event {
            case .connected:
                return .connected(peer: index, role: p.side == .central ? .central : .peripheral,
                                  intervalNanos: p.air.profile.intervalNanos, payloadBytes: p.air.profile.attPayloadBytes)
            case .disconnected: return .disconnected(peer: index)
            case .received(let channel, let bytes, let stamp):
                return .received(peer: index, channel: channel, bytes: bytes, stampNanos: stamp)
            case .completed(let token, let stamp):
                return .completed(peer: index, token: token, stampNanos: stamp)
            }
        }
        return nil
    }

    public mutating func send(_ bytes: [UInt8], on channel: LinkChannel, to peer: Int) throws(GateError) -> Int? {
        guard peer >= 0 && peer < peers.count else { return nil }
        let token = peers[peer].air.send(from: peers[peer].side, channel, bytes, atTrue: world.nowNanos)
        if token == nil { refusedSends += 1 }
        return token
    }
}

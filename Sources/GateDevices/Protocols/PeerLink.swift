import GateCore

// The box's links to other boxes (house rule 5): the BLE link on Linux, a
// simulated air in the simulator, nothing on a box that races alone. Each
// link is one peer; the race and clock sync run over it, the frame path
// never waits for it.

/// The GATT characteristic a packet belongs to (seed 002 section 2.1).
public enum LinkChannel: Equatable, Sendable {
    /// Timing Messages: fragments of seed 002's JSON messages.
    case messages
    /// Clock Sync: the binary packets of section 3.3.
    case clockSync
}

/// This box's part in a connection: the central opens it, the peripheral
/// advertises. It fixes when this side's packets are acknowledged.
public enum LinkRole: Equatable, Sendable { case central, peripheral }

/// What a link has for the loop. Every stamp is the kernel's, on this box's
/// CLOCK_MONOTONIC.
public enum LinkEvent: Equatable {
    case connected(peer: Int, role: LinkRole, intervalNanos: Int64, payloadBytes: Int)
    case disconnected(peer: Int)
    /// One ATT payload, received at `stampNanos`.
    case received(peer: Int, channel: LinkChannel, bytes: [UInt8], stampNanos: Int64)
    /// The controller reported the packet `token` acknowledged, heard at `stampNanos`.
    case completed(peer: Int, token: Int, stampNanos: Int64)
}

public protocol PeerLink {
    /// Links this box has (connected or not): 0 for a box alone.
    var peerCount: Int { get }
    /// The next pending event, or nil.
    mutating func nextEvent() throws(GateError) -> LinkEvent?
    /// Queues one ATT payload for `peer`; its token for the `completed`
    /// event, or nil when the peer is not connected.
    mutating func send(_ bytes: [UInt8], on channel: LinkChannel, to peer: Int) throws(GateError) -> Int?
    /// The race accepted the box or phone on `peer` into its session, to
    /// hold the gate `role` ("start", "lap", "finish"): from now on it may
    /// write (seed 002 section 8), and a bonded box's role is kept. On a
    /// joining box: the host on `peer` accepted it, and holds `role`.
    /// Links that need no such rule (the simulated air) ignore it.
    mutating func admit(peer: Int, role: String)
    /// The peer on `peer` is a bonded box over an encrypted link: it may
    /// join without the session code. The simulated air trusts no one.
    func isTrusted(peer: Int) -> Bool
}

extension PeerLink {
    public mutating func admit(peer: Int, role: String) {}
    public func isTrusted(peer: Int) -> Bool { false }
}

/// A box with no links: it races alone.
public struct NoLink: PeerLink {
    public init() {}
    public var peerCount: Int { 0 }
    public mutating func nextEvent() throws(GateError) -> LinkEvent? { nil }
    public mutating func send(_ bytes: [UInt8], on channel: LinkChannel, to peer: Int) throws(GateError) -> Int? { nil }
}

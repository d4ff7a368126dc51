/// What a GATT server keeps for one connection (Core Spec Vol 3 Part G 3.3.3.3
/// and Part F 3.4.6): the MTU agreed on it, each CCCD's value, and the
/// prepare-write queue. One per link; the database is shared.
/// The loop makes one when a link connects and drops it when the link goes:
/// bonded peers' CCCDs are not kept across connections (the peer subscribes again).

/// The value of a CCCD: bit 0 notifications, bit 1 indications.
public struct GATTSubscription: Equatable, Sendable {
    public var notify: Bool
    public var indicate: Bool
    public init(notify: Bool, indicate: Bool) { self.notify = notify; self.indicate = indicate }
    public static let none = GATTSubscription(notify: false, indicate: false)
}

/// One queued Prepare Write.
public struct GATTPreparedWrite: Equatable, Sendable {
    public var handle: UInt16
    public var offset: Int
    public var value: [UInt8]
}

public struct GATTServerLink: Sendable {
    /// ATT's default MTU (Part F 3.2.8), before any exchange.
    public static let defaultMTU = 23

    /// The MTU of the bearer: the smaller of both sides' receive MTUs.
    public private(set) var mtu: Int = GATTServerLink.defaultMTU
    /// True once an Exchange MTU (either direction) settled the MTU, which
    /// then stays for the connection (Part F 3.4.2.2: one exchange per link).
    public private(set) var mtuExchanged = false
    private var subscriptions: [UInt16: GATTSubscription] = [:]
    public internal(set) var prepareQueue: [GATTPreparedWrite] = []

    public init() {}

    /// The CCCD of `characteristic` on this link (none until written).
    public func subscription(_ characteristic: GATTCharacteristicID) -> GATTSubscription {
        subscriptions[characteristic.valueHandle] ?? .none
    }

    mutating func setSubscription(_ subscription: GATTSubscription, of characteristic: GATTCharacteristicID) {
        subscriptions[characteristic.valueHandle] = subscription
    }

    /// Settles the MTU from both receive MTUs; false if it was settled already.
    /// The server calls it on an Exchange MTU Request; the box calls it when
    /// its own client's exchange completes, since one MTU serves both roles.
    @discardableResult
    public mutating func settleMTU(clientMTU: Int, serverMTU: Int) -> Bool {
        guard !mtuExchanged else { return false }
        mtuExchanged = true
        mtu = max(GATTServerLink.defaultMTU, min(clientMTU, serverMTU))
        return true
    }
}

/// How the server reaches the box's values and rules without owning them:
/// reads come through `GATTValueSource` (generic, so the firmware's
/// specialised code has no existential), writes and subscriptions go back
/// out as `GATTServerEffect`s the box applies after the call.

/// The access a peer asks for, for the box's authorization rule.
public enum GATTAccess: Equatable, Sendable { case read, write }

public protocol GATTValueSource {
    /// The current value of a characteristic the database does not hold fixed
    /// (the whole value: the server cuts it to the MTU and to a blob's offset).
    mutating func value(of characteristic: GATTCharacteristicID) -> [UInt8]
    /// nil lets the access through; an ATT error refuses it and nothing
    /// changes (seed 002 section 8: Insufficient Authorization 0x08 for a
    /// writer that has not joined). Not asked for declarations or CCCDs.
    mutating func authorize(_ access: GATTAccess, of characteristic: GATTCharacteristicID) -> ATTErrorCode?
}

/// Values and refusals held in dictionaries: for tests, and for a box whose
/// values change rarely (Device Info is set when the session changes).
public struct GATTValueStore: GATTValueSource, Sendable {
    public var values: [GATTCharacteristicID: [UInt8]] = [:]
    /// Characteristics whose writes are refused, with the error to send.
    public var refusedWrites: [GATTCharacteristicID: ATTErrorCode] = [:]
    public var refusedReads: [GATTCharacteristicID: ATTErrorCode] = [:]

    public init() {}

    public mutating func value(of characteristic: GATTCharacteristicID) -> [UInt8] { values[characteristic] ?? [] }

    public mutating func authorize(_ access: GATTAccess, of characteristic: GATTCharacteristicID) -> ATTErrorCode? {
        switch access {
        case .read: return refusedReads[characteristic]
        case .write: return refusedWrites[characteristic]
        }
    }
}

/// What a request changed, for the box to act on once the call returns.
public enum GATTServerEffect: Equatable, Sendable {
    /// A peer wrote a characteristic value: by Write Request, Write Command
    /// (`withResponse` false) or an executed long write.
    case written(GATTCharacteristicID, [UInt8], withResponse: Bool)
    /// A peer wrote a CCCD.
    case subscriptionChanged(GATTCharacteristicID, GATTSubscription)
    /// The link's MTU was settled by the peer's Exchange MTU Request.
    case mtuChanged(Int)
}

/// The server's answer to one received PDU.
public struct GATTServerOutput: Equatable, Sendable {
    /// The PDU to send back: nil for commands, confirmations and anything
    /// that is not the server's to answer.
    public var response: [UInt8]?
    public var effects: [GATTServerEffect]

    public init(response: [UInt8]? = nil, effects: [GATTServerEffect] = []) {
        self.response = response
        self.effects = effects
    }
}

import GateCore
import GateDevices
import GateProtocol

/// What the GATT server asks of the box for one peer: the values it reads
/// and the authorization rule of seed 002 section 8 (issue 47, point 7).
///
/// The rule: reads are open (a phone reads Device Info before it joins).
/// Until the peer has joined a session, Clock Sync refuses every write and
/// Timing Messages takes fragments of a session_join only. A fragment
/// cannot say which message it belongs to until the message is whole (the
/// type may straddle two 20-byte fragments), so each written fragment is
/// reassembled here, while the write is authorized: fragments before the
/// last are taken in, and the one that completes anything other than a
/// session_join (or a chunk that is no fragment at all) is refused with
/// Insufficient Authorization (0x08), so the writer learns it at once.
/// Long writes (Prepare/Execute) to either are refused until joined: no
/// fragment needs them, each fits one Write Request.
struct GATTPeerValues: GATTValueSource {
    let timingMessages: GATTCharacteristicID
    let deviceInfoID: GATTCharacteristicID
    let clockSync: GATTCharacteristicID
    let deviceInfo: [UInt8]
    var joined = false
    /// The value of the Write Request or Command being handled, set by the
    /// station before it hands the PDU to the server.
    var pendingWrite: [UInt8]?
    /// Messages made whole by authorized fragments, for the station.
    var completed: [[UInt8]] = []
    /// Why a fragment was refused or dropped, for the station's log.
    var problem: String?
    var reassembler = Reassembler(maxMessageBytes: 4096)

    mutating func value(of characteristic: GATTCharacteristicID) -> [UInt8] {
        characteristic == deviceInfoID ? deviceInfo : []
    }

    mutating func authorize(_ access: GATTAccess, of characteristic: GATTCharacteristicID) -> ATTErrorCode? {
        guard access == .write else { return nil }
        if characteristic == clockSync { return joined ? nil : .insufficientAuthorization }
        guard characteristic == timingMessages else { return nil }
        guard let chunk = pendingWrite else { return joined ? nil : .insufficientAuthorization }
        pendingWrite = nil
        let step: ReassemblyStep
        do { step = try reassembler.accept(chunk) } catch {
            problem = "a chunk that is no fragment of seed 002's framing"
            return joined ? nil : .insufficientAuthorization
        }
        guard case .complete(let bytes) = step else { return nil }
        if !joined {
            guard let message = try? TimingMessage.decode(bytes), case .sessionJoin = message.payload else {
                problem = "a message other than session_join before joining"
                return .insufficientAuthorization
            }
        }
        completed.append(bytes)
        return nil
    }
}

/// One central's link to the box's GATT server: its socket and poll slot,
/// its ATT state (MTU, subscriptions), its values and reassembly, and the
/// message ids of what the box notifies it.
struct GATTPeer {
    let link: BLELink
    let slot: Int
    /// Its link number in the race (0..<GATTStation.raceSeats).
    let seat: Int
    var server = GATTServerLink()
    var values: GATTPeerValues
    var fragmenter = Fragmenter()

    var name: String { link.peer.text }
}

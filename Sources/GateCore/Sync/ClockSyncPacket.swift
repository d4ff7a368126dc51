/// The binary clock-sync messages of the Clock Sync characteristic (seed 002
/// sections 2.1 and 3.3).
///
/// The seed contradicts itself. Section 2.1 says "24 bytes: type[1] + t1[8]
/// + t2[8] + t3[8]", which add up to 25, and no sequence; section 3.3 says
/// type, sequence, then t1 at offset 2, t2 and t3 "PONG only", and totals
/// "2 bytes (PING) or 26 bytes (PONG)", although a 2-byte PING has no room
/// for the t1 its own table puts there.
///
/// What the box SENDS: PING = 10 bytes (type, sequence, t1) and PONG = 26
/// bytes (type, sequence, t1 echoed, t2, t3): section 3.3's table read as
/// written, so a phone that reads fields at the table's offsets finds them,
/// and only the impossible "2 bytes" total is set aside. When it answers a
/// PING it answers in the PING's own form (`reply`, and `unsequencedForm`
/// for the two readings of section 2.1): a 24- or 25-byte PING gets a PONG as long,
/// a 2-byte PING a 26-byte PONG echoing t1 = 0.
///
/// Byte order: little-endian. The seed names none; Bluetooth sends every
/// multi-octet field little-endian, and an iOS app copying an Int64's bytes
/// (`withUnsafeBytes`, `Data(bytes:count:)`) writes little-endian on every
/// iPhone. The one likely exception is an Android app using a bare
/// `ByteBuffer`, big-endian until told otherwise: `parse` takes the order,
/// and `echoByteOrder` tells from a PONG's echoed t1 which one a peer uses.
///
/// What the box PARSES: every reading a phone might send:
///   type 0x01 PING:  2 bytes (type, seq; no t1: the answer echoes t1 = 0
///                    and the initiator matches it by sequence), 10 bytes
///                    (type, seq, t1), 26 bytes (a PONG-sized buffer, t2 and
///                    t3 ignored), 25 bytes (section 2.1's fields: type,
///                    t1, t2, t3; no sequence);
///   type 0x02 PONG:  26 bytes (section 3.3) or 25 bytes (section 2.1's
///                    fields, no sequence: matched by the echoed t1);
///   no type, 24 bytes: section 2.1's total, t1 + t2 + t3 with the type left
///                    to the characteristic's direction: a PING if t2 and t3
///                    are 0, a PONG otherwise. A 24-byte packet is read so
///                    whatever its first byte (t1's lowest in little-endian).
///   type 0x03 FOLLOW_UP (box to box, not in the seed): 11 bytes, type, the
///                    sequence of an earlier packet, that packet's type, and
///                    the precise instant it left (int64), as PTP's two-step
///                    sync sends the precise stamp of a Sync after it. Peers
///                    announce it with the capability `preciseClockSync`.
public enum ClockSyncPacket: Equatable, Sendable {
    /// `sequence` nil: section 2.1's forms. `t1` nil: the 2-byte form.
    case ping(sequence: UInt8?, t1: Int64?)
    /// `sequence` nil: section 2.1's forms. `t1` is the PING's, echoed (0 for a 2-byte PING).
    case pong(sequence: UInt8?, t1: Int64, t2: Int64, t3: Int64)
    /// The precise send instant of the packet `sequence` of type `of` sent earlier.
    case followUp(sequence: UInt8, of: ClockSyncPacketType, preciseSendNanos: Int64)

    /// The answer to this PING received at `t2` and sent at `t3`, in the PING's
    /// own form; nil for anything but a PING.
    public func reply(t2: Int64, t3: Int64) -> ClockSyncPacket? {
        guard case .ping(let sequence, let t1) = self else { return nil }
        return .pong(sequence: sequence, t1: t1 ?? 0, t2: t2, t3: t3)
    }

    public var type: ClockSyncPacketType {
        switch self {
        case .ping: return .ping
        case .pong: return .pong
        case .followUp: return .followUp
        }
    }

    /// Bytes `encode` writes: 2, 10, 24 or 25, 26 or 11.
    public func encodedCount(unsequencedForm: ClockSyncUnsequencedForm = .typed) -> Int {
        switch self {
        case .ping(let sequence, let t1):
            if sequence == nil { return unsequencedForm.count }
            return t1 == nil ? ClockSyncPacket.shortPingCount : ClockSyncPacket.pingCount
        case .pong(let sequence, _, _, _):
            return sequence == nil ? unsequencedForm.count : ClockSyncPacket.pongCount
        case .followUp:
            return ClockSyncPacket.followUpCount
        }
    }

    public static let shortPingCount = 2
    public static let pingCount = 10
    public static let followUpCount = 11
    public static let untypedCount = 24
    public static let typedUnsequencedCount = 25
    public static let pongCount = 26

    /// Appends the packet to `bytes` (a buffer kept with its capacity, so the
    /// steady state allocates nothing). A packet without a sequence is
    /// written in `unsequencedForm`; a PING with neither sequence nor t1 is
    /// written with t1 = 0.
    public func encode(into bytes: inout [UInt8], byteOrder: ClockSyncByteOrder = .littleEndian,
                       unsequencedForm: ClockSyncUnsequencedForm = .typed) {
        // Only section 2.1's 24-byte reading goes without the type.
        if !(unsequencedForm == .untyped && sequenceByte == nil) { bytes.append(type.rawValue) }
        switch self {
        case .ping(let sequence, let t1):
            if let sequence {
                bytes.append(sequence)
                if let t1 { Self.append(t1, to: &bytes, byteOrder) }
            } else {
                Self.append(t1 ?? 0, to: &bytes, byteOrder)
                Self.append(0, to: &bytes, byteOrder)
                Self.append(0, to: &bytes, byteOrder)
            }
        case .pong(let sequence, let t1, let t2, let t3):
            if let sequence { bytes.append(sequence) }
            Self.append(t1, to: &bytes, byteOrder)
            Self.append(t2, to: &bytes, byteOrder)
            Self.append(t3, to: &bytes, byteOrder)
        case .followUp(let sequence, let of, let precise):
            bytes.append(sequence)
            bytes.append(of.rawValue)
            Self.append(precise, to: &bytes, byteOrder)
        }
    }

    private var sequenceByte: UInt8? {
        switch self {
        case .ping(let sequence, _), .pong(let sequence, _, _, _): return sequence
        case .followUp(let sequence, _, _): return sequence
        }
    }

    /// The packet's bytes in a new array (tests, logs; `encode` in the loop).
    public func bytes(byteOrder: ClockSyncByteOrder = .littleEndian,
                      unsequencedForm: ClockSyncUnsequencedForm = .typed) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedCount(unsequencedForm: unsequencedForm))
        encode(into: &bytes, byteOrder: byteOrder, unsequencedForm: unsequencedForm)
        return bytes
    }

    /// Which of section 2.1's forms a packet of `length` bytes was, so that
    /// its answer goes back in kind; nil for the sequenced forms.
    public static func unsequencedForm(ofLength length: Int) -> ClockSyncUnsequencedForm? {
        switch length {
        case untypedCount: return .untyped
        case typedUnsequencedCount: return .typed
        default: return nil
        }
    }

    /// Reads one packet; every length but the ones above is refused by name.
    public static func parse(_ bytes: [UInt8], byteOrder: ClockSyncByteOrder = .littleEndian) throws(ClockSyncPacketError) -> ClockSyncPacket {
        if bytes.count == untypedCount {
            let t1 = read(bytes, at: 0, byteOrder), t2 = read(bytes, at: 8, byteOrder), t3 = read(bytes, at: 16, byteOrder)
            return t2 == 0 && t3 == 0 ? .ping(sequence: nil, t1: t1) : .pong(sequence: nil, t1: t1, t2: t2, t3: t3)
        }
        guard let first = bytes.first else { throw .empty }
        guard let type = ClockSyncPacketType(rawValue: first) else { throw .unknownType(first, length: bytes.count) }
        func int(_ at: Int) -> Int64 { read(bytes, at: at, byteOrder) }
        switch (type, bytes.count) {
        case (.ping, shortPingCount):
            return .ping(sequence: bytes[1], t1: nil)
        case (.ping, pingCount), (.ping, pongCount):
            return .ping(sequence: bytes[1], t1: int(2))
        case (.ping, typedUnsequencedCount):
            return .ping(sequence: nil, t1: int(1))
        case (.pong, pongCount):
            return .pong(sequence: bytes[1], t1: int(2), t2: int(10), t3: int(18))
        case (.pong, typedUnsequencedCount):
            return .pong(sequence: nil, t1: int(1), t2: int(9), t3: int(17))
        case (.followUp, followUpCount):
            guard let of = ClockSyncPacketType(rawValue: bytes[2]), of != .followUp else {
                throw .followUpOfUnknownType(bytes[2])
            }
            return .followUp(sequence: bytes[1], of: of, preciseSendNanos: int(3))
        default:
            throw .wrongLength(type: type, length: bytes.count)
        }
    }

    /// The byte order a peer writes, told from its PONG (either form) to our
    /// PING that carried `sentT1`; nil when neither order gives it back
    /// (not an answer to that PING, or one to a 2-byte PING echoing 0).
    public static func echoByteOrder(of pong: [UInt8], sentT1: Int64) -> ClockSyncByteOrder? {
        guard sentT1 != 0 else { return nil }
        let at: Int
        switch pong.count {
        case pongCount where pong[0] == ClockSyncPacketType.pong.rawValue: at = 2
        case typedUnsequencedCount where pong[0] == ClockSyncPacketType.pong.rawValue: at = 1
        case untypedCount: at = 0
        default: return nil
        }
        if read(pong, at: at, .littleEndian) == sentT1 { return .littleEndian }
        if read(pong, at: at, .bigEndian) == sentT1 { return .bigEndian }
        return nil
    }

    private static func append(_ value: Int64, to bytes: inout [UInt8], _ order: ClockSyncByteOrder) {
        let bits = UInt64(bitPattern: value)
        for i in 0..<8 {
            let shift = order == .littleEndian ? 8 * i : 56 - 8 * i
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }

    private static func read(_ bytes: [UInt8], at: Int, _ order: ClockSyncByteOrder) -> Int64 {
        var bits: UInt64 = 0
        for i in 0..<8 {
            let shift = order == .littleEndian ? 8 * i : 56 - 8 * i
            bits |= UInt64(bytes[at + i]) << UInt64(shift)
        }
        return Int64(bitPattern: bits)
    }
}

/// The first byte of a clock-sync packet.
public enum ClockSyncPacketType: UInt8, Equatable, Sendable {
    case ping = 0x01
    case pong = 0x02
    /// Box to box only: see `ClockSyncPacket.followUp`.
    case followUp = 0x03

    public var name: String {
        switch self {
        case .ping: return "PING"
        case .pong: return "PONG"
        case .followUp: return "FOLLOW_UP"
        }
    }

    /// The lengths a packet of this type may have, for error messages.
    public var acceptedLengths: String {
        switch self {
        case .ping: return "2, 10, 25 or 26 (or 24 untyped)"
        case .pong: return "25 or 26 (or 24 untyped)"
        case .followUp: return "11"
        }
    }
}

/// The two readings of section 2.1, for packets without a sequence.
public enum ClockSyncUnsequencedForm: Equatable, Sendable {
    /// Its fields: type + t1 + t2 + t3, 25 bytes.
    case typed
    /// Its total: t1 + t2 + t3, 24 bytes, the type told by t2 = t3 = 0.
    case untyped

    public var count: Int { self == .typed ? ClockSyncPacket.typedUnsequencedCount : ClockSyncPacket.untypedCount }
}

public enum ClockSyncByteOrder: Equatable, Sendable {
    case littleEndian
    case bigEndian
}

/// Names for the `capabilities` object of seed 002 section 9.3.
public enum ClockSyncCapability {
    /// The seed's own flag: the peer speaks this binary format.
    public static let binaryClockSync = "binaryClockSync"
    /// The peer sends and understands FOLLOW_UP (box to box).
    public static let preciseClockSync = "preciseClockSync"
}

/// A packet that could not be read, naming what was wrong.
public enum ClockSyncPacketError: Error, Equatable {
    case empty
    case unknownType(UInt8, length: Int)
    case wrongLength(type: ClockSyncPacketType, length: Int)
    case followUpOfUnknownType(UInt8)

    /// One line for the log, built by hand (Embedded Swift cannot print an enum).
    public var message: String {
        switch self {
        case .empty:
            return "clock sync: empty packet"
        case .unknownType(let type, let length):
            return "clock sync: unknown packet type " + Self.hex(type) + " (" + String(length) + " bytes); known: 0x01 PING, 0x02 PONG, 0x03 FOLLOW_UP"
        case .wrongLength(let type, let length):
            return "clock sync: " + type.name + " of " + String(length) + " bytes; a " + type.name + " has " + type.acceptedLengths
        case .followUpOfUnknownType(let type):
            return "clock sync: FOLLOW_UP of packet type " + Self.hex(type) + "; it follows a PING (0x01) or a PONG (0x02)"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }
}

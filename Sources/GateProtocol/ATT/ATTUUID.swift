/// A Bluetooth UUID as ATT carries it: 16-bit when it lies in the Bluetooth
/// Base UUID (0000xxxx-0000-1000-8000-00805F9B34FB), 128-bit otherwise, both
/// little-endian on the wire (Core Spec Vol 3 Part F 3.2.1).
///
/// Stored as 128 bits always, so a 16-bit UUID and its 128-bit spelling are
/// the same value: a client may ask for 0x2800 either way.
public struct ATTUUID: Hashable, Sendable {
    /// The first 8 bytes of the text form, big-endian.
    public var high: UInt64
    /// The last 8 bytes of the text form, big-endian.
    public var low: UInt64

    static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A 16-bit UUID assigned by the Bluetooth SIG (0x2800, 0x1800, ...).
    public init(_ short: UInt16) {
        high = ATTUUID.baseHigh | (UInt64(short) << 32)
        low = ATTUUID.baseLow
    }

    /// Reads "12345678-1234-1000-8000-00805F9B34FB" (any case, dashes
    /// anywhere, exactly 32 hex digits); nil for anything else.
    public init?(_ text: String) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") { continue }
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if digits < 16 {
                high = high << 4 | UInt64(nibble)
            } else if digits < 32 {
                low = low << 4 | UInt64(nibble)
            } else {
                return nil
            }
            digits += 1
        }
        guard digits == 32 else { return nil }
        self.init(high: high, low: low)
    }

    /// The 16-bit form, when the UUID has one.
    public var short: UInt16? {
        guard low == ATTUUID.baseLow, high & 0xFFFF_0000_FFFF_FFFF == ATTUUID.baseHigh else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// Bytes on the wire: 2 or 16.
    public var wireCount: Int { short == nil ? 16 : 2 }

    /// Appends the wire form: 2 bytes when it has a 16-bit form, else 16,
    /// little-endian (the text form's bytes reversed).
    public func append(to bytes: inout [UInt8]) {
        if let short {
            bytes.appendLE(short)
        } else {
            bytes.append128(self)
        }
    }

    /// Appends the 16-byte form even for a 16-bit UUID.
    public func append128(to bytes: inout [UInt8]) { bytes.append128(self) }

    /// Reads a 2- or 16-byte wire form; nil for any other length.
    public init?(wire bytes: ArraySlice<UInt8>) {
        switch bytes.count {
        case 2:
            self.init(UInt16(bytes[bytes.startIndex]) | UInt16(bytes[bytes.startIndex + 1]) << 8)
        case 16:
            var high: UInt64 = 0
            var low: UInt64 = 0
            let start = bytes.startIndex
            for index in 0..<8 {
                low |= UInt64(bytes[start + index]) << (8 * UInt64(index))
                high |= UInt64(bytes[start + 8 + index]) << (8 * UInt64(index))
            }
            self.init(high: high, low: low)
        default:
            return nil
        }
    }

    /// "0x2800" for a 16-bit UUID, the upper-case text form otherwise.
    public var description: String {
        if let short { return "0x" + ATTUUID.hex(UInt64(short), digits: 4) }
        let h = ATTUUID.hex(high, digits: 16)
        let l = ATTUUID.hex(low, digits: 16)
        let hu = Array(h.utf8)
        let lu = Array(l.utf8)
        return String(decoding: hu[0..<8], as: UTF8.self) + "-" + String(decoding: hu[8..<12], as: UTF8.self) + "-"
            + String(decoding: hu[12..<16], as: UTF8.self) + "-" + String(decoding: lu[0..<4], as: UTF8.self) + "-"
            + String(decoding: lu[4..<16], as: UTF8.self)
    }

    static func hex(_ value: UInt64, digits: Int) -> String {
        let table = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            out.append(table[Int((value >> UInt64(shift)) & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The 16-bit UUIDs GATT itself defines (Assigned Numbers 3.5, 3.7, 3.8).
public extension ATTUUID {
    static let primaryService = ATTUUID(0x2800)
    static let secondaryService = ATTUUID(0x2801)
    static let include = ATTUUID(0x2802)
    static let characteristic = ATTUUID(0x2803)
    static let clientCharacteristicConfiguration = ATTUUID(0x2902)
    static let genericAccessService = ATTUUID(0x1800)
    static let genericAttributeService = ATTUUID(0x1801)
    static let deviceName = ATTUUID(0x2A00)
    static let appearance = ATTUUID(0x2A01)
}

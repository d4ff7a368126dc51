import CGateShim

/// A device address as the kernel carries it (bdaddr_t: least significant
/// byte first) with its LE type. Written most significant byte first, as
/// every BlueZ tool prints it ("00:AA:01:01:00:01").
public struct BluetoothAddress: Equatable, Hashable, Sendable {
    /// Least significant byte first, as in bdaddr_t and on the air.
    public var bytes: [UInt8]
    public var type: AddressType

    /// mgmt's address types (BDADDR_BREDR, BDADDR_LE_PUBLIC, BDADDR_LE_RANDOM).
    public enum AddressType: UInt8, Sendable {
        case bredr = 0, lePublic = 1, leRandom = 2

        public var name: String {
            switch self {
            case .bredr: return "BR/EDR"
            case .lePublic: return "LE public"
            case .leRandom: return "LE random"
            }
        }
    }

    public init(bytes: [UInt8], type: AddressType = .lePublic) {
        precondition(bytes.count == 6, "a Bluetooth address has 6 bytes")
        self.bytes = bytes
        self.type = type
    }

    public static let any = BluetoothAddress(bytes: [0, 0, 0, 0, 0, 0])

    /// "00:AA:01:01:00:01" (case ignored); nil for anything else.
    public init?(text: String, type: AddressType = .lePublic) {
        let parts = text.split(separator: ":")
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts.reversed() {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.init(bytes: bytes, type: type)
    }

    public var text: String {
        var out = ""
        for (i, byte) in bytes.reversed().enumerated() {
            if i > 0 { out += ":" }
            out += BluetoothAddress.hexByte(byte)
        }
        return out
    }

    /// The last two bytes as four hex digits ("3F2A"): the box's short name suffix.
    public var shortSuffix: String { BluetoothAddress.hexByte(bytes[1]) + BluetoothAddress.hexByte(bytes[0]) }

    static func hexByte(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    var bdaddr: bdaddr_t {
        bdaddr_t(b: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]))
    }

    init(_ address: bdaddr_t, type: AddressType) {
        let b = address.b
        self.init(bytes: [b.0, b.1, b.2, b.3, b.4, b.5], type: type)
    }
}

/// Little-endian reads and writes of the kernel's packed Bluetooth structures.
struct LittleEndianBytes {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var count: Int { bytes.count }

    func u8(_ at: Int) -> UInt8 { bytes[bytes.startIndex + at] }
    func u16(_ at: Int) -> UInt16 { UInt16(u8(at)) | UInt16(u8(at + 1)) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    func slice(_ at: Int, _ length: Int) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + at)..<(bytes.startIndex + at + length)]
    }

    /// An address at `at` (6 bytes) followed by its mgmt type byte.
    func addressInfo(_ at: Int) -> BluetoothAddress {
        BluetoothAddress(bytes: Array(slice(at, 6)), type: BluetoothAddress.AddressType(rawValue: u8(at + 6)) ?? .lePublic)
    }

    static func append(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value & 0xFF)); out.append(UInt8(value >> 8))
    }

    static func append(_ value: UInt32, to out: inout [UInt8]) {
        append(UInt16(value & 0xFFFF), to: &out); append(UInt16(value >> 16), to: &out)
    }
}

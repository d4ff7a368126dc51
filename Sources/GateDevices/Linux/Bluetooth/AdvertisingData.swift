// Advertising data (Core Specification Supplement, part A): length-type-
// value structures. The box advertises seed 002's service UUID and a short
// name, and finds other boxes by that UUID in what discovery reports.

/// The fields of advertising data the box reads, and the encoder of its own.
public struct AdvertisingData: Equatable, Sendable {
    /// 128-bit service UUIDs, each in the usual text byte order (most significant first).
    public var serviceUUIDs128: [[UInt8]] = []
    /// The complete or shortened local name.
    public var name: String?
    public var nameIsShortened = false

    public init() {}

    /// AD types (Assigned Numbers, 2.3).
    static let incompleteUUIDs128: UInt8 = 0x06
    static let completeUUIDs128: UInt8 = 0x07
    static let shortenedName: UInt8 = 0x08
    static let completeName: UInt8 = 0x09

    /// Reads what it knows and skips the rest; a truncated structure ends the data.
    public init(parsing data: ArraySlice<UInt8>) {
        var i = data.startIndex
        while i < data.endIndex {
            let length = Int(data[i])
            guard length > 0, i + 1 + length <= data.endIndex else { break }
            let type = data[i + 1]
            let value = data[(i + 2)..<(i + 1 + length)]
            switch type {
            case AdvertisingData.incompleteUUIDs128, AdvertisingData.completeUUIDs128:
                var u = value.startIndex
                while u + 16 <= value.endIndex {
                    serviceUUIDs128.append(Array(value[u..<(u + 16)].reversed()))   // on the air least significant first
                    u += 16
                }
            case AdvertisingData.shortenedName, AdvertisingData.completeName:
                name = String(decoding: value, as: UTF8.self)
                nameIsShortened = type == AdvertisingData.shortenedName
            default:
                break
            }
            i += 1 + length
        }
    }

    public func advertises(_ uuid: [UInt8]) -> Bool { serviceUUIDs128.contains(uuid) }

    /// The most Add Advertising takes with the discoverable flag on (31
    /// bytes less the 3 of the Flags structure the kernel adds).
    public static let maximumBytes = 28

    /// The box's advertisement: the UUID in the advertising data, and the
    /// name beside it if it fits, else in the scan response (a 128-bit UUID
    /// takes 18 of the 28 bytes: a name of up to 8 bytes fits).
    public static func encode(serviceUUID: [UInt8], name: String) -> (advertising: [UInt8], scanResponse: [UInt8]) {
        precondition(serviceUUID.count == 16, "a 128-bit UUID")
        var advertising: [UInt8] = [17, completeUUIDs128]
        advertising += serviceUUID.reversed()
        let nameBytes = Array(name.utf8.prefix(29))
        let nameField = [UInt8(nameBytes.count + 1), completeName] + nameBytes
        if advertising.count + nameField.count <= maximumBytes {
            return (advertising + nameField, [])
        }
        return (advertising, nameField)
    }

    /// "12345678-1234-1000-8000-00805F9B34FB" to its 16 bytes; nil if malformed.
    public static func uuid(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var high: UInt8?
        for c in text.utf8 where c != UInt8(ascii: "-") {
            guard let nibble = hexValue(c) else { return nil }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        return bytes.count == 16 && high == nil ? bytes : nil
    }

    public static func uuidText(_ bytes: [UInt8]) -> String {
        var out = ""
        for (i, b) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out += "-" }
            out += BluetoothAddress.hexByte(b)
        }
        return out
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

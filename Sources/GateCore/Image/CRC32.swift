/// CRC-32 of ISO 3309 / ITU-T V.42 (polynomial 0xEDB88320, reflected), the
/// checksum of every PNG chunk.
public struct CRC32 {
    public private(set) var value: UInt32 = 0xFFFF_FFFF

    public init() {}

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var crc = value
        for byte in bytes { crc = crc32Table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        value = crc
    }

    /// The checksum of everything given to `update`.
    public var checksum: UInt32 { value ^ 0xFFFF_FFFF }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.checksum
    }
}

private let crc32Table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 256)
    for n in 0..<256 {
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        table[n] = c
    }
    return table
}()

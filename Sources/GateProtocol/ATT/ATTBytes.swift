/// Little-endian reading and writing of ATT fields. Every multi-octet ATT
/// field is little-endian (Core Spec Vol 3 Part F 3.3), so one place does it.
extension Array where Element == UInt8 {
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func append128(_ uuid: ATTUUID) {
        for index in 0..<8 { append(UInt8(truncatingIfNeeded: uuid.low >> (8 * UInt64(index)))) }
        for index in 0..<8 { append(UInt8(truncatingIfNeeded: uuid.high >> (8 * UInt64(index)))) }
    }

    /// The little-endian UInt16 at `offset`; the caller has checked the length.
    func le16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// Bytes from `offset` to the end, as a new array (empty past the end).
    func tail(from offset: Int) -> [UInt8] {
        offset >= count ? [] : Array(self[offset...])
    }
}

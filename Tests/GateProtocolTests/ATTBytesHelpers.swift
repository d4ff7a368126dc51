@testable import GateProtocol

/// Raw PDUs written as hex, the way BlueZ's unit/test-gatt.c writes them:
/// "0A 03 00" is a Read Request of handle 0x0003.
func hex(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

func hexText(_ bytes: [UInt8]) -> String {
    bytes.map { ATTUUID.hex(UInt64($0), digits: 2) }.joined(separator: " ")
}

/// The 128-bit UUIDs of seed 002's Appendix B as they go on the wire.
enum WireUUID {
    static let service = hex("FB 34 9B 5F 80 00 00 80 00 10 34 12 78 56 34 12")
    static let timingMessages = hex("FB 34 9B 5F 80 00 00 80 00 10 01 00 78 56 34 12")
    static let deviceInfo = hex("FB 34 9B 5F 80 00 00 80 00 10 02 00 78 56 34 12")
    static let clockSync = hex("FB 34 9B 5F 80 00 00 80 00 10 03 00 78 56 34 12")
}

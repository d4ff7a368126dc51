/// The box's GATT table: the GAP service, the GATT service, and seed 002's
/// timing service with the final UUIDs of its Appendix B. Both the server
/// (serving this table) and the client (finding it on a peer box) use the
/// UUIDs here, so the two sides cannot disagree.
///
///     handle  attribute
///     0x0001  primary service 0x1800 (GAP)
///     0x0002    characteristic: read, value 0x0003, Device Name 0x2A00
///     0x0003    the box's name ("ts-gate-3F2A")
///     0x0004    characteristic: read, value 0x0005, Appearance 0x2A01
///     0x0005    the appearance, 2 bytes
///     0x0006  primary service 0x1801 (GATT; no Service Changed: the table
///             never changes while the box runs)
///     0x0007  primary service 12345678-1234-1000-8000-00805F9B34FB
///     0x0008    characteristic: read, write, notify, value 0x0009, Timing Messages
///     0x0009    fragments of seed 002's JSON messages (FragmentHeader)
///     0x000A    CCCD
///     0x000B    characteristic: read, value 0x000C, Device Info
///     0x000C    Device Info JSON (seed 002 section 9); longer than MTU 23, read with Read Blob
///     0x000D    characteristic: write without response, write, notify, value 0x000E, Clock Sync
///     0x000E    clock sync packets (below)
///     0x000F    CCCD
///
/// Clock Sync: the GATT layer passes the bytes of a write through untouched
/// (`.written(clockSync, bytes, ...)`) and the box hands them to GateCore's
/// ClockSyncPacket.parse, which takes every size a phone may send after
/// reading the seed's contradictory sizes: 2 bytes (type, sequence), 10
/// (type, sequence, t1), 24 (section 2.1's t1 t2 t3 with no type), 25
/// (section 2.1's fields: type + t1 t2 t3) and 26 (section 3.3's PONG), plus
/// the box's own 11-byte FOLLOW_UP. No length check happens here beyond ATT's
/// 512 bytes, so no form is refused before the parser sees it. Write without
/// response is offered for it (as section 3.3 asks: lowest latency) and not
/// for Timing Messages, whose fragments must arrive acknowledged.
public enum GateGATTUUID {
    public static let service = ATTUUID(high: 0x1234_5678_1234_1000, low: 0x8000_0080_5F9B_34FB)
    public static let timingMessages = ATTUUID(high: 0x1234_5678_0001_1000, low: 0x8000_0080_5F9B_34FB)
    public static let deviceInfo = ATTUUID(high: 0x1234_5678_0002_1000, low: 0x8000_0080_5F9B_34FB)
    public static let clockSync = ATTUUID(high: 0x1234_5678_0003_1000, low: 0x8000_0080_5F9B_34FB)
}

public struct GateGATTService: Sendable {
    public let server: GATTServer
    public let deviceName: GATTCharacteristicID
    public let appearance: GATTCharacteristicID
    public let timingMessages: GATTCharacteristicID
    public let deviceInfo: GATTCharacteristicID
    public let clockSync: GATTCharacteristicID

    public static let timingMessagesProperties: GATTProperties = [.read, .write, .notify]
    public static let deviceInfoProperties: GATTProperties = [.read]
    public static let clockSyncProperties: GATTProperties = [.write, .writeWithoutResponse, .notify]

    /// `appearance` 0x0000 is "Unknown" (Assigned Numbers 2.6): no category fits a timing gate.
    public init(deviceName: String, appearance: UInt16 = 0x0000, serverMTU: Int = 512) {
        var builder = GATTDatabaseBuilder()
        builder.addPrimaryService(.genericAccessService)
        self.deviceName = builder.addCharacteristic(.deviceName, properties: .read, fixedValue: Array(deviceName.utf8))
        var appearanceBytes: [UInt8] = []
        appearanceBytes.appendLE(appearance)
        self.appearance = builder.addCharacteristic(.appearance, properties: .read, fixedValue: appearanceBytes)
        builder.addPrimaryService(.genericAttributeService)
        builder.addPrimaryService(GateGATTUUID.service)
        timingMessages = builder.addCharacteristic(GateGATTUUID.timingMessages, properties: Self.timingMessagesProperties)
        deviceInfo = builder.addCharacteristic(GateGATTUUID.deviceInfo, properties: Self.deviceInfoProperties)
        clockSync = builder.addCharacteristic(GateGATTUUID.clockSync, properties: Self.clockSyncProperties)
        server = GATTServer(database: builder.build(), serverMTU: serverMTU)
    }
}

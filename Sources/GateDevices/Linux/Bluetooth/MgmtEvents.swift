// The mgmt events the box acts on, parsed from the kernel's packets
// (mgmt-api.txt, "Management Events"). Anything else is `.other`, kept by
// code so a log can name it.

/// Read Controller Information's reply.
public struct ControllerInfo: Equatable, Sendable {
    public var index: UInt16
    public var address: BluetoothAddress
    /// The HCI version (6: 4.0, 9: 5.0 ...).
    public var hciVersion: UInt8
    public var manufacturer: UInt16
    public var supported: ControllerSettings
    public var current: ControllerSettings
    public var name: String

    /// hci0, as the kernel and every tool name it.
    public var deviceName: String { "hci" + String(index) }

    /// Parses the 280-byte reply; nil if it is short.
    public init?(index: UInt16, reply: ArraySlice<UInt8>) {
        let r = LittleEndianBytes(reply)
        guard r.count >= 280 else { return nil }
        self.index = index
        address = BluetoothAddress(bytes: Array(r.slice(0, 6)), type: .lePublic)
        hciVersion = r.u8(6)
        manufacturer = r.u16(7)
        supported = ControllerSettings(rawValue: r.u32(9))
        current = ControllerSettings(rawValue: r.u32(13))
        let nameBytes = r.slice(20, 249)
        name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// An LE Long Term Key the kernel made in pairing: a bond to keep.
public struct LongTermKey: Equatable, Sendable {
    public var address: BluetoothAddress
    /// The kernel wants it stored (the peer bonded), not only used.
    public var storeHint: Bool
    /// mgmt's key type (0/1 legacy, 2/3 P-256 unauthenticated/authenticated, 4 debug).
    public var keyType: UInt8
    public var central: Bool
    public var encryptionSize: UInt8
    public var ediv: UInt16
    public var rand: [UInt8]
    public var value: [UInt8]
}

/// Device Disconnected's reason, named (mgmt-api.txt).
public func mgmtDisconnectReasonName(_ reason: UInt8) -> String {
    switch reason {
    case 0x00: return "unspecified"
    case 0x01: return "connection timeout"
    case 0x02: return "terminated by this host"
    case 0x03: return "terminated by the peer"
    case 0x04: return "authentication failure"
    case 0x05: return "this host suspended"
    default: return "reason " + BluetoothAddress.hexByte(reason)
    }
}

public enum MgmtEvent: Equatable, Sendable {
    /// A command finished: its reply parameters follow the status.
    case commandComplete(index: UInt16, opcode: UInt16, status: MgmtStatus, reply: [UInt8])
    /// A command was refused before it started.
    case commandStatus(index: UInt16, opcode: UInt16, status: MgmtStatus)
    case indexAdded(index: UInt16)
    case indexRemoved(index: UInt16)
    case newSettings(index: UInt16, settings: ControllerSettings)
    /// A peer advertising (or answering a scan): its data, scan response merged.
    case deviceFound(index: UInt16, address: BluetoothAddress, rssi: Int8, advertising: AdvertisingData)
    case deviceConnected(index: UInt16, address: BluetoothAddress)
    case deviceDisconnected(index: UInt16, address: BluetoothAddress, reason: UInt8)
    case connectFailed(index: UInt16, address: BluetoothAddress, status: MgmtStatus)
    /// SMP asks whether to accept the pairing (Just Works or numeric comparison).
    case userConfirmRequest(index: UInt16, address: BluetoothAddress, confirmHint: UInt8, value: UInt32)
    case authenticationFailed(index: UInt16, address: BluetoothAddress, status: MgmtStatus)
    case newLongTermKey(index: UInt16, key: LongTermKey)
    case discovering(index: UInt16, active: Bool)
    case advertisingAdded(index: UInt16, instance: UInt8)
    case advertisingRemoved(index: UInt16, instance: UInt8)
    case other(index: UInt16, code: UInt16)

    /// Parses one packet as read from the socket; nil if it is truncated.
    public static func parse(_ packet: ArraySlice<UInt8>) -> MgmtEvent? {
        let header = LittleEndianBytes(packet)
        guard header.count >= 6 else { return nil }
        let code = header.u16(0), index = header.u16(2), length = Int(header.u16(4))
        guard header.count >= 6 + length else { return nil }
        let p = LittleEndianBytes(header.slice(6, length))
        func need(_ n: Int) -> Bool { p.count >= n }
        switch code {
        case 0x0001:
            guard need(3) else { return nil }
            return .commandComplete(index: index, opcode: p.u16(0), status: MgmtStatus(p.u8(2)), reply: Array(p.slice(3, p.count - 3)))
        case 0x0002:
            guard need(3) else { return nil }
            return .commandStatus(index: index, opcode: p.u16(0), status: MgmtStatus(p.u8(2)))
        case 0x0004: return .indexAdded(index: index)
        case 0x0005: return .indexRemoved(index: index)
        case 0x0006:
            guard need(4) else { return nil }
            return .newSettings(index: index, settings: ControllerSettings(rawValue: p.u32(0)))
        case 0x000A:
            guard need(37) else { return nil }
            let key = LongTermKey(address: p.addressInfo(1), storeHint: p.u8(0) != 0, keyType: p.u8(8), central: p.u8(9) != 0,
                                  encryptionSize: p.u8(10), ediv: p.u16(11), rand: Array(p.slice(13, 8)), value: Array(p.slice(21, 16)))
            return .newLongTermKey(index: index, key: key)
        case 0x000B:
            guard need(13) else { return nil }
            return .deviceConnected(index: index, address: p.addressInfo(0))
        case 0x000C:
            guard need(8) else { return nil }
            return .deviceDisconnected(index: index, address: p.addressInfo(0), reason: p.u8(7))
        case 0x000D:
            guard need(8) else { return nil }
            return .connectFailed(index: index, address: p.addressInfo(0), status: MgmtStatus(p.u8(7)))
        case 0x000F:
            guard need(12) else { return nil }
            return .userConfirmRequest(index: index, address: p.addressInfo(0), confirmHint: p.u8(7), value: p.u32(8))
        case 0x0011:
            guard need(8) else { return nil }
            return .authenticationFailed(index: index, address: p.addressInfo(0), status: MgmtStatus(p.u8(7)))
        case 0x0012:
            guard need(14) else { return nil }
            let dataLength = Int(p.u16(12))
            guard need(14 + dataLength) else { return nil }
            return .deviceFound(index: index, address: p.addressInfo(0), rssi: Int8(bitPattern: p.u8(7)),
                                advertising: AdvertisingData(parsing: p.slice(14, dataLength)))
        case 0x0013:
            guard need(2) else { return nil }
            return .discovering(index: index, active: p.u8(1) != 0)
        case 0x0023:
            guard need(1) else { return nil }
            return .advertisingAdded(index: index, instance: p.u8(0))
        case 0x0024:
            guard need(1) else { return nil }
            return .advertisingRemoved(index: index, instance: p.u8(0))
        default:
            return .other(index: index, code: code)
        }
    }

    public var index: UInt16 {
        switch self {
        case .commandComplete(let i, _, _, _), .commandStatus(let i, _, _), .indexAdded(let i), .indexRemoved(let i),
             .newSettings(let i, _), .deviceFound(let i, _, _, _), .deviceConnected(let i, _), .deviceDisconnected(let i, _, _),
             .connectFailed(let i, _, _), .userConfirmRequest(let i, _, _, _), .authenticationFailed(let i, _, _),
             .newLongTermKey(let i, _), .discovering(let i, _), .advertisingAdded(let i, _), .advertisingRemoved(let i, _),
             .other(let i, _):
            return i
        }
    }
}

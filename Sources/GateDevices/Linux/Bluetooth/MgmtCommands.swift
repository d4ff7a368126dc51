// The kernel's Bluetooth management protocol (HCI_CHANNEL_CONTROL), the
// part of it the box speaks: BlueZ's doc/mgmt-api.txt is the reference.
// bluetoothd is not on the box, so these are the only calls that power the
// controller, advertise, discover and answer pairing. Every packet is a
// 6-byte little-endian header (opcode or event code, controller index,
// parameter length) and its parameters.

/// The commands the box sends, as a table: opcode and name.
public enum MgmtOpcode: UInt16, Sendable, CaseIterable {
    case readVersion = 0x0001
    case readIndexList = 0x0003
    case readControllerInfo = 0x0004
    case setPowered = 0x0005
    case setConnectable = 0x0007
    case setBondable = 0x0009
    case setLE = 0x000D
    case setLocalName = 0x000F
    case loadLongTermKeys = 0x0013
    case disconnect = 0x0014
    case setIOCapability = 0x0018
    case userConfirmReply = 0x001C
    case userConfirmNegativeReply = 0x001D
    case startDiscovery = 0x0023
    case stopDiscovery = 0x0024
    case setSecureConnections = 0x002D
    case addAdvertising = 0x003E
    case removeAdvertising = 0x003F

    public var name: String {
        switch self {
        case .readVersion: return "Read Version"
        case .readIndexList: return "Read Index List"
        case .readControllerInfo: return "Read Controller Info"
        case .setPowered: return "Set Powered"
        case .setConnectable: return "Set Connectable"
        case .setBondable: return "Set Bondable"
        case .setLE: return "Set LE"
        case .setLocalName: return "Set Local Name"
        case .loadLongTermKeys: return "Load Long Term Keys"
        case .disconnect: return "Disconnect"
        case .setIOCapability: return "Set IO Capability"
        case .userConfirmReply: return "User Confirm Reply"
        case .userConfirmNegativeReply: return "User Confirm Negative Reply"
        case .startDiscovery: return "Start Discovery"
        case .stopDiscovery: return "Stop Discovery"
        case .setSecureConnections: return "Set Secure Connections"
        case .addAdvertising: return "Add Advertising"
        case .removeAdvertising: return "Remove Advertising"
        }
    }

    /// The name of any opcode, ours or not (a reply to someone else's command).
    public static func name(of raw: UInt16) -> String {
        MgmtOpcode(rawValue: raw)?.name ?? "mgmt command 0x" + BluetoothAddress.hexByte(UInt8(raw >> 8)) + BluetoothAddress.hexByte(UInt8(raw & 0xFF))
    }
}

/// A command's status (mgmt-api.txt, "Error Codes"), named for messages.
public struct MgmtStatus: Equatable, Sendable {
    public var rawValue: UInt8
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = MgmtStatus(0x00)
    public static let notConnected = MgmtStatus(0x02)
    public static let busy = MgmtStatus(0x0A)
    public static let rejected = MgmtStatus(0x0B)
    public static let notSupported = MgmtStatus(0x0C)
    public static let invalidParameters = MgmtStatus(0x0D)
    public static let notPowered = MgmtStatus(0x0F)
    public static let invalidIndex = MgmtStatus(0x11)
    public static let rfkilled = MgmtStatus(0x12)
    public static let permissionDenied = MgmtStatus(0x14)

    public var name: String {
        switch rawValue {
        case 0x00: return "Success"
        case 0x01: return "Unknown Command"
        case 0x02: return "Not Connected"
        case 0x03: return "Failed"
        case 0x04: return "Connect Failed"
        case 0x05: return "Authentication Failed"
        case 0x06: return "Not Paired"
        case 0x07: return "No Resources"
        case 0x08: return "Timeout"
        case 0x09: return "Already Connected"
        case 0x0A: return "Busy"
        case 0x0B: return "Rejected"
        case 0x0C: return "Not Supported"
        case 0x0D: return "Invalid Parameters"
        case 0x0E: return "Disconnected"
        case 0x0F: return "Not Powered"
        case 0x10: return "Cancelled"
        case 0x11: return "Invalid Index"
        case 0x12: return "RFKilled"
        case 0x13: return "Already Paired"
        case 0x14: return "Permission Denied"
        default: return "status 0x" + BluetoothAddress.hexByte(rawValue)
        }
    }
}

/// A controller's settings bitmask (mgmt-api.txt, Read Controller Information).
public struct ControllerSettings: OptionSet, Equatable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let powered = ControllerSettings(rawValue: 1 << 0)
    public static let connectable = ControllerSettings(rawValue: 1 << 1)
    public static let discoverable = ControllerSettings(rawValue: 1 << 3)
    public static let bondable = ControllerSettings(rawValue: 1 << 4)
    public static let bredr = ControllerSettings(rawValue: 1 << 7)
    public static let le = ControllerSettings(rawValue: 1 << 9)
    public static let advertising = ControllerSettings(rawValue: 1 << 10)
    public static let secureConnections = ControllerSettings(rawValue: 1 << 11)

    /// The settings named, for logs: "powered le bondable".
    public var names: String {
        let all: [(ControllerSettings, String)] = [(.powered, "powered"), (.connectable, "connectable"), (.discoverable, "discoverable"),
            (.bondable, "bondable"), (.bredr, "br/edr"), (.le, "le"), (.advertising, "advertising"), (.secureConnections, "secure-conn")]
        return all.filter { contains($0.0) }.map { $0.1 }.joined(separator: " ")
    }
}

/// What Set IO Capability takes: the pairing method SMP will choose follows.
public enum IOCapability: UInt8, Sendable {
    case displayOnly = 0, displayYesNo = 1, keyboardOnly = 2, noInputNoOutput = 3, keyboardDisplay = 4
}

/// Start Discovery's address types: bit 1 LE public, bit 2 LE random.
public let mgmtDiscoveryLE: UInt8 = 0x06

/// Add Advertising's flags the box uses.
public struct AdvertisingFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let connectable = AdvertisingFlags(rawValue: 1 << 0)
    /// The kernel puts the general-discoverable Flags AD in front of the data.
    public static let discoverable = AdvertisingFlags(rawValue: 1 << 1)
}

public let mgmtIndexNone: UInt16 = 0xFFFF

/// One command, encoded: header and parameters, ready for write().
public struct MgmtCommand: Equatable, Sendable {
    public var opcode: MgmtOpcode
    public var index: UInt16
    public var parameters: [UInt8]

    public init(_ opcode: MgmtOpcode, index: UInt16, _ parameters: [UInt8] = []) {
        self.opcode = opcode
        self.index = index
        self.parameters = parameters
    }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(6 + parameters.count)
        LittleEndianBytes.append(opcode.rawValue, to: &out)
        LittleEndianBytes.append(index, to: &out)
        LittleEndianBytes.append(UInt16(parameters.count), to: &out)
        out.append(contentsOf: parameters)
        return out
    }

    public static func readControllerInfo(_ index: UInt16) -> MgmtCommand { MgmtCommand(.readControllerInfo, index: index) }
    public static func readIndexList() -> MgmtCommand { MgmtCommand(.readIndexList, index: mgmtIndexNone) }
    public static func setPowered(_ index: UInt16, _ on: Bool) -> MgmtCommand { MgmtCommand(.setPowered, index: index, [on ? 1 : 0]) }
    public static func setLE(_ index: UInt16, _ on: Bool) -> MgmtCommand { MgmtCommand(.setLE, index: index, [on ? 1 : 0]) }
    public static func setBondable(_ index: UInt16, _ on: Bool) -> MgmtCommand { MgmtCommand(.setBondable, index: index, [on ? 1 : 0]) }
    public static func setConnectable(_ index: UInt16, _ on: Bool) -> MgmtCommand { MgmtCommand(.setConnectable, index: index, [on ? 1 : 0]) }
    /// 0 off, 1 on, 2 Secure Connections only.
    public static func setSecureConnections(_ index: UInt16, _ mode: UInt8) -> MgmtCommand { MgmtCommand(.setSecureConnections, index: index, [mode]) }
    public static func setIOCapability(_ index: UInt16, _ capability: IOCapability) -> MgmtCommand {
        MgmtCommand(.setIOCapability, index: index, [capability.rawValue])
    }
    /// The bonds kept in the bonded peers' file, given back to the kernel at
    /// power-on (without bluetoothd nothing else remembers them). Replaces
    /// the kernel's list.
    public static func loadLongTermKeys(_ index: UInt16, _ keys: [LongTermKey]) -> MgmtCommand {
        var p: [UInt8] = []
        LittleEndianBytes.append(UInt16(keys.count), to: &p)
        for key in keys {
            p.append(contentsOf: key.address.bytes)
            p.append(key.address.type.rawValue)
            p.append(key.keyType)
            p.append(key.central ? 1 : 0)
            p.append(key.encryptionSize)
            LittleEndianBytes.append(key.ediv, to: &p)
            p.append(contentsOf: key.rand)
            p.append(contentsOf: key.value)
        }
        return MgmtCommand(.loadLongTermKeys, index: index, p)
    }

    public static func userConfirmReply(_ index: UInt16, _ address: BluetoothAddress, accept: Bool) -> MgmtCommand {
        MgmtCommand(accept ? .userConfirmReply : .userConfirmNegativeReply, index: index, address.bytes + [address.type.rawValue])
    }
    public static func startDiscovery(_ index: UInt16) -> MgmtCommand { MgmtCommand(.startDiscovery, index: index, [mgmtDiscoveryLE]) }
    public static func stopDiscovery(_ index: UInt16) -> MgmtCommand { MgmtCommand(.stopDiscovery, index: index, [mgmtDiscoveryLE]) }
    public static func disconnect(_ index: UInt16, _ address: BluetoothAddress) -> MgmtCommand {
        MgmtCommand(.disconnect, index: index, address.bytes + [address.type.rawValue])
    }

    /// Add Advertising: instance (1...), flags, no duration or timeout (for
    /// as long as it stays added), the advertising data and scan response.
    public static func addAdvertising(_ index: UInt16, instance: UInt8, flags: AdvertisingFlags,
                                      advertisingData: [UInt8], scanResponse: [UInt8]) -> MgmtCommand {
        var p: [UInt8] = [instance]
        LittleEndianBytes.append(flags.rawValue, to: &p)
        LittleEndianBytes.append(UInt16(0), to: &p)   // duration: the kernel's default
        LittleEndianBytes.append(UInt16(0), to: &p)   // timeout: none
        p.append(UInt8(advertisingData.count))
        p.append(UInt8(scanResponse.count))
        p += advertisingData
        p += scanResponse
        return MgmtCommand(.addAdvertising, index: index, p)
    }

    /// Instance 0 removes every instance.
    public static func removeAdvertising(_ index: UInt16, instance: UInt8) -> MgmtCommand {
        MgmtCommand(.removeAdvertising, index: index, [instance])
    }
}

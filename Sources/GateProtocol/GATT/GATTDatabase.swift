/// The attribute table a GATT server serves (Core Spec Vol 3 Part G 3):
/// service declarations, characteristic declarations, values and CCCDs, at
/// contiguous handles from 1, built once at start-up and shared by every link.
/// Values the box changes at run time are not stored here: the attribute
/// names its characteristic and the server asks the box (GATTValueSource).

/// The properties byte of a characteristic declaration (Part G 3.3.1.1).
public struct GATTProperties: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let broadcast = GATTProperties(rawValue: 0x01)
    public static let read = GATTProperties(rawValue: 0x02)
    public static let writeWithoutResponse = GATTProperties(rawValue: 0x04)
    public static let write = GATTProperties(rawValue: 0x08)
    public static let notify = GATTProperties(rawValue: 0x10)
    public static let indicate = GATTProperties(rawValue: 0x20)
}

/// A characteristic, named by its value handle (stable for the database's life).
public struct GATTCharacteristicID: Hashable, Sendable {
    public var valueHandle: UInt16
    public init(valueHandle: UInt16) { self.valueHandle = valueHandle }
}

/// Where an attribute's value comes from.
public enum GATTAttributeValue: Equatable, Sendable {
    /// Fixed at build time: declarations, the device name, the appearance.
    case fixed([UInt8])
    /// A characteristic value the box provides and consumes.
    case characteristic(GATTCharacteristicID)
    /// The link's Client Characteristic Configuration of a characteristic.
    case cccd(GATTCharacteristicID)
}

public struct GATTAttribute: Equatable, Sendable {
    public let handle: UInt16
    public let type: ATTUUID
    public let value: GATTAttributeValue
    public let readable: Bool
    public let writable: Bool
    public let writableWithoutResponse: Bool
    /// The last handle of the group a service declaration opens; the
    /// attribute's own handle for every other attribute.
    public let groupEnd: UInt16
}

/// What a characteristic is, for the server's checks and the box's lookups.
public struct GATTCharacteristicRecord: Equatable, Sendable {
    public let id: GATTCharacteristicID
    public let uuid: ATTUUID
    public let properties: GATTProperties
    public let declarationHandle: UInt16
    public let cccdHandle: UInt16?
}

public struct GATTDatabase: Sendable {
    /// Attribute `h` sits at index `h - 1`.
    public let attributes: [GATTAttribute]
    public let characteristics: [GATTCharacteristicRecord]

    /// The attribute at `handle`, or nil (0 and past the end are invalid).
    public func attribute(_ handle: UInt16) -> GATTAttribute? {
        guard handle >= 1, Int(handle) <= attributes.count else { return nil }
        return attributes[Int(handle) - 1]
    }

    public func characteristic(_ id: GATTCharacteristicID) -> GATTCharacteristicRecord? {
        for record in characteristics where record.id == id { return record }
        return nil
    }

    /// The first characteristic with this UUID.
    public func characteristic(uuid: ATTUUID) -> GATTCharacteristicRecord? {
        for record in characteristics where record.uuid == uuid { return record }
        return nil
    }

    /// The handles from `start` to `end` that exist, for the range requests.
    func handles(from start: UInt16, through end: UInt16) -> ClosedRange<Int>? {
        let last = min(Int(end), attributes.count)
        guard Int(start) <= last else { return nil }
        return Int(start)...last
    }
}

/// Builds a database service by service, handles in order of addition.
public struct GATTDatabaseBuilder {
    private var attributes: [GATTAttribute] = []
    private var characteristics: [GATTCharacteristicRecord] = []
    private var openService: Int?

    public init() {}

    private var nextHandle: UInt16 { UInt16(attributes.count + 1) }

    /// Opens a primary service; the characteristics added next belong to it.
    public mutating func addPrimaryService(_ uuid: ATTUUID) {
        closeService()
        var value: [UInt8] = []
        uuid.append(to: &value)
        openService = attributes.count
        append(type: .primaryService, value: .fixed(value), readable: true)
    }

    /// Adds a characteristic's declaration, its value and, when it notifies
    /// or indicates, its CCCD. `fixedValue` nil: the box provides the value.
    @discardableResult
    public mutating func addCharacteristic(_ uuid: ATTUUID, properties: GATTProperties, fixedValue: [UInt8]? = nil) -> GATTCharacteristicID {
        let declaration = nextHandle
        let id = GATTCharacteristicID(valueHandle: declaration + 1)
        var declared: [UInt8] = [properties.rawValue]
        declared.appendLE(id.valueHandle)
        uuid.append(to: &declared)
        append(type: .characteristic, value: .fixed(declared), readable: true)
        append(type: uuid, value: fixedValue.map { GATTAttributeValue.fixed($0) } ?? .characteristic(id),
               readable: properties.contains(.read),
               writable: properties.contains(.write),
               writableWithoutResponse: properties.contains(.writeWithoutResponse))
        var cccd: UInt16?
        if !properties.isDisjoint(with: [.notify, .indicate]) {
            cccd = nextHandle
            append(type: .clientCharacteristicConfiguration, value: .cccd(id), readable: true, writable: true)
        }
        characteristics.append(GATTCharacteristicRecord(id: id, uuid: uuid, properties: properties,
                                                        declarationHandle: declaration, cccdHandle: cccd))
        return id
    }

    public mutating func build() -> GATTDatabase {
        closeService()
        return GATTDatabase(attributes: attributes, characteristics: characteristics)
    }

    private mutating func append(type: ATTUUID, value: GATTAttributeValue, readable: Bool,
                                 writable: Bool = false, writableWithoutResponse: Bool = false) {
        let handle = nextHandle
        attributes.append(GATTAttribute(handle: handle, type: type, value: value, readable: readable, writable: writable,
                                        writableWithoutResponse: writableWithoutResponse, groupEnd: handle))
    }

    /// Sets the open service declaration's group end to the last handle added.
    private mutating func closeService() {
        guard let index = openService else { return }
        let declaration = attributes[index]
        attributes[index] = GATTAttribute(handle: declaration.handle, type: declaration.type, value: declaration.value,
                                          readable: declaration.readable, writable: false, writableWithoutResponse: false,
                                          groupEnd: UInt16(attributes.count))
        openService = nil
    }
}

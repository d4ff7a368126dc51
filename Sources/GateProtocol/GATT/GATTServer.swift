/// The GATT server: one received ATT PDU in, the PDU to send back and the
/// effects on the box out (Core Spec Vol 3 Part F 3.4 and Part G 4). It owns
/// no socket and no link: the loop passes the link's state and the box's
/// value source with each PDU, so one server serves every connection.
///
/// What it answers: Exchange MTU, Find Information, Find By Type Value, Read
/// By Type, Read, Read Blob, Read By Group Type, Write, Prepare and Execute
/// Write (GATTServerWrites.swift). Every other request gets Request Not
/// Supported; a malformed one, Invalid PDU. Commands it does not serve
/// (Signed Write, unknown opcodes with bit 6 set) are dropped unanswered, as
/// Part F 3.3 requires: a command has no response, not even an error.
public struct GATTServer: Sendable {
    public let database: GATTDatabase
    /// The receive MTU this box offers: 512 (seed 002 section 2.3), enough
    /// for a whole 512-byte attribute value in a notification or write.
    public let serverMTU: Int
    /// Prepared writes one link may queue before Prepare Queue Full.
    public let prepareQueueLimit: Int

    public init(database: GATTDatabase, serverMTU: Int = 512, prepareQueueLimit: Int = 64) {
        self.database = database
        self.serverMTU = serverMTU
        self.prepareQueueLimit = prepareQueueLimit
    }

    /// The longest attribute value ATT allows (Part F 3.2.9).
    public static let maxValueLength = 512

    /// Handles one PDU received on a link.
    public func handle<Source: GATTValueSource>(_ bytes: [UInt8], link: inout GATTServerLink,
                                                source: inout Source) -> GATTServerOutput {
        guard let opcode = bytes.first else { return GATTServerOutput() }
        switch ATTOpcode.kind(opcode) {
        case .command:
            // Only Write Command is served; a malformed or refused one is dropped too.
            if opcode == ATTOpcode.writeCommand, case .writeCommand(let handle, let value)? = try? ATTPDU.decode(bytes) {
                return GATTServerOutput(effects: writeCommand(handle: handle, value: value, link: &link, source: &source))
            }
            return GATTServerOutput()
        case .request:
            break
        case .response, .notification, .indication, .confirmation:
            // Not the server's: the client takes responses and notifications,
            // and this server sends no indications to be confirmed.
            return GATTServerOutput()
        }
        guard let row = ATTOpcode.info(opcode), row.served else {
            return GATTServerOutput(response: Self.error(opcode, 0, .requestNotSupported))
        }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.decode(bytes)
        } catch {
            return GATTServerOutput(response: Self.error(opcode, 0, .invalidPDU))
        }
        var effects: [GATTServerEffect] = []
        let response: ATTPDU
        do {
            response = try answer(pdu, link: &link, source: &source, effects: &effects)
        } catch {
            return GATTServerOutput(response: Self.error(opcode, error.handle, error.code))
        }
        return GATTServerOutput(response: response.encoded(), effects: effects)
    }

    /// An Error Response's bytes.
    static func error(_ request: UInt8, _ handle: UInt16, _ code: ATTErrorCode) -> [UInt8] {
        ATTPDU.errorResponse(request: request, handle: handle, error: code).encoded()
    }

    private func answer<Source: GATTValueSource>(_ pdu: ATTPDU, link: inout GATTServerLink, source: inout Source,
                                                 effects: inout [GATTServerEffect]) throws(GATTRefusal) -> ATTPDU {
        switch pdu {
        case .exchangeMTURequest(let clientMTU):
            if link.settleMTU(clientMTU: Int(clientMTU), serverMTU: serverMTU) { effects.append(.mtuChanged(link.mtu)) }
            return .exchangeMTUResponse(serverMTU: UInt16(serverMTU))
        case .findInformationRequest(let start, let end):
            return try findInformation(start: start, end: end, link: link)
        case .findByTypeValueRequest(let start, let end, let type, let value):
            return try findByTypeValue(start: start, end: end, type: ATTUUID(type), value: value, link: link, source: &source)
        case .readByTypeRequest(let start, let end, let type):
            return try readByType(start: start, end: end, type: type, link: link, source: &source)
        case .readRequest(let handle):
            let value = try read(handle, link: link, source: &source)
            return .readResponse(Array(value.prefix(link.mtu - 1)))
        case .readBlobRequest(let handle, let offset):
            return try readBlob(handle: handle, offset: Int(offset), link: link, source: &source)
        case .readByGroupTypeRequest(let start, let end, let type):
            return try readByGroupType(start: start, end: end, type: type, link: link)
        case .writeRequest(let handle, let value):
            effects.append(try write(handle: handle, value: value, withResponse: true, link: &link, source: &source))
            return .writeResponse
        case .prepareWriteRequest(let handle, let offset, let value):
            try prepareWrite(handle: handle, offset: Int(offset), value: value, link: &link, source: &source)
            return .prepareWriteResponse(handle: handle, offset: offset, value: value)
        case .executeWriteRequest(let write):
            effects.append(contentsOf: try executeWrite(write, link: &link))
            return .executeWriteResponse
        default:
            throw GATTRefusal(0, .requestNotSupported)
        }
    }

    /// Checks a range request's handles (Part F 3.4.3.1: 0 or start > end is
    /// Invalid Handle, with the start handle in the error).
    private func range(_ start: UInt16, _ end: UInt16) throws(GATTRefusal) -> ClosedRange<Int> {
        guard start != 0, start <= end else { throw GATTRefusal(start, .invalidHandle) }
        guard let range = database.handles(from: start, through: end) else { throw GATTRefusal(start, .attributeNotFound) }
        return range
    }

    private func findInformation(start: UInt16, end: UInt16, link: GATTServerLink) throws(GATTRefusal) -> ATTPDU {
        var entries: [ATTHandleUUID] = []
        var used = 2
        for index in try range(start, end) {
            let attribute = database.attributes[index - 1]
            let size = 2 + attribute.type.wireCount
            // One format per response: stop where the UUID size changes.
            if let first = entries.first, first.uuid.wireCount != attribute.type.wireCount { break }
            if used + size > link.mtu { break }
            entries.append(ATTHandleUUID(handle: attribute.handle, uuid: attribute.type))
            used += size
        }
        guard !entries.isEmpty else { throw GATTRefusal(start, .attributeNotFound) }
        return .findInformationResponse(entries)
    }

    private func findByTypeValue<Source: GATTValueSource>(start: UInt16, end: UInt16, type: ATTUUID, value: [UInt8],
                                                          link: GATTServerLink, source: inout Source) throws(GATTRefusal) -> ATTPDU {
        var groups: [ATTGroup] = []
        for index in try range(start, end) {
            let attribute = database.attributes[index - 1]
            guard attribute.type == type, (try? read(attribute.handle, link: link, source: &source)) == value else { continue }
            if 1 + 4 * (groups.count + 1) > link.mtu { break }
            groups.append(ATTGroup(start: attribute.handle, end: attribute.groupEnd))
        }
        guard !groups.isEmpty else { throw GATTRefusal(start, .attributeNotFound) }
        return .findByTypeValueResponse(groups)
    }

    private func readByType<Source: GATTValueSource>(start: UInt16, end: UInt16, type: ATTUUID, link: GATTServerLink,
                                                     source: inout Source) throws(GATTRefusal) -> ATTPDU {
        var entries: [ATTHandleValue] = []
        // A value longer than fits is cut (Part F 3.4.4.2); the rest is read with Read Blob.
        let longest = min(link.mtu - 4, 253)
        var used = 2
        for index in try range(start, end) {
            let attribute = database.attributes[index - 1]
            guard attribute.type == type else { continue }
            let value: [UInt8]
            do {
                value = try read(attribute.handle, link: link, source: &source)
            } catch {
                // Only the first match's refusal is the answer; later ones end the list.
                if entries.isEmpty { throw error }
                break
            }
            let cut = Array(value.prefix(longest))
            if let first = entries.first, first.value.count != cut.count { break }
            if used + 2 + cut.count > link.mtu { break }
            entries.append(ATTHandleValue(handle: attribute.handle, value: cut))
            used += 2 + cut.count
        }
        guard !entries.isEmpty else { throw GATTRefusal(start, .attributeNotFound) }
        return .readByTypeResponse(entries)
    }

    private func readByGroupType(start: UInt16, end: UInt16, type: ATTUUID, link: GATTServerLink) throws(GATTRefusal) -> ATTPDU {
        let range = try range(start, end)
        guard type == .primaryService || type == .secondaryService else { throw GATTRefusal(start, .unsupportedGroupType) }
        var groups: [ATTGroup] = []
        var used = 2
        for index in range {
            let attribute = database.attributes[index - 1]
            guard attribute.type == type, case .fixed(let value) = attribute.value else { continue }
            let cut = Array(value.prefix(min(link.mtu - 6, 251)))
            if let first = groups.first, first.value.count != cut.count { break }
            if used + 4 + cut.count > link.mtu { break }
            groups.append(ATTGroup(start: attribute.handle, end: attribute.groupEnd, value: cut))
            used += 4 + cut.count
        }
        guard !groups.isEmpty else { throw GATTRefusal(start, .attributeNotFound) }
        return .readByGroupTypeResponse(groups)
    }

    private func readBlob<Source: GATTValueSource>(handle: UInt16, offset: Int, link: GATTServerLink,
                                                   source: inout Source) throws(GATTRefusal) -> ATTPDU {
        let value = try read(handle, link: link, source: &source)
        // A short value of fixed length is "not long" (Part F 3.4.4.5): the
        // declarations, the CCCDs and the fixed GAP values. A characteristic
        // the box provides may grow, so any offset up to its length is served.
        if let attribute = database.attribute(handle), attribute.isFixedLength, value.count <= link.mtu - 3 {
            throw GATTRefusal(handle, .attributeNotLong)
        }
        guard offset <= value.count else { throw GATTRefusal(handle, .invalidOffset) }
        let end = min(value.count, offset + link.mtu - 1)
        return .readBlobResponse(Array(value[offset..<end]))
    }

    /// An attribute's value as this link may read it.
    func read<Source: GATTValueSource>(_ handle: UInt16, link: GATTServerLink,
                                       source: inout Source) throws(GATTRefusal) -> [UInt8] {
        guard let attribute = database.attribute(handle) else { throw GATTRefusal(handle, .invalidHandle) }
        guard attribute.readable else { throw GATTRefusal(handle, .readNotPermitted) }
        switch attribute.value {
        case .fixed(let value):
            return value
        case .cccd(let characteristic):
            let subscription = link.subscription(characteristic)
            return [(subscription.notify ? 0x01 : 0) | (subscription.indicate ? 0x02 : 0), 0x00]
        case .characteristic(let characteristic):
            if let refusal = source.authorize(.read, of: characteristic) { throw GATTRefusal(handle, refusal) }
            return source.value(of: characteristic)
        }
    }
}

/// A refused request: the handle and code its Error Response carries.
struct GATTRefusal: Error {
    var handle: UInt16
    var code: ATTErrorCode
    init(_ handle: UInt16, _ code: ATTErrorCode) { self.handle = handle; self.code = code }
}

extension GATTAttribute {
    /// Declarations, CCCDs and fixed values never change length.
    var isFixedLength: Bool {
        switch value {
        case .fixed, .cccd: return true
        case .characteristic: return false
        }
    }
}

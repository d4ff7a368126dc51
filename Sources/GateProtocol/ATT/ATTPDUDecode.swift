/// Reading ATT PDUs from bytes: the opcode table's lengths first, then each
/// PDU's own structure (list entries of one size, UUIDs of 2 or 16 bytes).
/// A request that fails here gets an Invalid PDU error from the server.

/// Why bytes are not a well-formed PDU.
public enum ATTDecodeError: Error, Equatable, Sendable {
    case empty
    /// Too short, too long, or a list that does not divide into entries.
    case malformed(opcode: UInt8)

    public var description: String {
        switch self {
        case .empty: return "an empty ATT PDU"
        case .malformed(let opcode):
            let name = ATTOpcode.info(opcode)?.name ?? "opcode 0x" + ATTUUID.hex(UInt64(opcode), digits: 2)
            return name + ": malformed"
        }
    }
}

extension ATTPDU {
    public static func decode(_ bytes: [UInt8]) throws(ATTDecodeError) -> ATTPDU {
        guard let opcode = bytes.first else { throw .empty }
        guard let row = ATTOpcode.info(opcode) else { return .other(opcode: opcode, parameters: bytes.tail(from: 1)) }
        let bad = ATTDecodeError.malformed(opcode: opcode)
        guard bytes.count >= row.minCount else { throw bad }
        if let most = row.maxCount, bytes.count > most { throw bad }
        let n = bytes.count

        switch opcode {
        case ATTOpcode.errorResponse:
            return .errorResponse(request: bytes[1], handle: bytes.le16(at: 2), error: ATTErrorCode(bytes[4]))
        case ATTOpcode.exchangeMTURequest:
            return .exchangeMTURequest(clientMTU: bytes.le16(at: 1))
        case ATTOpcode.exchangeMTUResponse:
            return .exchangeMTUResponse(serverMTU: bytes.le16(at: 1))
        case ATTOpcode.findInformationRequest:
            return .findInformationRequest(start: bytes.le16(at: 1), end: bytes.le16(at: 3))
        case ATTOpcode.findInformationResponse:
            let uuidCount: Int
            switch bytes[1] {
            case 0x01: uuidCount = 2
            case 0x02: uuidCount = 16
            default: throw bad
            }
            let entry = 2 + uuidCount
            guard (n - 2) % entry == 0 else { throw bad }
            var entries: [ATTHandleUUID] = []
            var at = 2
            while at < n {
                guard let uuid = ATTUUID(wire: bytes[(at + 2)..<(at + entry)]) else { throw bad }
                entries.append(ATTHandleUUID(handle: bytes.le16(at: at), uuid: uuid))
                at += entry
            }
            return .findInformationResponse(entries)
        case ATTOpcode.findByTypeValueRequest:
            return .findByTypeValueRequest(start: bytes.le16(at: 1), end: bytes.le16(at: 3), type: bytes.le16(at: 5),
                                           value: bytes.tail(from: 7))
        case ATTOpcode.findByTypeValueResponse:
            guard (n - 1) % 4 == 0 else { throw bad }
            var groups: [ATTGroup] = []
            var at = 1
            while at < n {
                groups.append(ATTGroup(start: bytes.le16(at: at), end: bytes.le16(at: at + 2)))
                at += 4
            }
            return .findByTypeValueResponse(groups)
        case ATTOpcode.readByTypeRequest, ATTOpcode.readByGroupTypeRequest:
            guard let type = ATTUUID(wire: bytes[5...]) else { throw bad }
            let start = bytes.le16(at: 1)
            let end = bytes.le16(at: 3)
            return opcode == ATTOpcode.readByTypeRequest
                ? .readByTypeRequest(start: start, end: end, type: type)
                : .readByGroupTypeRequest(start: start, end: end, type: type)
        case ATTOpcode.readByTypeResponse:
            let entry = Int(bytes[1])
            guard entry >= 2, (n - 2) % entry == 0 else { throw bad }
            var entries: [ATTHandleValue] = []
            var at = 2
            while at < n {
                entries.append(ATTHandleValue(handle: bytes.le16(at: at), value: Array(bytes[(at + 2)..<(at + entry)])))
                at += entry
            }
            return .readByTypeResponse(entries)
        case ATTOpcode.readRequest:
            return .readRequest(handle: bytes.le16(at: 1))
        case ATTOpcode.readResponse:
            return .readResponse(bytes.tail(from: 1))
        case ATTOpcode.readBlobRequest:
            return .readBlobRequest(handle: bytes.le16(at: 1), offset: bytes.le16(at: 3))
        case ATTOpcode.readBlobResponse:
            return .readBlobResponse(bytes.tail(from: 1))
        case ATTOpcode.readMultipleRequest:
            guard (n - 1) % 2 == 0 else { throw bad }
            return .readMultipleRequest(stride(from: 1, to: n, by: 2).map { bytes.le16(at: $0) })
        case ATTOpcode.readMultipleResponse:
            return .readMultipleResponse(bytes.tail(from: 1))
        case ATTOpcode.readByGroupTypeResponse:
            let entry = Int(bytes[1])
            guard entry >= 4, (n - 2) % entry == 0 else { throw bad }
            var groups: [ATTGroup] = []
            var at = 2
            while at < n {
                groups.append(ATTGroup(start: bytes.le16(at: at), end: bytes.le16(at: at + 2),
                                       value: Array(bytes[(at + 4)..<(at + entry)])))
                at += entry
            }
            return .readByGroupTypeResponse(groups)
        case ATTOpcode.writeRequest:
            return .writeRequest(handle: bytes.le16(at: 1), value: bytes.tail(from: 3))
        case ATTOpcode.writeResponse:
            return .writeResponse
        case ATTOpcode.writeCommand:
            return .writeCommand(handle: bytes.le16(at: 1), value: bytes.tail(from: 3))
        case ATTOpcode.signedWriteCommand:
            return .signedWriteCommand(handle: bytes.le16(at: 1), value: Array(bytes[3..<(n - 12)]),
                                       signature: Array(bytes[(n - 12)...]))
        case ATTOpcode.prepareWriteRequest:
            return .prepareWriteRequest(handle: bytes.le16(at: 1), offset: bytes.le16(at: 3), value: bytes.tail(from: 5))
        case ATTOpcode.prepareWriteResponse:
            return .prepareWriteResponse(handle: bytes.le16(at: 1), offset: bytes.le16(at: 3), value: bytes.tail(from: 5))
        case ATTOpcode.executeWriteRequest:
            switch bytes[1] {
            case 0x00: return .executeWriteRequest(write: false)
            case 0x01: return .executeWriteRequest(write: true)
            default: throw bad
            }
        case ATTOpcode.executeWriteResponse:
            return .executeWriteResponse
        case ATTOpcode.handleValueNotification:
            return .notification(handle: bytes.le16(at: 1), value: bytes.tail(from: 3))
        case ATTOpcode.handleValueIndication:
            return .indication(handle: bytes.le16(at: 1), value: bytes.tail(from: 3))
        case ATTOpcode.handleValueConfirmation:
            return .confirmation
        default:
            return .other(opcode: opcode, parameters: bytes.tail(from: 1))
        }
    }
}

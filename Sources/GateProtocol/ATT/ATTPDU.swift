/// Every ATT PDU as a value, and its bytes (Core Spec Vol 3 Part F 3.4).
/// The server and client build and read PDUs only through this type, so the
/// byte layout lives in this file and ATTPDUDecode.swift and nowhere else.

/// A handle and a UUID: one entry of a Find Information Response.
public struct ATTHandleUUID: Equatable, Sendable {
    public var handle: UInt16
    public var uuid: ATTUUID
    public init(handle: UInt16, uuid: ATTUUID) { self.handle = handle; self.uuid = uuid }
}

/// A handle and a value: one entry of a Read By Type Response.
public struct ATTHandleValue: Equatable, Sendable {
    public var handle: UInt16
    public var value: [UInt8]
    public init(handle: UInt16, value: [UInt8]) { self.handle = handle; self.value = value }
}

/// A group: one entry of a Read By Group Type Response (`value` is the
/// service UUID) or of a Find By Type Value Response (`value` empty).
public struct ATTGroup: Equatable, Sendable {
    public var start: UInt16
    public var end: UInt16
    public var value: [UInt8]
    public init(start: UInt16, end: UInt16, value: [UInt8] = []) { self.start = start; self.end = end; self.value = value }
}

public enum ATTPDU: Equatable, Sendable {
    case errorResponse(request: UInt8, handle: UInt16, error: ATTErrorCode)
    case exchangeMTURequest(clientMTU: UInt16)
    case exchangeMTUResponse(serverMTU: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    /// All entries share one UUID size (format 1: 16-bit, 2: 128-bit).
    case findInformationResponse([ATTHandleUUID])
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    case findByTypeValueResponse([ATTGroup])
    case readByTypeRequest(start: UInt16, end: UInt16, type: ATTUUID)
    /// All values share one length.
    case readByTypeResponse([ATTHandleValue])
    case readRequest(handle: UInt16)
    case readResponse([UInt8])
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse([UInt8])
    case readMultipleRequest([UInt16])
    case readMultipleResponse([UInt8])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: ATTUUID)
    /// All values share one length.
    case readByGroupTypeResponse([ATTGroup])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    case signedWriteCommand(handle: UInt16, value: [UInt8], signature: [UInt8])
    case prepareWriteRequest(handle: UInt16, offset: UInt16, value: [UInt8])
    case prepareWriteResponse(handle: UInt16, offset: UInt16, value: [UInt8])
    /// `write` false cancels the queue, true writes it (flags 0x00 / 0x01).
    case executeWriteRequest(write: Bool)
    case executeWriteResponse
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation
    /// An opcode this codec knows by name only (Read Multiple Variable, ...)
    /// or not at all: kept whole so it can still be answered or dropped.
    case other(opcode: UInt8, parameters: [UInt8])

    public var opcode: UInt8 {
        switch self {
        case .errorResponse: return ATTOpcode.errorResponse
        case .exchangeMTURequest: return ATTOpcode.exchangeMTURequest
        case .exchangeMTUResponse: return ATTOpcode.exchangeMTUResponse
        case .findInformationRequest: return ATTOpcode.findInformationRequest
        case .findInformationResponse: return ATTOpcode.findInformationResponse
        case .findByTypeValueRequest: return ATTOpcode.findByTypeValueRequest
        case .findByTypeValueResponse: return ATTOpcode.findByTypeValueResponse
        case .readByTypeRequest: return ATTOpcode.readByTypeRequest
        case .readByTypeResponse: return ATTOpcode.readByTypeResponse
        case .readRequest: return ATTOpcode.readRequest
        case .readResponse: return ATTOpcode.readResponse
        case .readBlobRequest: return ATTOpcode.readBlobRequest
        case .readBlobResponse: return ATTOpcode.readBlobResponse
        case .readMultipleRequest: return ATTOpcode.readMultipleRequest
        case .readMultipleResponse: return ATTOpcode.readMultipleResponse
        case .readByGroupTypeRequest: return ATTOpcode.readByGroupTypeRequest
        case .readByGroupTypeResponse: return ATTOpcode.readByGroupTypeResponse
        case .writeRequest: return ATTOpcode.writeRequest
        case .writeResponse: return ATTOpcode.writeResponse
        case .writeCommand: return ATTOpcode.writeCommand
        case .signedWriteCommand: return ATTOpcode.signedWriteCommand
        case .prepareWriteRequest: return ATTOpcode.prepareWriteRequest
        case .prepareWriteResponse: return ATTOpcode.prepareWriteResponse
        case .executeWriteRequest: return ATTOpcode.executeWriteRequest
        case .executeWriteResponse: return ATTOpcode.executeWriteResponse
        case .notification: return ATTOpcode.handleValueNotification
        case .indication: return ATTOpcode.handleValueIndication
        case .confirmation: return ATTOpcode.handleValueConfirmation
        case .other(let opcode, _): return opcode
        }
    }

    /// The PDU's bytes. The caller keeps them within the MTU; responses the
    /// server builds are cut to it before they get here.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [opcode]
        switch self {
        case .errorResponse(let request, let handle, let error):
            out.append(request)
            out.appendLE(handle)
            out.append(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            out.appendLE(mtu)
        case .findInformationRequest(let start, let end):
            out.appendLE(start)
            out.appendLE(end)
        case .findInformationResponse(let entries):
            let long = entries.first.map { $0.uuid.short == nil } ?? false
            out.append(long ? 0x02 : 0x01)
            for entry in entries {
                out.appendLE(entry.handle)
                if long { out.append128(entry.uuid) } else { out.appendLE(entry.uuid.short ?? 0) }
            }
        case .findByTypeValueRequest(let start, let end, let type, let value):
            out.appendLE(start)
            out.appendLE(end)
            out.appendLE(type)
            out.append(contentsOf: value)
        case .findByTypeValueResponse(let groups):
            for group in groups {
                out.appendLE(group.start)
                out.appendLE(group.end)
            }
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            out.appendLE(start)
            out.appendLE(end)
            type.append(to: &out)
        case .readByTypeResponse(let entries):
            out.append(UInt8(truncatingIfNeeded: 2 + (entries.first?.value.count ?? 0)))
            for entry in entries {
                out.appendLE(entry.handle)
                out.append(contentsOf: entry.value)
            }
        case .readRequest(let handle):
            out.appendLE(handle)
        case .readResponse(let value), .readBlobResponse(let value), .readMultipleResponse(let value):
            out.append(contentsOf: value)
        case .readBlobRequest(let handle, let offset):
            out.appendLE(handle)
            out.appendLE(offset)
        case .readMultipleRequest(let handles):
            for handle in handles { out.appendLE(handle) }
        case .readByGroupTypeResponse(let groups):
            out.append(UInt8(truncatingIfNeeded: 4 + (groups.first?.value.count ?? 0)))
            for group in groups {
                out.appendLE(group.start)
                out.appendLE(group.end)
                out.append(contentsOf: group.value)
            }
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
             .notification(let handle, let value), .indication(let handle, let value):
            out.appendLE(handle)
            out.append(contentsOf: value)
        case .signedWriteCommand(let handle, let value, let signature):
            out.appendLE(handle)
            out.append(contentsOf: value)
            out.append(contentsOf: signature)
        case .prepareWriteRequest(let handle, let offset, let value), .prepareWriteResponse(let handle, let offset, let value):
            out.appendLE(handle)
            out.appendLE(offset)
            out.append(contentsOf: value)
        case .executeWriteRequest(let write):
            out.append(write ? 0x01 : 0x00)
        case .writeResponse, .executeWriteResponse, .confirmation:
            break
        case .other(_, let parameters):
            out.append(contentsOf: parameters)
        }
        return out
    }
}

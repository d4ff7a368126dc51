/// The ATT opcodes as one table (Core Spec Vol 3 Part F 3.4.8): what each is
/// (request, response, command, ...), which side of a bearer takes it, the
/// lengths a well-formed PDU may have, and the response a request expects.
/// The decoder checks lengths here before reading a field, the server answers
/// or drops by `kind`, and the client matches responses by `response`.

/// What a PDU is to the bearer (Part F 3.3.1: bit 6 of the opcode marks commands).
public enum ATTKind: Equatable, Sendable {
    case request, response, command, notification, indication, confirmation
}

/// Which role on a bearer handles a PDU: one ATT channel carries both this
/// box's server (requests in, responses out) and its client (the other way).
public enum ATTRoute: Equatable, Sendable { case server, client }

public struct ATTOpcodeInfo: Sendable {
    public let opcode: UInt8
    public let name: String
    public let kind: ATTKind
    /// Fewest bytes of a well-formed PDU, opcode included.
    public let minCount: Int
    /// Most bytes, or nil when only the MTU bounds it.
    public let maxCount: Int?
    /// For a request, the opcode of its response.
    public let response: UInt8?
    /// False for the requests this server answers with Request Not Supported.
    public let served: Bool
}

public enum ATTOpcode {
    public static let errorResponse: UInt8 = 0x01
    public static let exchangeMTURequest: UInt8 = 0x02
    public static let exchangeMTUResponse: UInt8 = 0x03
    public static let findInformationRequest: UInt8 = 0x04
    public static let findInformationResponse: UInt8 = 0x05
    public static let findByTypeValueRequest: UInt8 = 0x06
    public static let findByTypeValueResponse: UInt8 = 0x07
    public static let readByTypeRequest: UInt8 = 0x08
    public static let readByTypeResponse: UInt8 = 0x09
    public static let readRequest: UInt8 = 0x0A
    public static let readResponse: UInt8 = 0x0B
    public static let readBlobRequest: UInt8 = 0x0C
    public static let readBlobResponse: UInt8 = 0x0D
    public static let readMultipleRequest: UInt8 = 0x0E
    public static let readMultipleResponse: UInt8 = 0x0F
    public static let readByGroupTypeRequest: UInt8 = 0x10
    public static let readByGroupTypeResponse: UInt8 = 0x11
    public static let writeRequest: UInt8 = 0x12
    public static let writeResponse: UInt8 = 0x13
    public static let prepareWriteRequest: UInt8 = 0x16
    public static let prepareWriteResponse: UInt8 = 0x17
    public static let executeWriteRequest: UInt8 = 0x18
    public static let executeWriteResponse: UInt8 = 0x19
    public static let handleValueNotification: UInt8 = 0x1B
    public static let handleValueIndication: UInt8 = 0x1D
    public static let handleValueConfirmation: UInt8 = 0x1E
    public static let readMultipleVariableRequest: UInt8 = 0x20
    public static let readMultipleVariableResponse: UInt8 = 0x21
    public static let multipleHandleValueNotification: UInt8 = 0x23
    public static let writeCommand: UInt8 = 0x52
    public static let signedWriteCommand: UInt8 = 0xD2

    /// Bit 6: a command, which gets no response and is dropped when not understood.
    public static let commandFlag: UInt8 = 0x40

    /// Every opcode this codec knows. Lengths include the opcode byte.
    public static let table: [ATTOpcodeInfo] = [
        ATTOpcodeInfo(opcode: 0x01, name: "Error Response", kind: .response, minCount: 5, maxCount: 5, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x02, name: "Exchange MTU Request", kind: .request, minCount: 3, maxCount: 3, response: 0x03, served: true),
        ATTOpcodeInfo(opcode: 0x03, name: "Exchange MTU Response", kind: .response, minCount: 3, maxCount: 3, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x04, name: "Find Information Request", kind: .request, minCount: 5, maxCount: 5, response: 0x05, served: true),
        ATTOpcodeInfo(opcode: 0x05, name: "Find Information Response", kind: .response, minCount: 6, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x06, name: "Find By Type Value Request", kind: .request, minCount: 7, maxCount: nil, response: 0x07, served: true),
        ATTOpcodeInfo(opcode: 0x07, name: "Find By Type Value Response", kind: .response, minCount: 5, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x08, name: "Read By Type Request", kind: .request, minCount: 7, maxCount: 21, response: 0x09, served: true),
        ATTOpcodeInfo(opcode: 0x09, name: "Read By Type Response", kind: .response, minCount: 4, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x0A, name: "Read Request", kind: .request, minCount: 3, maxCount: 3, response: 0x0B, served: true),
        ATTOpcodeInfo(opcode: 0x0B, name: "Read Response", kind: .response, minCount: 1, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x0C, name: "Read Blob Request", kind: .request, minCount: 5, maxCount: 5, response: 0x0D, served: true),
        ATTOpcodeInfo(opcode: 0x0D, name: "Read Blob Response", kind: .response, minCount: 1, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x0E, name: "Read Multiple Request", kind: .request, minCount: 5, maxCount: nil, response: 0x0F, served: false),
        ATTOpcodeInfo(opcode: 0x0F, name: "Read Multiple Response", kind: .response, minCount: 1, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x10, name: "Read By Group Type Request", kind: .request, minCount: 7, maxCount: 21, response: 0x11, served: true),
        ATTOpcodeInfo(opcode: 0x11, name: "Read By Group Type Response", kind: .response, minCount: 6, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x12, name: "Write Request", kind: .request, minCount: 3, maxCount: nil, response: 0x13, served: true),
        ATTOpcodeInfo(opcode: 0x13, name: "Write Response", kind: .response, minCount: 1, maxCount: 1, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x16, name: "Prepare Write Request", kind: .request, minCount: 5, maxCount: nil, response: 0x17, served: true),
        ATTOpcodeInfo(opcode: 0x17, name: "Prepare Write Response", kind: .response, minCount: 5, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x18, name: "Execute Write Request", kind: .request, minCount: 2, maxCount: 2, response: 0x19, served: true),
        ATTOpcodeInfo(opcode: 0x19, name: "Execute Write Response", kind: .response, minCount: 1, maxCount: 1, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x1B, name: "Handle Value Notification", kind: .notification, minCount: 3, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x1D, name: "Handle Value Indication", kind: .indication, minCount: 3, maxCount: nil, response: 0x1E, served: false),
        ATTOpcodeInfo(opcode: 0x1E, name: "Handle Value Confirmation", kind: .confirmation, minCount: 1, maxCount: 1, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x20, name: "Read Multiple Variable Request", kind: .request, minCount: 5, maxCount: nil, response: 0x21, served: false),
        ATTOpcodeInfo(opcode: 0x21, name: "Read Multiple Variable Response", kind: .response, minCount: 1, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x23, name: "Multiple Handle Value Notification", kind: .notification, minCount: 1, maxCount: nil, response: nil, served: false),
        ATTOpcodeInfo(opcode: 0x52, name: "Write Command", kind: .command, minCount: 3, maxCount: nil, response: nil, served: true),
        ATTOpcodeInfo(opcode: 0xD2, name: "Signed Write Command", kind: .command, minCount: 15, maxCount: nil, response: nil, served: false),
    ]

    /// The table's row for `opcode`, or nil for one it does not know.
    public static func info(_ opcode: UInt8) -> ATTOpcodeInfo? {
        for row in table where row.opcode == opcode { return row }
        return nil
    }

    /// What an opcode is; unknown ones are commands when bit 6 says so, and
    /// otherwise taken for requests (Part F 3.4.9: a server answers a request
    /// it does not know with Request Not Supported).
    public static func kind(_ opcode: UInt8) -> ATTKind {
        if let row = info(opcode) { return row.kind }
        return opcode & commandFlag != 0 ? .command : .request
    }

    /// Where a received PDU goes: requests, commands and confirmations to the
    /// server; responses, notifications and indications to the client.
    public static func route(_ opcode: UInt8) -> ATTRoute {
        switch kind(opcode) {
        case .request, .command, .confirmation: return .server
        case .response, .notification, .indication: return .client
        }
    }
}

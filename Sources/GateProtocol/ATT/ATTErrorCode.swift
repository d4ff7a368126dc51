/// The error codes of an ATT Error Response (Core Spec Vol 3 Part F 3.4.1.1,
/// and the common profile codes of the Core Specification Supplement).
/// A struct, not an enum, so a code this box never sends still reads back.
public struct ATTErrorCode: Hashable, Sendable {
    public var rawValue: UInt8
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let invalidHandle = ATTErrorCode(0x01)
    public static let readNotPermitted = ATTErrorCode(0x02)
    public static let writeNotPermitted = ATTErrorCode(0x03)
    public static let invalidPDU = ATTErrorCode(0x04)
    public static let insufficientAuthentication = ATTErrorCode(0x05)
    public static let requestNotSupported = ATTErrorCode(0x06)
    public static let invalidOffset = ATTErrorCode(0x07)
    public static let insufficientAuthorization = ATTErrorCode(0x08)
    public static let prepareQueueFull = ATTErrorCode(0x09)
    public static let attributeNotFound = ATTErrorCode(0x0A)
    public static let attributeNotLong = ATTErrorCode(0x0B)
    public static let insufficientEncryptionKeySize = ATTErrorCode(0x0C)
    public static let invalidAttributeValueLength = ATTErrorCode(0x0D)
    public static let unlikelyError = ATTErrorCode(0x0E)
    public static let insufficientEncryption = ATTErrorCode(0x0F)
    public static let unsupportedGroupType = ATTErrorCode(0x10)
    public static let insufficientResources = ATTErrorCode(0x11)
    public static let valueNotAllowed = ATTErrorCode(0x13)
    /// Common profile error: the CCCD holds bits this characteristic does not allow.
    public static let cccdImproperlyConfigured = ATTErrorCode(0xFD)

    public var description: String {
        switch rawValue {
        case 0x01: return "Invalid Handle"
        case 0x02: return "Read Not Permitted"
        case 0x03: return "Write Not Permitted"
        case 0x04: return "Invalid PDU"
        case 0x05: return "Insufficient Authentication"
        case 0x06: return "Request Not Supported"
        case 0x07: return "Invalid Offset"
        case 0x08: return "Insufficient Authorization"
        case 0x09: return "Prepare Queue Full"
        case 0x0A: return "Attribute Not Found"
        case 0x0B: return "Attribute Not Long"
        case 0x0C: return "Insufficient Encryption Key Size"
        case 0x0D: return "Invalid Attribute Value Length"
        case 0x0E: return "Unlikely Error"
        case 0x0F: return "Insufficient Encryption"
        case 0x10: return "Unsupported Group Type"
        case 0x11: return "Insufficient Resources"
        case 0x13: return "Value Not Allowed"
        case 0xFD: return "CCCD Improperly Configured"
        default: return "ATT error 0x" + ATTUUID.hex(UInt64(rawValue), digits: 2)
        }
    }
}

/// Thrown inside the server where a request is refused; it becomes the Error
/// Response's code.
extension ATTErrorCode: Error {}

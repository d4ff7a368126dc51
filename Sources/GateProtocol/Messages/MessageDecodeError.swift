/// Why bytes are not a message this box can act on: not JSON at all, or a
/// field that is missing, of the wrong JSON type or out of its range.
public enum MessageDecodeError: Error, Equatable, Sendable {
    case json(JSONParseError)
    /// `messageType` is the envelope's `type` ("" when that is what is wrong);
    /// `field` the path from the envelope ("payload.settings.startType",
    /// "payload.devices[1].role"); `found` what was there ("missing", "a string").
    case field(messageType: String, field: String, expected: String, found: String)

    public var description: String {
        switch self {
        case .json(let error):
            return "invalid JSON: " + error.description
        case .field(let messageType, let field, let expected, let found):
            let prefix = messageType.isEmpty ? "message" : messageType
            return prefix + ": " + field + ": expected " + expected + ", found " + found
        }
    }
}

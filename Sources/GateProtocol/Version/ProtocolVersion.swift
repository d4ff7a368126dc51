import GateCore

/// A protocol version "major.minor" (seed 002, 9.1-9.2). Minor versions only
/// add optional fields, so peers of one major version understand each other
/// at the lower minor; a different major means breaking changes.
public struct ProtocolVersion: Equatable, Comparable, Sendable {
    public var major: Int
    public var minor: Int

    /// The version this box speaks.
    public static let current = ProtocolVersion(major: 1, minor: 0)

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// "1.0", "2.13"; nil for anything else ("1", "1.0.2", "v1.0", "-1.0", "1.x").
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = ProtocolVersion.number(parts[0]), let minor = ProtocolVersion.number(parts[1]) else {
            return nil
        }
        self.init(major: major, minor: minor)
    }

    /// Digits only (DecimalText also takes a sign, which a version has none
    /// of), at most 9 so the value fits any Int.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9 else { return nil }
        for byte in text.utf8 where byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") { return nil }
        guard let value = DecimalText.parseInt(text) else { return nil }
        return Int(value)
    }

    public var text: String { String(major) + "." + String(minor) }

    public static func < (lhs: ProtocolVersion, rhs: ProtocolVersion) -> Bool {
        lhs.major != rhs.major ? lhs.major < rhs.major : lhs.minor < rhs.minor
    }

    /// The version to speak with a peer that announced `theirs` in its
    /// session_create or session_join. A peer that sent none predates 9.1's
    /// field, so it is taken as speaking 1.0.
    public static func negotiate(ours: ProtocolVersion = .current, theirs: String?) -> VersionAgreement {
        guard let theirs else {
            return negotiate(ours: ours, theirs: ProtocolVersion(major: 1, minor: 0))
        }
        guard let parsed = ProtocolVersion(parsing: theirs) else {
            return .refused(reason: "the peer's protocol version \"" + theirs + "\" is not major.minor")
        }
        return negotiate(ours: ours, theirs: parsed)
    }

    public static func negotiate(ours: ProtocolVersion, theirs: ProtocolVersion) -> VersionAgreement {
        guard ours.major == theirs.major else {
            return .refused(reason: "the peer speaks protocol " + theirs.text + " and this box " + ours.text
                            + ": major versions " + String(theirs.major) + " and " + String(ours.major) + " are incompatible")
        }
        return .agreed(min(ours, theirs))
    }
}

/// The outcome of version negotiation.
public enum VersionAgreement: Equatable, Sendable {
    /// Speak this version: the lower of the two, same major.
    case agreed(ProtocolVersion)
    /// Do not join; `reason` says why, for the log and the peer's error message.
    case refused(reason: String)
}

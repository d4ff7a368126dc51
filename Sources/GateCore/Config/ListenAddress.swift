/// Where the box's web server listens: an IPv4 address and a TCP port, as
/// written in the configuration (`http = 0.0.0.0:80`) or on the command line.
public struct ListenAddress: Equatable, Sendable {
    /// The address's four bytes, first byte first (0.0.0.0: every interface).
    public var octets: (UInt8, UInt8, UInt8, UInt8)
    public var port: UInt16

    public init(octets: (UInt8, UInt8, UInt8, UInt8), port: UInt16) {
        self.octets = octets
        self.port = port
    }

    public static func == (a: ListenAddress, b: ListenAddress) -> Bool {
        a.octets == b.octets && a.port == b.port
    }

    public static let accepts = "ADDRESS:PORT with an IPv4 address and a port from 1 to 65535, such as 0.0.0.0:80 or 127.0.0.1:8080 (or :8080 for every interface)"

    /// "a.b.c.d:port" or ":port"; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = ListenAddress.number(parts[1], max: 65535), port > 0 else { return nil }
        self.port = UInt16(port)
        if parts[0].isEmpty {
            octets = (0, 0, 0, 0)
            return
        }
        let bytes = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard bytes.count == 4, let a = ListenAddress.number(bytes[0], max: 255), let b = ListenAddress.number(bytes[1], max: 255),
              let c = ListenAddress.number(bytes[2], max: 255), let d = ListenAddress.number(bytes[3], max: 255) else { return nil }
        octets = (UInt8(a), UInt8(b), UInt8(c), UInt8(d))
    }

    /// Decimal digits only (no sign, no spaces), at most five of them.
    static func number(_ text: Substring, max: Int) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int(text), value <= max else { return nil }
        return value
    }

    public var text: String {
        String(octets.0) + "." + String(octets.1) + "." + String(octets.2) + "." + String(octets.3) + ":" + String(port)
    }
}

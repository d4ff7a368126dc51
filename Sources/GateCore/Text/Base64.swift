/// Base64 (RFC 4648, standard alphabet, padded), for pictures inlined in a
/// report as data: URIs so the report is one file that needs nothing else.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the encoding of `bytes` to `out`.
    public static func encode(_ bytes: [UInt8], into out: inout [UInt8]) {
        out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        guard rest > 0 else { return }
        let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
        out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
        out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : 0x3D)
        out.append(0x3D)
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        encode(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

import CGateShim

/// zlib's one-shot compressor, the deflate of PNG's IDAT.
public enum Zlib {
    /// `bytes` as one zlib stream (RFC 1950), or nil if zlib fails (out of memory).
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        let bound = Int(compressBound(uLong(bytes.count)))
        var out = [UInt8](repeating: 0, count: bound)
        var length = uLongf(bound)
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        out.removeLast(bound - Int(length))
        return out
    }
}

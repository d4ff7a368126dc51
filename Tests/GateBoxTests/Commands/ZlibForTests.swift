import CGateShim

/// zlib's own crc32 and inflate, to check our PNGs independently of our encoder.
enum ZlibForTests {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { CGateShim.crc32(0, $0.baseAddress, uInt($0.count)) })
    }

    static func inflate(_ stream: [UInt8], size: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: size)
        var length = uLongf(size)
        let status = out.withUnsafeMutableBufferPointer { o in
            stream.withUnsafeBufferPointer { uncompress(o.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        return status == Z_OK && Int(length) == size ? out : nil
    }
}

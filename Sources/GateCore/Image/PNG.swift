/// The PNG container for an 8-bit greyscale image (PNG spec, ISO/IEC
/// 15948): signature, IHDR, IDAT, IEND, each chunk with its CRC-32. The
/// IDAT payload is a zlib stream of the scanlines; compressing is the
/// caller's job (zlib lives behind the C seam, in GateDevices).
public enum PNG {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The bytes to compress into IDAT: each row preceded by its filter type.
    /// Filter 1 (Sub, each byte minus its left neighbour): smooth grey
    /// pictures compress better as differences.
    public static func scanlines(_ image: GreyImage) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (image.width + 1) * image.height)
        for y in 0..<image.height {
            let row = y * image.width
            let target = y * (image.width + 1)
            out[target] = 1
            var left: UInt8 = 0
            for x in 0..<image.width {
                let value = image.pixels[row + x]
                out[target + 1 + x] = value &- left
                left = value
            }
        }
        return out
    }

    /// The whole file: `zlibScanlines` is the zlib stream of `scanlines`.
    public static func file(width: Int, height: Int, zlibScanlines: [UInt8]) -> [UInt8] {
        var out = signature
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        // Bit depth 8, colour type 0 (grey), deflate, adaptive filtering, no interlace.
        header += [8, 0, 0, 0, 0]
        appendChunk("IHDR", header, to: &out)
        appendChunk("IDAT", zlibScanlines, to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        appendBigEndian(UInt32(data.count), to: &out)
        out += typeBytes
        out += data
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(data)
        appendBigEndian(crc.checksum, to: &out)
    }

    static func appendBigEndian(_ value: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value >> 24))
        out.append(UInt8(truncatingIfNeeded: value >> 16))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value))
    }
}

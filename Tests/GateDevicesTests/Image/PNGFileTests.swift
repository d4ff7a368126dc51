import CGateShim
import Foundation
import Testing
@testable import GateCore
@testable import GateDevices

/// A PNG decoder for the tests: every chunk's CRC checked with zlib's
/// crc32 (not ours), IDAT inflated with zlib's uncompress, filters undone.
enum PNGDecoder {
    struct Decoded { var width: Int; var height: Int; var bitDepth: UInt8; var colourType: UInt8; var pixels: [UInt8] }
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func u32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    static func decode(_ file: [UInt8]) throws -> Decoded {
        guard file.count > 8, Array(file[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure(description: "no PNG signature")
        }
        var at = 8
        var chunks: [(String, [UInt8])] = []
        while at + 12 <= file.count {
            let length = u32(file, at)
            guard at + 12 + length <= file.count else { throw Failure(description: "chunk past the end") }
            let typeAndData = Array(file[(at + 4)..<(at + 8 + length)])
            let crc = typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
            guard Int(crc) == u32(file, at + 8 + length) else { throw Failure(description: "bad CRC") }
            chunks.append((String(decoding: typeAndData[0..<4], as: UTF8.self), Array(typeAndData[4...])))
            at += 12 + length
        }
        // IHDR, one IDAT or more (their data one zlib stream), IEND.
        let types = chunks.map(\.0)
        guard at == file.count, types.count >= 3, types.first == "IHDR", types.last == "IEND",
              types.dropFirst().dropLast().allSatisfy({ $0 == "IDAT" }) else {
            throw Failure(description: "chunks \(types)")
        }
        let ihdr = chunks[0].1
        guard ihdr.count == 13 else { throw Failure(description: "IHDR length \(ihdr.count)") }
        let width = u32(ihdr, 0), height = u32(ihdr, 4)
        let idat = chunks.dropFirst().dropLast().flatMap(\.1)
        var raw = [UInt8](repeating: 0, count: (width + 1) * height)
        var rawLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            idat.withUnsafeBufferPointer { uncompress(out.baseAddress, &rawLength, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { throw Failure(description: "inflate: \(status)") }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let filter = raw[y * (width + 1)]
            for x in 0..<width {
                let v = raw[y * (width + 1) + 1 + x]
                let left = x > 0 ? pixels[y * width + x - 1] : 0
                let up = y > 0 ? pixels[(y - 1) * width + x] : 0
                switch filter {
                case 0: pixels[y * width + x] = v
                case 1: pixels[y * width + x] = v &+ left
                case 2: pixels[y * width + x] = v &+ up
                default: throw Failure(description: "filter \(filter) not decoded here")
                }
            }
        }
        return Decoded(width: width, height: height, bitDepth: ihdr[8], colourType: ihdr[9], pixels: pixels)
    }
}

@Suite struct PNGFileTests {
    @Test func aWrittenPictureDecodesToTheSamePixels() throws {
        var image = GreyImage(width: 37, height: 23)
        for i in image.pixels.indices { image.pixels[i] = UInt8(truncatingIfNeeded: i * 13 + i / 37) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/p.png"
        // Written over a longer file: the old tail must not survive.
        try Data(repeating: 7, count: 100_000).write(to: URL(fileURLWithPath: path))
        try PNGFile.write(image, to: path)
        let decoded = try PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(decoded.width == 37 && decoded.height == 23 && decoded.bitDepth == 8 && decoded.colourType == 0)
        #expect(decoded.pixels == image.pixels)
    }

    @Test func zlibRoundTrips() throws {
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 / 10) }
        let packed = try #require(Zlib.compress(data))
        #expect(packed.count < data.count / 4 && packed[0] == 0x78)
        var out = [UInt8](repeating: 0, count: data.count)
        var length = uLongf(out.count)
        let status = out.withUnsafeMutableBufferPointer { o in
            packed.withUnsafeBufferPointer { uncompress(o.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        #expect(status == Z_OK && out == data)
    }

    @Test func anUnwritablePathIsNamed() {
        #expect(throws: GateError("/nonexistent/dir/p.png", "writing the picture failed: No such file or directory")) {
            try PNGFile.write(GreyImage(width: 2, height: 2), to: "/nonexistent/dir/p.png")
        }
    }
}

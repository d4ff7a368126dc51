import Foundation
import Testing
@testable import GateCore
@testable import GateDevices

/// The PNG written row by row: decoded by zlib's own inflate and CRC, the
/// same pixels, however many IDAT chunks it takes, never over the size
/// `PhotoBudget` admits it at.
@Suite struct PNGStreamTests {
    static func write(_ image: GreyImage, _ stream: PNGStream, to path: String) throws {
        try stream.begin(path: path, width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width { stream.rowPixels[x] = image[x, y] }
            try stream.commitRow()
        }
        try stream.end()
    }

    @Test func rowsWrittenOneByOneDecodeToTheSamePixels() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let stream = try #require(PNGStream(maxWidth: 640))
        var smooth = GreyImage(width: 640, height: 480)
        for i in smooth.pixels.indices { smooth.pixels[i] = UInt8(truncatingIfNeeded: (i % 640) / 3 + i / 6400) }
        // Noise does not compress: several IDAT chunks.
        var noise = GreyImage(width: 300, height: 400)
        var random = SplitMix64(seed: 7)
        for i in noise.pixels.indices { noise.pixels[i] = UInt8(truncatingIfNeeded: random.next()) }
        for (name, image) in [("smooth", smooth), ("noise", noise), ("smooth-again", smooth)] {
            let path = dir.path + "/" + name + ".png"
            try Self.write(image, stream, to: path)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.count == stream.fileBytes)
            let decoded = try PNGDecoder.decode(bytes)
            #expect(decoded.width == image.width && decoded.height == image.height && decoded.colourType == 0)
            #expect(decoded.pixels == image.pixels, "\(name)")
            #expect(Int64(bytes.count) <= PhotoBudget.largestPNG(width: image.width, height: image.height), "\(name)")
        }
    }

    @Test func anAbandonedPictureLeavesNoFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let stream = try #require(PNGStream(maxWidth: 16))
        let path = dir.path + "/half.png"
        try stream.begin(path: path, width: 16, height: 16)
        try stream.commitRow()
        stream.abandon()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!stream.isOpen)
    }

    @Test func anUnwritablePathIsNamed() throws {
        let stream = try #require(PNGStream(maxWidth: 16))
        #expect(throws: GateError("/nonexistent/dir/p.png", "creating the photo failed: No such file or directory")) {
            try stream.begin(path: "/nonexistent/dir/p.png", width: 4, height: 4)
        }
    }
}

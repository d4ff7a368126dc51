import Testing
@testable import GateCore

@Suite struct CRC32Tests {
    @Test func knownChecksums() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926) // the standard check value
        #expect(CRC32.checksum([UInt8]()) == 0)
        // IEND's CRC, as in every PNG file.
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
        var split = CRC32()
        split.update(Array("12345".utf8))
        split.update(Array("6789".utf8))
        #expect(split.checksum == 0xCBF4_3926)
    }
}

@Suite struct PNGContainerTests {
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    @Test func signatureChunksAndCRCs() {
        let payload: [UInt8] = [0x78, 0x9C, 1, 2, 3] // stands in for a zlib stream
        let file = PNG.file(width: 300, height: 7, zlibScanlines: payload)
        #expect(Array(file[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var at = 8
        var types: [String] = []
        while at < file.count {
            let length = Int(Self.u32(file, at))
            let type = String(decoding: file[(at + 4)..<(at + 8)], as: UTF8.self)
            let data = Array(file[(at + 8)..<(at + 8 + length)])
            #expect(Self.u32(file, at + 8 + length) == CRC32.checksum(Array(file[(at + 4)..<(at + 8 + length)])), "CRC of \(type)")
            if type == "IHDR" {
                #expect(data == [0, 0, 1, 44, 0, 0, 0, 7, 8, 0, 0, 0, 0]) // 300 x 7, 8-bit grey
            }
            if type == "IDAT" { #expect(data == payload) }
            types.append(type)
            at += 12 + length
        }
        #expect(types == ["IHDR", "IDAT", "IEND"])
        #expect(at == file.count)
    }

    @Test func scanlinesAreSubFilteredRows() {
        var image = GreyImage(width: 3, height: 2)
        image.pixels = [10, 12, 11, 200, 0, 255]
        #expect(PNG.scanlines(image) == [1, 10, 2, 255, 1, 200, 56, 255])
    }
}

@Suite struct GreyImageTests {
    @Test func scalingRepeatsPixels() {
        var image = GreyImage(width: 2, height: 1)
        image.pixels = [1, 2]
        let big = image.scaled(columns: 3, rows: 2)
        #expect(big.width == 6 && big.height == 2)
        #expect(big.pixels == [1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2])
    }

    @Test func framePictureIsEnlargedWithTheGateLine() {
        let w = 160, h = 120
        var luma = [UInt8](repeating: 100, count: w * h)
        luma[5 * w + 7] = 9
        let picture = luma.withUnsafeBufferPointer { p in
            CrossingPictures.frame(LumaFrame(pixels: p.baseAddress!, width: w, height: h, rowStride: w,
                                             timestampNanos: 0, sequence: 0), gatePosition: 0.5)
        }
        #expect(picture.width == 640 && picture.height == 480) // 4x: small frames are enlarged
        #expect(picture[28, 20] == 9 && picture[31, 23] == 9 && picture[32, 20] == 100)
        // The gate line at x = 0.5 x 640, dashed white and black.
        #expect(picture[320, 0] == 255 && picture[320, 6] == 0 && picture[320, 12] == 255)
        #expect(picture[319, 0] == 100 && picture[321, 0] == 100)
    }
}

import Foundation
import Testing
@testable import GateDevices

/// The replay's decoder (MJPEGDecoder): libv4lconvert, as for an MJPEG
/// camera, into planes of its own that every frame reuses.
@Suite struct MJPEGDecoderTests {
    @Test func decodesACameraFrameToItsLumaIntoTheSamePlanesEachTime() throws {
        let original = MJPEGConversionTests.luma()
        let jpeg = try MJPEGConversionTests.encode(original)
        let decoder = try MJPEGDecoder(width: MJPEGConversionTests.width, height: MJPEGConversionTests.height)
        let first = try jpeg.withUnsafeBytes { (bytes) throws(GateError) in try decoder.decode(bytes) }
        let second = try jpeg.withUnsafeBytes { (bytes) throws(GateError) in try decoder.decode(bytes) }
        #expect(first == second)
        var total = 0
        for i in 0..<original.count { total += abs(Int(first[i]) - Int(original[i])) }
        #expect(Double(total) / Double(original.count) < 2.0)
        let w = MJPEGConversionTests.width
        #expect(first[120 * w + 138] > 120 && first[120 * w + 141] < 60) // the torso block's edge
    }

    @Test func aFrameItCannotDecodeIsSaidSo() throws {
        let jpeg = try MJPEGConversionTests.encode(MJPEGConversionTests.luma())
        let decoder = try MJPEGDecoder(width: 640, height: 480)
        let result = jpeg.withUnsafeBytes { bytes in Result { () throws(GateError) in try decoder.decode(bytes) } }
        guard case .failure(let error) = result else {
            Issue.record("a 320x240 JPEG decoded as 640x480")
            return
        }
        #expect(error.subject == "libv4lconvert" && error.problem.contains("320x240"), "\(error.message)")
    }
}

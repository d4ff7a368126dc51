import Testing
@testable import GateCore

@Suite struct WorkImageTests {
    /// The detectors' word-at-a-time box averages give what the plain one
    /// gives, at the factors they have fast paths for and one they do not.
    @Test(arguments: [(640, 480), (1280, 720), (960, 540), (322, 242)])
    func fastDownsamplingMatchesThePlainBoxAverage(size: (Int, Int)) {
        let (w, h) = size
        let detector = PrecisionDetector(width: w, height: h)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h)
        let expected = UnsafeMutablePointer<UInt8>.allocate(capacity: detector.image.pixelCount)
        defer { pixels.deallocate(); expected.deallocate() }
        var noise = SplitMix64(seed: UInt64(w))
        for i in 0..<(w * h) { pixels[i] = UInt8(truncatingIfNeeded: noise.next()) }
        let frame = LumaFrame(pixels: pixels, width: w, height: h, rowStride: w, timestampNanos: 0, sequence: 0)
        detector.image.downsample(frame, into: expected)
        detector.planes.downsample(frame)
        var mismatches = 0
        for i in 0..<detector.image.pixelCount where detector.current[i] != expected[i] { mismatches += 1 }
        #expect(mismatches == 0, "\(w)x\(h): \(mismatches) of \(detector.image.pixelCount) work pixels differ")
    }
}

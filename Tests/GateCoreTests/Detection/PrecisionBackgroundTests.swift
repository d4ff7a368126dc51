import Testing
@testable import GateCore

@Suite struct PrecisionBackgroundTests {
    /// The empty pixels' slow update in 32-bit vector lanes (`upkeep`) gives
    /// exactly what the per-pixel form in 64-bit arithmetic gives, for any
    /// gain `rowGain` can give (1/16 to 4) and any step: the model moves
    /// 2^-shift of the way to (luma x inverse) >> 12, and silhouette pixels
    /// keep their model.
    @Test(arguments: [256, 1000, 4095, 4096, 4097, 9001, 16383])
    func theVectorUpkeepIsThePerPixelOneExactly(gain: Int) {
        let detector = PrecisionDetector(width: 640, height: 480)
        let width = detector.width
        var random = SplitMix64(seed: UInt64(gain))
        let inverse = (1 << 40) / gain
        for shift in [0, 1, 3, 6] {
            var expected = [Int32](repeating: 0, count: width)
            var expected16 = [UInt16](repeating: 0, count: width)
            for x in 0..<width {
                // Any model a row can hold (up to 4 x 255, where a gain below 1 takes it), any luma.
                detector.background[x] = Int32(random.unit() * Double(1020 << 16))
                detector.background16[x] = UInt16(random.unit() * 65535)
                detector.current[x] = UInt8(random.unit() * 255.99)
                detector.mask[x] = random.unit() < 0.3 ? (random.unit() < 0.5 ? 1 : PrecisionDetector.hidden) : 0
                expected[x] = detector.background[x]
                expected16[x] = detector.background16[x]
                if detector.mask[x] == 0 {
                    let b = Int(detector.background[x])
                    let target = (Int(detector.current[x]) * inverse) >> 12
                    expected[x] = Int32(truncatingIfNeeded: b + ((target - b) >> shift))
                    expected16[x] = PrecisionDetector.narrow(expected[x])
                }
            }
            detector.upkeep(0, inverse: inverse, shift: shift)
            let model = Array(UnsafeBufferPointer(start: detector.background, count: width))
            let model16 = Array(UnsafeBufferPointer(start: detector.background16, count: width))
            let wrong = (0..<width).first { model[$0] != expected[$0] || model16[$0] != expected16[$0] }
            #expect(wrong == nil, "gain \(gain), shift \(shift): pixel \(wrong ?? 0)")
        }
    }
}

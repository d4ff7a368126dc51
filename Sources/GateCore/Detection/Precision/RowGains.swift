/// Step 1 of `PrecisionDetector`: each row's gain against the background,
/// its median ratio over every eighth pixel. Mains flicker through a
/// rolling shutter and a passing cloud change the light row by row; the
/// silhouette is cut against the background times its row's gain, so
/// light is not taken for a body. Gives the silhouette `gain` (in
/// `WorkPlanes`), and the scene model the gains of its calibration frames.
final class RowGains: ReadsWorkPlanes {
    let planes: WorkPlanes
    /// One row's gain samples (`rowGain`): ratios x 4096, below 2^16.
    let gainSamples: UnsafeMutablePointer<UInt16>

    init(planes: WorkPlanes) {
        self.planes = planes
        gainSamples = .allocate(capacity: planes.width / 8 + 8)   // and whole vectors (`rankValue`)
    }

    deinit { gainSamples.deallocate() }

    /// The gain of `row` (row y of some image) against the background, x 4096:
    /// the median ratio over every eighth pixel, so a body across part of
    /// the row does not move it. (Its cost is the median's: forty samples
    /// put its noise near a tenth of a threshold, eighty doubled the cost
    /// of the frame's upkeep. Ratios in single precision: an integer
    /// division per sample cost as much again.) `guess`: a gain it is
    /// likely near, where the median's search starts.
    func rowGain(_ row: UnsafePointer<UInt8>, y: Int, near guess: Int32 = 4096) -> Int32 {
        let model = background + y * width
        var n = 0
        var x = y & 7
        // Four samples at a time: one vector division, and the ratios'
        // whole parts without the checks of a conversion (which cost as
        // much as the division): rounded by adding 2^23, one less where
        // that rounded up. Exact below 2^23; samples of a background below
        // 16 (which may be more) are left out.
        let scale = SIMD4<Float>(repeating: 268_435_456), magic = SIMD4<Float>(repeating: 8_388_608)
        while x &+ 24 < width {
            let b = SIMD4<Int32>(model[x], model[x &+ 8], model[x &+ 16], model[x &+ 24])
            let luma = SIMD4<Int32>(Int32(row[x]), Int32(row[x &+ 8]), Int32(row[x &+ 16]), Int32(row[x &+ 24]))
            let ratio = SIMD4<Float>(luma) * scale / SIMD4<Float>(pointwiseMax(b, SIMD4(repeating: 1)))
            let shifted = ratio + magic
            // A mask's lanes are -1 where true: added, not selected with
            // `replacing(with:where:)`, which here became a branch per lane
            // (this loop took twice as long).
            let roundedUp = unsafeBitCast(shifted - magic .> ratio, to: SIMD4<Int32>.self)
            let whole = (unsafeBitCast(shifted, to: SIMD4<Int32>.self) &- 0x4B00_0000) &+ roundedUp
            for k in 0..<4 {
                gainSamples[n] = UInt16(truncatingIfNeeded: whole[k])
                n &+= b[k] >= 16 << 16 ? 1 : 0
            }
            x &+= 32
        }
        while x < width {
            let b = model[x]
            // At most 255 x 4096 x 65536 / (16 x 65536): 16 bits.
            if b >= 16 << 16 {
                gainSamples[n] = UInt16(truncatingIfNeeded: Int32(Float(row[x]) * 268_435_456 / Float(b)))
                n &+= 1
            }
            x &+= 8
        }
        guard n >= 8 else { return 4096 }
        return max(256, Int32(PrecisionDetector.rankValue(gainSamples, count: n, rank: n / 2, near: Int(guess))))
    }

    /// Each row's gain: measured on every fourth row, linearly interpolated
    /// between. What changes a row's gain is light (a cloud: every row;
    /// mains flicker through a rolling shutter: a wave many rows long),
    /// smooth over four rows; the median per row was most of the upkeep.
    func estimateRowGains() {
        var y0 = 0
        gain[0] = rowGain(current, y: 0, near: previousGain[0])
        while y0 < height - 1 {
            let y1 = min(y0 + 4, height - 1)
            gain[y1] = rowGain(current + y1 * width, y: y1, near: gain[y0])
            let g0 = Int(gain[y0]), g1 = Int(gain[y1]), span = y1 - y0
            for y in (y0 + 1)..<y1 {
                gain[y] = Int32(truncatingIfNeeded: g0 + ((g1 - g0) * (y - y0) + span / 2) / span)
            }
            y0 = y1
        }
    }
}

/// The work image: each frame box-averaged into `current`, before any stage.
extension WorkPlanes {
    /// The frame box-averaged into `current`, as `WorkImage.downsample`
    /// does, with quicker paths for packed luma: the work image is read
    /// whole every frame, so this is a large share of a frame's cost. The
    /// common factors (2: 640x480, 4: 1280x720) sum eight source bytes at
    /// a time in the lanes of one 64-bit word (little-endian, as both
    /// firmware targets are).
    func downsample(_ frame: LumaFrame) {
        let f = image.factor
        guard frame.pixelStride == 1 && f <= 8 else {
            image.downsample(frame, into: current)
            return
        }
        precondition(frame.width == image.sourceWidth && frame.height == image.sourceHeight, "frame size changed")
        let source = UnsafeRawPointer(frame.pixels)
        // Each source row is read once, start to end, into pair sums kept in
        // `scratch` (a frame straight from memory streams in twice as fast
        // as two or four rows read side by side); the last row writes the means.
        let low = SIMD8<UInt16>(repeating: 0x00FF)
        let pairs = UnsafeMutableRawPointer(scratch)   // 4 x width bytes
        if f == 2 {
            let vectorEnd = width & ~7
            for wy in 0..<height {
                let a = source + 2 &* wy &* frame.rowStride, b = a + frame.rowStride
                let out = UnsafeMutableRawPointer(current + wy &* width)
                var wx = 0
                while wx < vectorEnd {
                    let upper = unsafeBitCast(a.loadUnaligned(fromByteOffset: 2 &* wx, as: SIMD16<UInt8>.self),
                                              to: SIMD8<UInt16>.self)
                    pairs.storeBytes(of: (upper & low) &+ (upper &>> 8), toByteOffset: 2 &* wx, as: SIMD8<UInt16>.self)
                    wx &+= 8
                }
                wx = 0
                while wx < vectorEnd {
                    let lower = unsafeBitCast(b.loadUnaligned(fromByteOffset: 2 &* wx, as: SIMD16<UInt8>.self),
                                              to: SIMD8<UInt16>.self)
                    let sums = pairs.load(fromByteOffset: 2 &* wx, as: SIMD8<UInt16>.self)
                        &+ (lower & low) &+ (lower &>> 8)
                    out.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: (sums &+ 2) &>> 2), toByteOffset: wx,
                                   as: SIMD8<UInt8>.self)
                    wx &+= 8
                }
                let aBytes = a.assumingMemoryBound(to: UInt8.self), bBytes = b.assumingMemoryBound(to: UInt8.self)
                while wx < width {
                    let x = 2 &* wx
                    let sum = Int(aBytes[x]) &+ Int(aBytes[x &+ 1]) &+ Int(bBytes[x]) &+ Int(bBytes[x &+ 1])
                    current[wy &* width &+ wx] = UInt8(truncatingIfNeeded: (sum &+ 2) >> 2)
                    wx &+= 1
                }
            }
            return
        }
        if f == 4 && width % 2 == 0 {
            let vectorEnd = width & ~3   // four means from sixteen bytes of each of four rows
            for wy in 0..<height {
                let top = source + 4 &* wy &* frame.rowStride
                let out = current + wy &* width
                for dy in 0..<4 {
                    let row = top + dy &* frame.rowStride
                    var wx = 0
                    while wx < vectorEnd {
                        let v = unsafeBitCast(row.loadUnaligned(fromByteOffset: 4 &* wx, as: SIMD16<UInt8>.self),
                                              to: SIMD8<UInt16>.self)
                        var sums = (v & low) &+ (v &>> 8)
                        if dy > 0 { sums &+= pairs.load(fromByteOffset: 4 &* wx, as: SIMD8<UInt16>.self) }
                        pairs.storeBytes(of: sums, toByteOffset: 4 &* wx, as: SIMD8<UInt16>.self)
                        wx &+= 4
                    }
                }
                var wx = 0
                while wx < vectorEnd {
                    let v = pairs.load(fromByteOffset: 4 &* wx, as: SIMD4<UInt32>.self)
                    let quads = (v & SIMD4<UInt32>(repeating: 0xFFFF)) &+ (v &>> 16)
                    UnsafeMutableRawPointer(out).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: (quads &+ 8) &>> 4),
                                                            toByteOffset: wx, as: SIMD4<UInt8>.self)
                    wx &+= 4
                }
                while wx < width {
                    let x = 4 &* wx
                    var sums: UInt64 = 0   // four pair sums of four rows, per 16-bit lane
                    for dy in 0..<4 {
                        sums &+= WorkPlanes.pairSums(top.loadUnaligned(fromByteOffset: dy &* frame.rowStride &+ x,
                                                                               as: UInt64.self))
                    }
                    let quads = (sums & 0x0000_FFFF_0000_FFFF) &+ ((sums >> 16) & 0x0000_FFFF_0000_FFFF)
                    let means = (quads &+ 0x0000_0008_0000_0008) >> 4
                    out[wx] = UInt8(truncatingIfNeeded: means)
                    out[wx &+ 1] = UInt8(truncatingIfNeeded: means >> 32)
                    wx &+= 2
                }
            }
            return
        }
        if f == 1 {
            // Full resolution (small frames): the work image is the frame.
            for wy in 0..<height {
                (current + wy &* width).update(from: frame.pixels + wy &* frame.rowStride, count: width)
            }
            return
        }
        let area = f * f
        let sums = scratch  // at least `width` entries
        for wy in 0..<height {
            for wx in 0..<width { sums[wx] = 0 }
            for dy in 0..<f {
                let row = frame.pixels + (wy * f + dy) * frame.rowStride
                var x = 0
                for wx in 0..<width {
                    var sum: Int32 = 0
                    for _ in 0..<f { sum &+= Int32(row[x]); x += 1 }
                    sums[wx] &+= sum
                }
            }
            let out = current + wy * width
            let half = Int32(area / 2), divisor = Int32(area)
            for wx in 0..<width { out[wx] = UInt8(truncatingIfNeeded: (sums[wx] + half) / divisor) }
        }
    }

    /// The sums of the byte pairs of `word` (bytes 0+1, 2+3, 4+5, 6+7), one per 16-bit lane.
    @inline(__always)
    static func pairSums(_ word: UInt64) -> UInt64 {
        (word & 0x00FF_00FF_00FF_00FF) &+ ((word >> 8) & 0x00FF_00FF_00FF_00FF)
    }
}

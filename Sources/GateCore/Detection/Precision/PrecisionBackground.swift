/// How a detector learns the empty scene it cuts silhouettes from.
enum SceneLearning: Equatable {
    /// Precision mode: the per-pixel median of `calibrationFrames` frames
    /// spread over `calibrationSpanNanos` (a runner passing is outvoted).
    case calibration
    /// Photo-finish mode, no calibration: the first frame is the background
    /// at once; the next `warmupFrames` frames refine it and give each row's
    /// noise. Whatever stood or moved in those frames and then stays still
    /// is absorbed like any still object.
    case firstFrames
}

/// Precision mode's background model: learnt from frames of the empty
/// scene, each row's gain measured against it every frame, the silhouette
/// cut out with each row's own noise threshold, and the model kept up to
/// date where the scene is empty or has stopped changing.
extension PrecisionDetector {
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
                        sums &+= PrecisionDetector.pairSums(top.loadUnaligned(fromByteOffset: dy &* frame.rowStride &+ x,
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

    /// The frame interval, smoothed, and the update rates that follow from it.
    func noteFrameInterval(_ nanos: Int64) {
        if lastFrameNanos != Int64.min && nanos > lastFrameNanos {
            let step = nanos - lastFrameNanos
            frameIntervalNanos = frameIntervalNanos == 0 ? step : (3 * frameIntervalNanos + step) / 4
            var shift = 0
            while shift < 14 && (Int64(1) << (shift + 1)) * frameIntervalNanos <= settings.backgroundTimeConstantNanos { shift += 1 }
            updateShift = max(2, shift)
            absorbFrames = Int(max(2, min(255, settings.absorbStillNanos / max(1, frameIntervalNanos))))
            hideFrames = Int(max(2, min(Int64(absorbFrames), settings.hideStillNanos / max(1, frameIntervalNanos))))
        }
        lastFrameNanos = nanos
    }

    /// Keeps calibration frames spread over `calibrationSpanNanos`; with
    /// enough of them, learns the background from them over the next frames
    /// (`finishCalibrationStep`).
    func calibrate(_ frame: LumaFrame) {
        if finishStage >= 0 {
            finishCalibrationStep()
            return
        }
        let spacing = settings.calibrationSpanNanos / Int64(settings.calibrationFrames)
        if storedFrames > 0 && frame.timestampNanos < lastStoredNanos { storedFrames = 0 }
        guard storedFrames == 0 || frame.timestampNanos - lastStoredNanos >= spacing else { return }
        (calibration + storedFrames * pixelCount).update(from: current, count: pixelCount)
        storedFrames += 1
        lastStoredNanos = frame.timestampNanos
        if storedFrames == settings.calibrationFrames {
            finishStage = 0
            finishItem = 0
        }
    }

    /// Learning from the first frames: the first one becomes the background;
    /// each of the next `warmupFrames` frames, gained row by row against it,
    /// adds to each row's histogram of frame differences (against the
    /// previous frame, gained the same way: a body moving through the view
    /// changes few of a row's pixels) and, where it agrees with the model
    /// (within a sixteenth of the luma range: sensor noise, not a body), to
    /// a running mean that averages the noise out of the model. Then each
    /// row's threshold follows from the differences' median absolute
    /// deviation (a difference of two frames has twice a frame's noise variance).
    func learnFromFirstFrames() {
        let previousGain = calibrationGain   // the previous frame's row gains
        if storedFrames == 0 {
            relearnFromCurrent()
            for y in 0..<height { previousGain[y] = 4096 }
            deviationHistograms.update(repeating: 0, count: height * 256)
            storedFrames = 1
            return
        }
        storedFrames += 1
        estimateRowGains()
        let agreeing = 16 << 16
        let weight = (1 << 16) / storedFrames
        for y in 0..<height {
            let inverse = (1 << 40) / max(1, Int(gain[y]))
            let previousInverse = (1 << 40) / max(1, Int(previousGain[y]))
            previousGain[y] = gain[y]
            let row = y * width
            let counts = deviationHistograms + y * 256
            for x in 0..<width {
                let i = row + x
                let b = Int(background[i])
                let value = (Int(current[i]) * inverse) >> 12
                let change = value - ((Int(previous[i]) * previousInverse) >> 12)
                counts[min(255, abs(change) >> 14)] += 1
                let deviation = value - b
                if deviation <= agreeing && deviation >= -agreeing {
                    background[i] = Int32(b + ((deviation * weight) >> 16))
                }
            }
        }
        guard storedFrames > settings.warmupFrames else { return }
        for y in 0..<height {
            let counts = deviationHistograms + y * 256
            var total: UInt32 = 0
            for v in 0..<256 { total += counts[v] }
            var seen: UInt32 = 0, mad = 0
            for v in 0..<256 {
                seen += counts[v]
                if seen * 2 >= total { mad = v; break }
            }
            setThreshold(row: y, sigma: 1.4826 * Double(mad) / 4 / 2.0.squareRoot())
        }
        backgroundLearnt()
    }

    /// The background and the rows' thresholds are ready: nothing is still
    /// yet, every row is at gain 1, and the gate waits for a clear view.
    func backgroundLearnt() {
        narrowBackground()
        for i in 0..<pixelCount { still[i] = 0 }
        for y in 0..<height { gain[y] = 4096 }
        state = .waitingForClear
    }

    /// A row's silhouette threshold: four sigmas of its noise (luma), never below 5.
    func setThreshold(row y: Int, sigma: Double) {
        threshold[y] = Int32(max(5, (4 * sigma).rounded(.up)))
    }

    /// Background = per pixel, the mean of the middle half of the calibration
    /// frames' values (each row first scaled by its gain, so flicker cancels);
    /// per row, the threshold from the median absolute deviation of the
    /// frames from it. Tens of milliseconds of work in all, so it is done in
    /// four stages of items (rows, or frames' gains), spread over the frames
    /// of `calibrationFinishNanos`: each frame does its share of the work.
    static let finishStages = 4

    private func finishItems(_ stage: Int) -> Int { stage == 1 ? settings.calibrationFrames : height }

    /// An item's cost, in the same unit for every stage (measured at 320 x
    /// 240 and 30 frames: 10, 35, 130 and 11 us).
    private func finishWeight(_ stage: Int) -> Int {
        let n = settings.calibrationFrames
        switch stage {
        case 0: return width * n * 3 / 10   // a row's first estimate: a median on every eighth pixel
        case 1: return height * 43          // a frame's row gains
        case 2: return width * n * 4        // a row's means of the middle half
        default: return width * n * 7 / 20  // a row's deviations
        }
    }

    /// This frame's share of the work that turns the stored frames into the background.
    func finishCalibrationStep() {
        var total = 0
        for stage in 0..<PrecisionDetector.finishStages { total += finishItems(stage) * finishWeight(stage) }
        let interval = frameIntervalNanos > 0 ? frameIntervalNanos : 8_333_333
        var budget = max(1, Int(Double(total) * Double(interval) / Double(max(1, settings.calibrationFinishNanos))))
        while budget > 0 && finishStage < PrecisionDetector.finishStages {
            finishItem(finishStage, finishItem)
            budget -= finishWeight(finishStage)
            finishItem += 1
            if finishItem == finishItems(finishStage) {
                finishStage += 1
                finishItem = 0
            }
        }
        guard finishStage == PrecisionDetector.finishStages else { return }
        finishStage = -1
        backgroundLearnt()
    }

    private func finishItem(_ stage: Int, _ item: Int) {
        let n = settings.calibrationFrames
        switch stage {
        case 0:
            // A first estimate, the per-pixel median, where `rowGain` samples the
            // model (every eighth pixel): only the gains below read it.
            let y = item
            var x = y & 7
            while x < width {
                let i = y * width + x
                for k in 0..<n { scratch[k] = Int32(calibration[k * pixelCount + i]) }
                background[i] = PrecisionDetector.select(scratch, count: n, rank: n / 2) << 16
                x += 8
            }
        case 1:
            // Frame k's row gains against it, kept as their inverses x 2^36
            // (a multiplication per value below instead of a division).
            let k = item
            let frame = calibration + k * pixelCount
            for y in 0..<height {
                calibrationGain[k * height + y] = Int32((1 << 36) / max(1, Int(rowGain(frame + y * width, y: y))))
            }
        case 2:
            // The gained mean of the middle half, per pixel: the values from
            // rank `low` up, then the lowest of those up to rank `high`.
            let y = item
            let low = n / 4, high = n - n / 4
            for x in 0..<width {
                let i = y * width + x
                for k in 0..<n {
                    let inverse = Int(calibrationGain[k * height + y])
                    scratch[k] = Int32(truncatingIfNeeded: (Int(calibration[k * pixelCount + i]) * inverse) >> 8)
                }
                _ = PrecisionDetector.select(scratch, count: n, rank: low)
                _ = PrecisionDetector.select(scratch + low, count: n - low, rank: high - 1 - low)
                var sum = 0
                for k in low..<high { sum += Int(scratch[k]) }
                background[i] = Int32(sum / (high - low))
            }
        default:
            // The row's median absolute deviation, in quarter luma steps.
            let y = item
            histogram.update(repeating: 0, count: 256)
            var total: UInt32 = 0
            for k in 0..<n {
                let inverse = Int(calibrationGain[k * height + y])
                let frame = calibration + k * pixelCount + y * width
                for x in 0..<width {
                    let value = (Int(frame[x]) * inverse) >> 8
                    let deviation = abs(value - Int(background[y * width + x])) >> 14
                    histogram[min(255, deviation)] += 1
                    total += 1
                }
            }
            var seen: UInt32 = 0, mad = 0
            for v in 0..<256 {
                seen += histogram[v]
                if seen * 2 >= total { mad = v; break }
            }
            setThreshold(row: y, sigma: 1.4826 * Double(mad) / 4)
        }
    }

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

    /// The silhouette into `mask` (1 where the pixel is farther from its
    /// gained background than the row's threshold plus 3% of the
    /// background), and the model's upkeep: empty pixels follow the scene
    /// slowly; silhouette pixels unchanged for `absorbStillNanos` become
    /// background. Returns the number of silhouette pixels; each row's span
    /// of them, and whether it hid any, go to `silhouetteSpans`.
    ///
    /// This runs on every pixel of every frame, so it is split by cost: the
    /// test itself in 32-bit arithmetic without branches (so it vectorizes);
    /// the still counts over each row's span of silhouette, in vector lanes
    /// (`stillCounts`), and a row with none at once (the test ORs its bits
    /// together in the same lanes; skipping empty rows took a tenth off an
    /// empty 640x480 frame); and the slow update on a quarter of the rows
    /// each frame, in steps four times as large (the same time constant).
    func segment() -> Int {
        var count = 0
        let absorb = UInt8(absorbFrames)
        let hide = UInt8(hideFrames)
        upkeepPhase = (upkeepPhase + 1) & 3
        let shift = max(0, updateShift - 2)
        for y in 0..<height {
            // Gains stay below 4 so that luma x gain x 32 fits in 15 bits.
            let g = min(Int(gain[y]), 16383)
            // 16 bits (g x 2 < 2^15), so the product below is a high-half multiply of 16-bit lanes.
            let g2 = UInt16(truncatingIfNeeded: g &* 2)
            let t = Int(threshold[y])
            let t16 = UInt16(truncatingIfNeeded: min(t, 4095))
            let row = y &* width
            let pixels = current + row
            let model16 = background16 + row
            let silhouette = mask + row, unchanged = still + row
            var anyInRow: UInt8 = 0
            for x in 0..<width {
                // The gained background rounded to a luma step, in 16-bit
                // lanes: (luma x 256) x (gain x 8192) >> 16 is luma x gain x 32
                // (a high-half product), then rounded to whole steps.
                let scaled = UInt16(truncatingIfNeeded: (UInt32(model16[x]) &* UInt32(g2)) >> 16)
                let expected = (scaled &+ 16) >> 5
                let limit = t16 &+ (expected >> 5)
                let d = UInt16(pixels[x]) &- expected
                // |d| > limit, as one unsigned comparison (d wraps when negative).
                let bit: UInt8 = d &+ limit > limit &* 2 ? 1 : 0
                silhouette[x] = bit
                anyInRow |= bit
            }
            // Gains of 1/16 or more (as `rowGain` gives them) keep the
            // inverses within 32 bits, which `upkeep` needs. (Clamped here,
            // not in g above: a lower bound on g hides from the compiler that
            // g x 2 is a 16-bit lane, and the high-half multiply is lost.)
            let inverse = (1 << 40) / max(256, g)
            let previousInverse = (1 << 40) / min(max(Int(previousGain[y]), 256), 16383)
            // Unchanged: two frames' difference within what their noise
            // explains, at the silhouette's confidence: t is four sigmas of
            // one frame's noise, a difference of two frames has sqrt(2)
            // times as much (and each frame its own row gain's error), so
            // t x sqrt(2), in luma x 65536 (sqrt(2) x 65536 = 92 682).
            let still16 = t &* 92_682
            if y & 3 == upkeepPhase { upkeep(row, inverse: inverse, shift: shift) }
            guard anyInRow != 0 else {
                // Most rows of most frames: nothing to count or keep still.
                unchanged.update(repeating: 0, count: width)
                silhouetteSpans[y] = ColumnSpan(first: Int32(truncatingIfNeeded: width), last: -1, hidden: false)
                continue
            }
            var hid = false
            let maskWords = UnsafeMutableRawPointer(silhouette)
            // The row's first and last silhouette pixels, eight at a time
            // from each end (the row has one: `anyInRow`).
            var first = 0
            while first &+ 8 <= width && maskWords.loadUnaligned(fromByteOffset: first, as: UInt64.self) == 0 { first &+= 8 }
            while silhouette[first] == 0 { first &+= 1 }
            var last = width &- 1
            while last >= 7 && maskWords.loadUnaligned(fromByteOffset: last &- 7, as: UInt64.self) == 0 { last &-= 8 }
            while silhouette[last] == 0 { last &-= 1 }
            let after = last &+ 1
            unchanged.update(repeating: 0, count: first)
            (unchanged + after).update(repeating: 0, count: width &- after)
            count &+= stillCounts(row, from: first, through: last, inverse: inverse, previousInverse: previousInverse,
                                  stillBound: still16, absorb: absorb, hide: hide, hid: &hid)
            silhouetteSpans[y] = ColumnSpan(first: Int32(truncatingIfNeeded: first), last: Int32(truncatingIfNeeded: last),
                                            hidden: hid)
        }
        return count
    }

    /// The still counts of row offset `row`'s pixels `first...last`, and
    /// what they make of the silhouette: a silhouette pixel whose luma,
    /// brought to the background's light (x 65536), changed by at most
    /// `stillBound` since the last frame counts one more frame unchanged;
    /// after `hide` frames it is hidden from the bodies (`hidden` in the
    /// mask), after `absorb` it becomes background. Empty pixels count none.
    /// Returns the row's silhouette pixels (mask 1 before this).
    ///
    /// Each frame's luma is brought to the background's light: flicker
    /// changes a bright pixel by more than the noise from one frame to the
    /// next, and a scene that never counted as unchanged would never be
    /// hidden nor absorbed. Unchanged for `hide` frames is not a body moving
    /// (the scene where a body stood when the background was learnt, an
    /// object put down): hidden from the bodies until absorbed, unless it
    /// continues a body in its own luma (`reclaimHidden`).
    ///
    /// Eight pixels at a time in vector lanes, from the word holding
    /// `first` (empty pixels there come out as they went in: no count, no
    /// model change): a runner's rows hold hundreds of silhouette pixels,
    /// and as a branch per pixel this was half of `segment`'s cost on a
    /// frame with a large runner. The luma brought to the light is
    /// (luma x inverse) >> 12, computed as `upkeep` computes it: luma x high
    /// + (luma x low) >> 12, exact and in 32 bits.
    @inline(__always)
    func stillCounts(_ row: Int, from first: Int, through last: Int, inverse: Int, previousInverse: Int, stillBound: Int,
                     absorb: UInt8, hide: UInt8, hid: inout Bool) -> Int {
        let step = StillStep(inverse: inverse, previousInverse: previousInverse, stillBound: stillBound,
                             absorb: absorb, hide: hide)
        let pixels = UnsafeRawPointer(current + row), before = UnsafeRawPointer(previous + row)
        let silhouette = UnsafeMutableRawPointer(mask + row), unchanged = UnsafeMutableRawPointer(still + row)
        var count = 0
        var hiding: UInt64 = 0
        var x = first & ~7
        while x <= last && x &+ 8 <= width {
            let bits = silhouette.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self)
            let (counts, absorbed, hidden) = step.counts(
                bits: bits, counts: unchanged.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self),
                luma: pixels.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self),
                before: before.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self))
            unchanged.storeBytes(of: counts, toByteOffset: x, as: SIMD8<UInt8>.self)
            // 1 | 255 is `hidden`.
            silhouette.storeBytes(of: bits | hidden, toByteOffset: x, as: SIMD8<UInt8>.self)
            hiding |= unsafeBitCast(hidden, to: UInt64.self)
            // The bits' sum (at most 8) in the top byte of their product with 0x0101...
            count &+= Int((unsafeBitCast(bits, to: UInt64.self) &* 0x0101_0101_0101_0101) >> 56)
            let absorbedWord = unsafeBitCast(absorbed, to: UInt64.self)
            if absorbedWord != 0 {
                // Rare (a pixel still for `absorb` frames): its model in turn.
                for lane in 0..<8 where absorbed[lane] != 0 { absorbPixel(row &+ x &+ lane, inverse: inverse) }
            }
            x &+= 8
        }
        // The row's last pixels when its width is no multiple of eight.
        while x <= last {
            let i = row &+ x
            let (counts, absorbed, hidden) = step.counts(bits: SIMD8(repeating: mask[i]), counts: SIMD8(repeating: still[i]),
                                                         luma: SIMD8(repeating: current[i]),
                                                         before: SIMD8(repeating: previous[i]))
            count &+= Int(mask[i])
            still[i] = counts[0]
            mask[i] |= hidden[0]
            hiding |= UInt64(hidden[0])
            if absorbed[0] != 0 { absorbPixel(i, inverse: inverse) }
            x &+= 1
        }
        if hiding != 0 { hid = true }
        return count
    }

    /// Pixel `i`'s luma, brought to the background's light, becomes its model.
    private func absorbPixel(_ i: Int, inverse: Int) {
        let value = Int32(truncatingIfNeeded: (Int(current[i]) &* inverse) >> 12)
        background[i] = value
        background16[i] = PrecisionDetector.narrow(value)
    }

    /// The slow update of one row's empty pixels (row offset `row`): each
    /// moves 2^-shift of the way from its model to the pixel brought to the
    /// background's light, (luma x inverse) >> 12, computed as
    /// luma x high + (luma x low) >> 12 with inverse = high x 4096 + low:
    /// exact, and in 32 bits for an inverse of at most 2^32 (a gain of 1/16
    /// or more). Without a branch (silhouette pixels keep their model
    /// through a mask), so it runs in vector lanes: as a branch per pixel in
    /// 64-bit arithmetic it took 4 us more per 640x480 frame.
    ///
    /// `background16` is `narrow(background)` everywhere, always (every
    /// writer of the model keeps it so), so each pixel's narrow value is
    /// made from its model whether it moved or not: no select and no load
    /// of the old one. Models are never negative (every value written is a
    /// luma x 65536 or a step from one towards another), so only the upper
    /// clamp remains: together a fifth of this loop's cost.
    @inline(__always)
    func upkeep(_ row: Int, inverse: Int, shift: Int) {
        let high = Int32(truncatingIfNeeded: inverse >> 12), low = Int32(truncatingIfNeeded: inverse & 4095)
        let steps = Int32(truncatingIfNeeded: shift)
        let model = background + row, model16 = background16 + row
        let pixels = current + row, silhouette = mask + row
        for x in 0..<width {
            // All ones where the pixel is empty, zero where it is silhouette.
            let empty = (Int32(truncatingIfNeeded: silhouette[x]) &- 1) &>> 31
            let b = model[x]
            let luma = Int32(truncatingIfNeeded: pixels[x])
            let target = luma &* high &+ ((luma &* low) &>> 12)
            // An arithmetic shift: rounds towards minus infinity, a bias
            // below 2^shift / 2^16 of a luma step.
            let updated = b &+ (((target &- b) &>> steps) & empty)
            model[x] = updated
            let narrow = updated &>> 8
            model16[x] = UInt16(truncatingIfNeeded: narrow > 65535 ? 65535 : narrow)
        }
    }

    /// The scene as it is now becomes the background (gains back to 1).
    func relearnFromCurrent() {
        for i in 0..<pixelCount {
            background[i] = Int32(current[i]) << 16
            still[i] = 0
        }
        for y in 0..<height { gain[y] = 4096 }
        narrowBackground()
    }

    /// `background16` from `background`, whole.
    func narrowBackground() {
        for i in 0..<pixelCount { background16[i] = PrecisionDetector.narrow(background[i]) }
    }

    /// A background value (luma x 65536) as luma x 256 in 16 bits.
    @inline(__always)
    static func narrow(_ value: Int32) -> UInt16 {
        UInt16(truncatingIfNeeded: min(65535, max(0, value >> 8)))
    }
}

/// `stillCounts`' arithmetic on eight pixels of a row, with that row's
/// constants (`inverse`: 2^40 / gain, the gain x 4096; `stillBound`: the
/// largest change still, luma x 65536).
struct StillStep {
    let high: SIMD8<Int32>, low: SIMD8<Int32>, previousHigh: SIMD8<Int32>, previousLow: SIMD8<Int32>
    let bound: SIMD8<UInt32>, twiceBound: SIMD8<UInt32>
    let absorb: SIMD8<UInt8>, hide: SIMD8<UInt8>

    @inline(__always)
    init(inverse: Int, previousInverse: Int, stillBound: Int, absorb: UInt8, hide: UInt8) {
        high = SIMD8(repeating: Int32(truncatingIfNeeded: inverse >> 12))
        low = SIMD8(repeating: Int32(truncatingIfNeeded: inverse & 4095))
        previousHigh = SIMD8(repeating: Int32(truncatingIfNeeded: previousInverse >> 12))
        previousLow = SIMD8(repeating: Int32(truncatingIfNeeded: previousInverse & 4095))
        // A change is at most 2^28 either way (a luma of 255 at a gain of
        // 1/16): a larger bound compares the same.
        let b = UInt32(truncatingIfNeeded: min(stillBound, 1 << 30))
        bound = SIMD8(repeating: b)
        twiceBound = SIMD8(repeating: b &* 2)
        self.absorb = SIMD8(repeating: absorb)
        self.hide = SIMD8(repeating: hide)
    }

    /// The new still counts of eight pixels (`bits`: their mask, 0 or 1;
    /// `counts`: their still counts; their luma now and `before`), and
    /// which of them are absorbed and which hidden (all ones, or zero).
    @inline(__always)
    func counts(bits: SIMD8<UInt8>, counts: SIMD8<UInt8>, luma: SIMD8<UInt8>, before: SIMD8<UInt8>)
        -> (counts: SIMD8<UInt8>, absorbed: SIMD8<UInt8>, hidden: SIMD8<UInt8>) {
        let now = SIMD8<Int32>(truncatingIfNeeded: luma), then = SIMD8<Int32>(truncatingIfNeeded: before)
        let value = now &* high &+ ((now &* low) &>> 12)
        let change = value &- (then &* previousHigh &+ ((then &* previousLow) &>> 12))
        // |change| <= bound, as one unsigned comparison (change wraps when negative).
        let isStill = SIMD8<UInt32>(truncatingIfNeeded: change) &+ bound .<= twiceBound
        let stillBytes = SIMD8<UInt8>(truncatingIfNeeded: SIMD8<Int32>(repeating: 0).replacing(with: -1, where: isStill))
        // Counted on where the pixel is silhouette (bits 1: 0 - 1 is all ones) and still; 0 elsewhere.
        let n = (counts &+ 1) & stillBytes & (0 &- bits)
        let none = SIMD8<UInt8>(repeating: 0)
        let absorbed = none.replacing(with: 255, where: n .>= absorb)
        let hidden = none.replacing(with: 255, where: n .>= hide) & ~absorbed
        return (n & ~absorbed, absorbed, hidden)
    }
}

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
    /// does, with a quicker path for packed luma (the precision work image
    /// is four times photo-finish's, so this is most of a frame's cost).
    func downsample(_ frame: LumaFrame) {
        let f = image.factor
        guard frame.pixelStride == 1 && f <= 8 else {
            image.downsample(frame, into: current)
            return
        }
        precondition(frame.width == image.sourceWidth && frame.height == image.sourceHeight, "frame size changed")
        if f == 2 {
            for wy in 0..<height {
                let a = frame.pixels + 2 * wy * frame.rowStride, b = a + frame.rowStride
                let out = current + wy * width
                for wx in 0..<width {
                    let x = 2 * wx
                    let sum = Int(a[x]) &+ Int(a[x + 1]) &+ Int(b[x]) &+ Int(b[x + 1])
                    out[wx] = UInt8(truncatingIfNeeded: (sum &+ 2) >> 2)
                }
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

    /// The frame interval, smoothed, and the update rates that follow from it.
    func noteFrameInterval(_ nanos: Int64) {
        if lastFrameNanos != Int64.min && nanos > lastFrameNanos {
            let step = nanos - lastFrameNanos
            frameIntervalNanos = frameIntervalNanos == 0 ? step : (3 * frameIntervalNanos + step) / 4
            var shift = 0
            while shift < 14 && (Int64(1) << (shift + 1)) * frameIntervalNanos <= settings.backgroundTimeConstantNanos { shift += 1 }
            updateShift = max(2, shift)
            absorbFrames = Int(max(2, min(255, settings.absorbStillNanos / max(1, frameIntervalNanos))))
        }
        lastFrameNanos = nanos
    }

    /// Keeps calibration frames spread over `calibrationSpanNanos`; with
    /// enough of them, learns the background.
    func calibrate(_ frame: LumaFrame) {
        let spacing = settings.calibrationSpanNanos / Int64(settings.calibrationFrames)
        if storedFrames > 0 && frame.timestampNanos < lastStoredNanos { storedFrames = 0 }
        guard storedFrames == 0 || frame.timestampNanos - lastStoredNanos >= spacing else { return }
        (calibration + storedFrames * pixelCount).update(from: current, count: pixelCount)
        storedFrames += 1
        lastStoredNanos = frame.timestampNanos
        if storedFrames == settings.calibrationFrames { finishCalibration() }
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
    /// frames from it.
    func finishCalibration() {
        let n = settings.calibrationFrames
        // A first estimate: the per-pixel median.
        for i in 0..<pixelCount {
            for k in 0..<n { scratch[k] = Int32(calibration[k * pixelCount + i]) }
            background[i] = PrecisionDetector.select(scratch, count: n, rank: n / 2) << 16
        }
        // Each frame's row gains against it.
        for k in 0..<n {
            let frame = calibration + k * pixelCount
            for y in 0..<height { calibrationGain[k * height + y] = rowGain(frame + y * width, y: y) }
        }
        // The gained mean of the middle half, per pixel.
        let low = n / 4, high = n - n / 4
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                for k in 0..<n {
                    let g = Int(calibrationGain[k * height + y])
                    scratch[k] = Int32((Int(calibration[k * pixelCount + i]) << 28) / max(1, g))
                }
                PrecisionDetector.sort(scratch, count: n)
                var sum = 0
                for k in low..<high { sum += Int(scratch[k]) }
                background[i] = Int32(sum / (high - low))
            }
        }
        // Per row: median absolute deviation, in quarter luma steps.
        for y in 0..<height {
            histogram.update(repeating: 0, count: 256)
            var total: UInt32 = 0
            for k in 0..<n {
                let g = Int(calibrationGain[k * height + y])
                let frame = calibration + k * pixelCount + y * width
                for x in 0..<width {
                    let value = (Int(frame[x]) << 28) / max(1, g)
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
        for i in 0..<pixelCount { still[i] = 0 }
        for y in 0..<height { gain[y] = 4096 }
        state = .waitingForClear
    }

    /// The gain of `row` (row y of some image) against the background, x 4096:
    /// the median ratio over every fourth pixel, so a body across part of
    /// the row does not move it.
    func rowGain(_ row: UnsafePointer<UInt8>, y: Int) -> Int32 {
        let model = background + y * width
        var n = 0
        var x = y & 3
        while x < width {
            let b = Int(model[x])
            if b >= 16 << 16 { scratch[n] = Int32((Int(row[x]) << 28) / b); n += 1 }
            x += 4
        }
        guard n >= 8 else { return 4096 }
        return max(256, PrecisionDetector.select(scratch, count: n, rank: n / 2))
    }

    func estimateRowGains() {
        for y in 0..<height { gain[y] = rowGain(current + y * width, y: y) }
    }

    /// The silhouette into `mask` (1 where the pixel is farther from its
    /// gained background than the row's threshold plus 3% of the
    /// background), and the model's upkeep: empty pixels follow the scene
    /// slowly; silhouette pixels unchanged for `absorbStillNanos` become
    /// background. Returns the number of silhouette pixels.
    func segment() -> Int {
        var count = 0
        let shift = updateShift
        let absorb = UInt8(absorbFrames)
        for y in 0..<height {
            let g = Int(gain[y])
            let inverse = (1 << 40) / max(1, g)
            let t = Int(threshold[y])
            let row = y * width
            for x in 0..<width {
                let i = row + x
                let b = Int(background[i])
                let expected = (b * g + (1 << 27)) >> 28
                let v = Int(current[i])
                let d = v - expected
                let limit = t + (expected >> 5)
                if d > limit || d < -limit {
                    mask[i] = 1
                    count += 1
                    let change = v - Int(previous[i])
                    if change <= t && change >= -t {
                        let n = still[i] &+ 1
                        if n >= absorb {
                            background[i] = Int32((v * inverse) >> 12)
                            still[i] = 0
                        } else {
                            still[i] = n
                        }
                    } else {
                        still[i] = 0
                    }
                } else {
                    mask[i] = 0
                    still[i] = 0
                    let target = (v * inverse) >> 12
                    background[i] = Int32(b + (target - b) / (1 << shift))
                }
            }
        }
        return count
    }

    /// The scene as it is now becomes the background (gains back to 1).
    func relearnFromCurrent() {
        for i in 0..<pixelCount {
            background[i] = Int32(current[i]) << 16
            still[i] = 0
        }
        for y in 0..<height { gain[y] = 4096 }
    }

    /// Insertion sort of `count` values (calibration: a few dozen).
    static func sort(_ values: UnsafeMutablePointer<Int32>, count: Int) {
        guard count > 1 else { return }
        for i in 1..<count {
            let v = values[i]
            var j = i - 1
            while j >= 0 && values[j] > v { values[j + 1] = values[j]; j -= 1 }
            values[j + 1] = v
        }
    }
}

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

/// The empty scene the silhouette is cut from, learnt and kept: from frames
/// of the empty scene (calibration: the per-pixel median, each row's noise
/// from the median deviation) or from the first frames (photo-finish), and
/// then kept up to date where the scene is empty (`upkeep`) or has stopped
/// changing (`absorbPixel`); re-learnt at once when most of the view
/// changes. Writes `background`, `background16` and `threshold` (in
/// `WorkPlanes`); owns how long each silhouette pixel has been still.
final class SceneModel: ReadsWorkPlanes {
    let planes: WorkPlanes
    let settings: DetectorSettings
    let rowGains: RowGains
    /// True once the background has been learnt (until `reset`).
    var isLearnt = false
    /// Frames each silhouette pixel has stayed unchanged.
    let still: UnsafeMutablePointer<UInt8>
    let calibration: UnsafeMutablePointer<UInt8>
    /// Learning from the first frames: per row, the histogram of the
    /// frames' deviations from the background, in quarter luma steps.
    let deviationHistograms: UnsafeMutablePointer<UInt32>
    /// Each calibration frame's row gains as their inverses x 2^36; while
    /// learning from the first frames, the previous frame's gains x 4096.
    let calibrationGain: UnsafeMutablePointer<Int32>
    var storedFrames = 0
    /// Calibration's finishing stage (`finishCalibrationStep`) and its next item; -1 while frames are stored.
    var finishStage = -1
    var finishItem = 0
    var lastStoredNanos: Int64 = 0
    let histogram: UnsafeMutablePointer<UInt32>
    var frameIntervalNanos: Int64 = 0
    var lastFrameNanos = Int64.min
    var updateShift = 8
    var absorbFrames = 60
    var hideFrames = 24

    init(planes: WorkPlanes, settings: DetectorSettings, rowGains: RowGains, learning: SceneLearning) {
        self.planes = planes
        self.settings = settings
        self.rowGains = rowGains
        let (pixelCount, height) = (planes.pixelCount, planes.height)
        still = .allocate(capacity: pixelCount)
        still.initialize(repeating: 0, count: pixelCount)
        calibration = .allocate(capacity: learning == .calibration ? pixelCount * settings.calibrationFrames : 1)
        deviationHistograms = .allocate(capacity: learning == .firstFrames ? height * 256 : 1)
        calibrationGain = .allocate(capacity: height * settings.calibrationFrames)
        histogram = .allocate(capacity: 256)
        histogram.initialize(repeating: 0, count: 256)
    }

    deinit {
        still.deallocate(); calibration.deallocate(); deviationHistograms.deallocate(); calibrationGain.deallocate()
        histogram.deallocate()
    }

    /// Forgets the scene: learning starts again.
    func reset() {
        isLearnt = false
        storedFrames = 0
        finishStage = -1
        lastFrameNanos = Int64.min
        frameIntervalNanos = 0
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
        rowGains.estimateRowGains()
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
        isLearnt = true
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

    func finishItems(_ stage: Int) -> Int { stage == 1 ? settings.calibrationFrames : height }

    /// An item's cost, in the same unit for every stage (measured at 320 x
    /// 240 and 30 frames: 10, 35, 130 and 11 us).
    func finishWeight(_ stage: Int) -> Int {
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
        for stage in 0..<SceneModel.finishStages { total += finishItems(stage) * finishWeight(stage) }
        let interval = frameIntervalNanos > 0 ? frameIntervalNanos : 8_333_333
        var budget = max(1, Int(Double(total) * Double(interval) / Double(max(1, settings.calibrationFinishNanos))))
        while budget > 0 && finishStage < SceneModel.finishStages {
            finishItem(finishStage, finishItem)
            budget -= finishWeight(finishStage)
            finishItem += 1
            if finishItem == finishItems(finishStage) {
                finishStage += 1
                finishItem = 0
            }
        }
        guard finishStage == SceneModel.finishStages else { return }
        finishStage = -1
        backgroundLearnt()
    }

    func finishItem(_ stage: Int, _ item: Int) {
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
                calibrationGain[k * height + y] = Int32((1 << 36) / max(1, Int(rowGains.rowGain(frame + y * width, y: y))))
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

    /// Pixel `i`'s luma, brought to the background's light, becomes its model.
    func absorbPixel(_ i: Int, inverse: Int) {
        let value = Int32(truncatingIfNeeded: (Int(current[i]) &* inverse) >> 12)
        background[i] = value
        background16[i] = SceneModel.narrow(value)
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
        for i in 0..<pixelCount { background16[i] = SceneModel.narrow(background[i]) }
    }

    /// A background value (luma x 65536) as luma x 256 in 16 bits.
    @inline(__always)
    static func narrow(_ value: Int32) -> UInt16 {
        UInt16(truncatingIfNeeded: min(65535, max(0, value >> 8)))
    }
}

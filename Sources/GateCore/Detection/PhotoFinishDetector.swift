/// The photo-finish detector: frame differencing on a box-averaged work
/// image, an adaptive noise threshold, the largest moving blob, its torso
/// front, and a sub-frame fit of that front across the gate line.
///
/// The torso rule: the leading edge is measured only inside the torso band
/// (shoulders to hips of the blob) and only where a column is mostly filled,
/// so an arm, a hand or a swinging leg ahead of the torso does not move it.
///
/// Every buffer is allocated in `init`; `process` allocates nothing.
public final class PhotoFinishDetector {
    public let settings: DetectorSettings
    public let image: WorkImage
    public var workWidth: Int { image.width }
    public var workHeight: Int { image.height }

    private var previous: UnsafeMutablePointer<UInt8>
    private var current: UnsafeMutablePointer<UInt8>
    private let difference: UnsafeMutablePointer<UInt8>
    private let histogram: UnsafeMutablePointer<UInt32>
    private let components: ConnectedComponents
    private let tracker: FrontTracker
    /// Per-row coverage estimates of the front column (one band's worth).
    private let rowCoverage: UnsafeMutablePointer<Double>

    private var framesSeen = 0
    /// The moving-pixel threshold, learnt during warm-up.
    public private(set) var noiseThreshold: UInt8 = 40

    public init(width: Int, height: Int, settings: DetectorSettings = DetectorSettings()) {
        precondition(settings.fitSamples >= 2, "fit needs two samples")
        self.settings = settings
        image = WorkImage(sourceWidth: width, sourceHeight: height, workWidth: settings.workWidth)
        let workWidth = image.width, workHeight = image.height
        let pixels = image.pixelCount
        previous = .allocate(capacity: pixels)
        current = .allocate(capacity: pixels)
        difference = .allocate(capacity: pixels)
        histogram = .allocate(capacity: 256)
        histogram.initialize(repeating: 0, count: 256)
        components = ConnectedComponents(width: workWidth, height: workHeight)
        tracker = FrontTracker(settings: settings, workWidth: workWidth, gateX: image.gateColumn(settings.gatePosition))
        rowCoverage = .allocate(capacity: workHeight)
    }

    deinit {
        previous.deallocate(); current.deallocate(); difference.deallocate()
        histogram.deallocate(); rowCoverage.deallocate()
    }

    /// Forgets the scene (after the camera moved): warm-up starts again.
    public func reset() {
        framesSeen = 0
        histogram.update(repeating: 0, count: 256)
        noiseThreshold = 40
        tracker.reset()
    }

    /// True once the noise threshold has been learnt.
    public var isWarm: Bool { framesSeen > settings.warmupFrames }

    /// Feeds one frame; returns a crossing when the torso front passed the gate line.
    public func process(_ frame: LumaFrame) -> DetectedCrossing? {
        image.downsample(frame, into: current)
        framesSeen += 1
        if framesSeen == 1 {
            swap(&previous, &current)
            return nil
        }
        let moving = differenceAgainstPrevious()
        swap(&previous, &current)
        if framesSeen <= settings.warmupFrames + 1 {
            if framesSeen == settings.warmupFrames + 1 { learnThreshold() }
            return nil
        }
        guard moving >= settings.minMovingPixels,
              let largest = components.largest(in: difference, threshold: noiseThreshold)
        else {
            tracker.missBody()
            return nil
        }
        // The body: every sizeable moving piece within half a body height of
        // the largest one (differencing breaks a body into pieces).
        let reach = max(largest.height, workHeight / 3) / 2
        guard let blob = components.union(touchingColumns: (largest.minX - reach)...(largest.maxX + reach),
                                          minArea: max(4, largest.area / 20)),
              Double(blob.height) >= settings.minBlobHeightFraction * Double(workHeight)
        else {
            tracker.missBody()
            return nil
        }
        // Direction from the blob's centroid drift, smoothed over frames.
        guard let direction = tracker.observe(centroid: blob.centroidX) else { return nil }

        // The torso band and its front column. The largest blob proves a body
        // and fixes the band; the front is looked for among all moving pixels
        // near it, because differencing splits a plain-coloured body into
        // separate front and back edges.
        let bandTop = blob.minY + Int(settings.torsoBandTop * Double(blob.height))
        let bandBottom = max(bandTop + 1, blob.minY + Int(settings.torsoBandBottom * Double(blob.height)))
        let bandHeight = bandBottom - bandTop + 1
        let needed = max(2, Int(settings.torsoColumnFill * Double(bandHeight)))
        let margin = blob.height / 2
        guard let column = frontColumn(direction: direction, minX: max(0, blob.minX - margin),
                                       maxX: min(workWidth - 1, blob.maxX + margin),
                                       rows: bandTop...bandBottom, needed: needed)
        else { return nil }
        let edge = subPixelFront(column: column, direction: direction, rows: bandTop...bandBottom)

        // Rolling shutter: the band's centre row was exposed later than the top row.
        let bandCentreRow = (Double(bandTop + bandBottom) / 2 + 0.5) / Double(workHeight)
        let sampleNanos = frame.timestampNanos + Int64(Double(settings.readoutNanos) * bandCentreRow)
        return tracker.add(front: edge, atNanos: sampleNanos, direction: direction, frame: frame,
                           occupancy: Double(blob.height) / Double(workHeight))
    }

    // MARK: - Steps

    /// |current - previous| into `difference`, each row of the current image
    /// first scaled to the previous one's brightness: mains flicker seen
    /// through a rolling shutter (and a cloud) changes whole rows at once,
    /// which is light, not motion. Counts pixels over the threshold and,
    /// during warm-up, builds the histogram of differences.
    private func differenceAgainstPrevious() -> Int {
        let threshold = noiseThreshold
        let warming = framesSeen <= settings.warmupFrames + 1
        let w = workWidth
        var moving = 0
        for y in 0..<workHeight {
            let cur = current + y * w, prev = previous + y * w, out = difference + y * w
            var sumCur = 0, sumPrev = 0
            for x in 0..<w { sumCur &+= Int(cur[x]); sumPrev &+= Int(prev[x]) }
            // Row gain in 1/4096ths; a body moving within the row changes its
            // sum far less than flicker does, and only at its edges.
            let gain = sumCur > 0 ? (sumPrev << 12) / sumCur : 4096
            for x in 0..<w {
                let scaled = min(255, (Int(cur[x]) * gain + 2048) >> 12)
                let b = Int(prev[x])
                let d = UInt8(scaled > b ? scaled - b : b - scaled)
                out[x] = d
                if d > threshold { moving += 1 }
                if warming { histogram[Int(d)] += 1 }
            }
        }
        return moving
    }

    /// Threshold = median + 3.5 x 1.4826 x MAD of the warm-up differences, clamped to 8...40.
    private func learnThreshold() {
        var total: UInt64 = 0
        for v in 0..<256 { total += UInt64(histogram[v]) }
        guard total > 0 else { return }
        let median = PhotoFinishDetector.histogramMedian(total: total) { histogram[$0] }
        let mad = PhotoFinishDetector.histogramMedian(total: total) { deviation in
            // Count of values at |v - median| == deviation.
            var n: UInt32 = 0
            if median + deviation < 256 { n += histogram[median + deviation] }
            if deviation > 0 && median - deviation >= 0 { n += histogram[median - deviation] }
            return n
        }
        let raw = Double(median) + 3.5 * 1.4826 * Double(mad)
        noiseThreshold = UInt8(min(40.0, max(8.0, raw.rounded(.up))))
    }

    private static func histogramMedian(total: UInt64, _ bin: (Int) -> UInt32) -> Int {
        var seen: UInt64 = 0
        for v in 0..<256 {
            seen += UInt64(bin(v))
            if seen * 2 >= total { return v }
        }
        return 255
    }

    /// The outermost column, on the side the body moves to, with at least
    /// `needed` moving pixels inside the band: arms and hands are too thin to
    /// fill the band, the torso is not. A count, not the longest run, so an
    /// arm held across the chest (which hides the torso edge in its own
    /// rows) does not disqualify the torso's column.
    private func frontColumn(direction: CrossingDirection, minX: Int, maxX: Int,
                             rows: ClosedRange<Int>, needed: Int) -> Int? {
        var x = direction == .leftToRight ? maxX : minX
        let step = direction == .leftToRight ? -1 : 1
        let threshold = noiseThreshold
        while x >= minX && x <= maxX {
            var count = 0
            for y in rows where difference[y * workWidth + x] > threshold { count += 1 }
            if count >= needed { return x }
            x += step
        }
        return nil
    }

    /// Where inside `column` the torso front lies, in work pixels. The front
    /// column is partly covered: its luma lies between the torso's (two
    /// columns inside) and the background's (one column outside), in
    /// proportion to the covered fraction. Each band row gives an estimate;
    /// their median ignores rows where an arm or a seam spoils one.
    /// Without this the front is quantized to whole pixels, and at speeds
    /// of a whole number of pixels per frame that error is the same in every
    /// sample, so the line fit cannot average it away.
    private func subPixelFront(column: Int, direction: CrossingDirection, rows: ClosedRange<Int>) -> Double {
        let inward = direction == .leftToRight ? -1 : 1
        let inside = column + 2 * inward, outside = column - inward
        guard inside >= 0 && inside < workWidth && outside >= 0 && outside < workWidth else { return Double(column) + 0.5 }
        // The current frame's work image (after the swap it is `previous`).
        let pixels = previous
        var count = 0
        let minimumContrast = 3 * Double(noiseThreshold)
        for y in rows {
            let row = pixels + y * workWidth
            let torso = Double(row[inside]), background = Double(row[outside]), edge = Double(row[column])
            let contrast = torso - background
            if contrast.magnitude < minimumContrast { continue }
            rowCoverage[count] = min(1, max(0, (edge - background) / contrast))
            count += 1
        }
        guard count >= 3 else { return Double(column) + 0.5 }
        // Median by insertion sort: a band is a few dozen rows at most.
        for i in 1..<count {
            let v = rowCoverage[i]
            var j = i - 1
            while j >= 0 && rowCoverage[j] > v { rowCoverage[j + 1] = rowCoverage[j]; j -= 1 }
            rowCoverage[j + 1] = v
        }
        let coverage = count % 2 == 1 ? rowCoverage[count / 2] : (rowCoverage[count / 2 - 1] + rowCoverage[count / 2]) / 2
        return direction == .leftToRight ? Double(column) + coverage : Double(column + 1) - coverage
    }
}

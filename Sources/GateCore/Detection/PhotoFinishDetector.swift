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
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// Box-averaging factor from the frame to the work image.
    public let factor: Int
    public let workWidth: Int
    public let workHeight: Int

    private var previous: UnsafeMutablePointer<UInt8>
    private var current: UnsafeMutablePointer<UInt8>
    private let difference: UnsafeMutablePointer<UInt8>
    private let histogram: UnsafeMutablePointer<UInt32>
    private let components: ConnectedComponents
    private let sampleTimes: UnsafeMutablePointer<Double>
    private let sampleEdges: UnsafeMutablePointer<Double>
    /// Per-row coverage estimates of the front column (one band's worth).
    private let rowCoverage: UnsafeMutablePointer<Double>

    private var framesSeen = 0
    /// The moving-pixel threshold, learnt during warm-up.
    public private(set) var noiseThreshold: UInt8 = 40
    private var sampleCount = 0
    private var sampleNext = 0
    private var sampleBaseNanos: Int64 = 0
    private var lastCentroid = -1.0
    private var motion = 0.0
    private var framesWithoutBody = 0
    private var rearmed = true
    private var lastCrossingNanos = Int64.min
    private let gateX: Double

    public init(width: Int, height: Int, settings: DetectorSettings = DetectorSettings()) {
        precondition(width >= 16 && height >= 16, "frame too small for detection")
        precondition(settings.fitSamples >= 2, "fit needs two samples")
        self.settings = settings
        sourceWidth = width
        sourceHeight = height
        factor = max(1, width / max(16, settings.workWidth))
        workWidth = width / factor
        workHeight = height / factor
        let pixels = workWidth * workHeight
        previous = .allocate(capacity: pixels)
        current = .allocate(capacity: pixels)
        difference = .allocate(capacity: pixels)
        histogram = .allocate(capacity: 256)
        histogram.initialize(repeating: 0, count: 256)
        components = ConnectedComponents(width: workWidth, height: workHeight)
        sampleTimes = .allocate(capacity: settings.fitSamples)
        sampleEdges = .allocate(capacity: settings.fitSamples)
        rowCoverage = .allocate(capacity: workHeight)
        gateX = settings.gatePosition * Double(width) / Double(factor)
    }

    deinit {
        previous.deallocate(); current.deallocate(); difference.deallocate()
        histogram.deallocate(); sampleTimes.deallocate(); sampleEdges.deallocate(); rowCoverage.deallocate()
    }

    /// Forgets the scene (after the camera moved): warm-up starts again.
    public func reset() {
        framesSeen = 0
        histogram.update(repeating: 0, count: 256)
        noiseThreshold = 40
        framesWithoutBody = 0
        loseBody()
        rearmed = true
    }

    /// True once the noise threshold has been learnt.
    public var isWarm: Bool { framesSeen > settings.warmupFrames }

    /// Feeds one frame; returns a crossing when the torso front passed the gate line.
    public func process(_ frame: LumaFrame) -> DetectedCrossing? {
        precondition(frame.width == sourceWidth && frame.height == sourceHeight, "frame size changed")
        downsample(frame, into: current)
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
            missBody()
            return nil
        }
        // The body: every sizeable moving piece within half a body height of
        // the largest one (differencing breaks a body into pieces).
        let reach = max(largest.height, workHeight / 3) / 2
        guard let blob = components.union(touchingColumns: (largest.minX - reach)...(largest.maxX + reach),
                                          minArea: max(4, largest.area / 20)),
              Double(blob.height) >= settings.minBlobHeightFraction * Double(workHeight)
        else {
            missBody()
            return nil
        }
        framesWithoutBody = 0

        // Direction from the blob's centroid drift, smoothed over frames.
        let centroid = blob.centroidX
        if lastCentroid >= 0 { motion = 0.5 * motion + (centroid - lastCentroid) }
        lastCentroid = centroid
        guard motion > 0.25 || motion < -0.25 else { return nil }
        let direction: CrossingDirection = motion > 0 ? .leftToRight : .rightToLeft

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
        let previousEdge = sampleCount > 0 ? sampleEdges[(sampleNext + settings.fitSamples - 1) % settings.fitSamples] : edge
        addSample(nanos: sampleNanos, edge: edge)

        let sign = direction == .leftToRight ? 1.0 : -1.0
        let distance = (edge - gateX) * sign
        if !rearmed {
            let away = distance * distance > (settings.rearmDistanceFraction * Double(workWidth)) * (settings.rearmDistanceFraction * Double(workWidth))
            if away && frame.timestampNanos - lastCrossingNanos >= settings.cooldownNanos { rearmed = true }
            return nil
        }
        guard sampleCount >= 2, (previousEdge - gateX) * sign < 0, distance >= 0 else { return nil }
        guard let fit = fitLine(), fit.slope * sign >= settings.minVelocityPixelsPerSecond else { return nil }

        let crossingSeconds = (gateX - fit.intercept) / fit.slope
        let crossingNanos = sampleBaseNanos + Int64(crossingSeconds * 1e9)
        if lastCrossingNanos != Int64.min && crossingNanos - lastCrossingNanos < settings.cooldownNanos { return nil }
        rearmed = false
        lastCrossingNanos = crossingNanos
        let edgeSigma = (fit.residualVariance + 1.0 / 12.0) / Double(fit.count)
        let uncertaintySeconds = squareRoot(edgeSigma) / (fit.slope * sign)
        return DetectedCrossing(
            timeNanos: crossingNanos,
            frameIndex: frame.sequence,
            interpolationOffsetMs: Double(crossingNanos - frame.timestampNanos) / 1e6,
            direction: direction,
            velocityWorkPixelsPerSecond: fit.slope,
            velocityWidthsPerSecond: fit.slope / (Double(sourceWidth) / Double(factor)),
            uncertaintyMs: uncertaintySeconds * 1000,
            occupancyAtTrigger: Double(blob.height) / Double(workHeight))
    }

    // MARK: - Steps

    private func downsample(_ frame: LumaFrame, into target: UnsafeMutablePointer<UInt8>) {
        let f = factor
        let area = f * f
        for wy in 0..<workHeight {
            let out = target + wy * workWidth
            for wx in 0..<workWidth {
                var sum = 0
                for dy in 0..<f {
                    let row = frame.pixels + (wy * f + dy) * frame.rowStride + wx * f * frame.pixelStride
                    for dx in 0..<f { sum &+= Int(row[dx &* frame.pixelStride]) }
                }
                out[wx] = UInt8(truncatingIfNeeded: (sum + area / 2) / area)
            }
        }
    }

    /// |current - previous| into `difference`; counts pixels over the
    /// threshold and, during warm-up, builds the histogram of differences.
    private func differenceAgainstPrevious() -> Int {
        let count = workWidth * workHeight
        let threshold = noiseThreshold
        let warming = framesSeen <= settings.warmupFrames + 1
        var moving = 0
        for i in 0..<count {
            let a = current[i], b = previous[i]
            let d = a > b ? a - b : b - a
            difference[i] = d
            if d > threshold { moving += 1 }
            if warming { histogram[Int(d)] += 1 }
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
        let image = previous
        var count = 0
        let minimumContrast = 3 * Double(noiseThreshold)
        for y in rows {
            let row = image + y * workWidth
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

    private func addSample(nanos: Int64, edge: Double) {
        if sampleCount == 0 { sampleBaseNanos = nanos }
        sampleTimes[sampleNext] = Double(nanos - sampleBaseNanos) / 1e9
        sampleEdges[sampleNext] = edge
        sampleNext = (sampleNext + 1) % settings.fitSamples
        if sampleCount < settings.fitSamples { sampleCount += 1 }
    }

    /// A frame without a usable body. A frame or two can be lost inside a
    /// pass (the body falls apart, a limb merges oddly); the track survives
    /// them, and is forgotten only after `trackGapFrames` in a row.
    private func missBody() {
        framesWithoutBody += 1
        if framesWithoutBody > PhotoFinishDetector.trackGapFrames { loseBody() }
    }

    static let trackGapFrames = 2

    private func loseBody() {
        sampleCount = 0
        sampleNext = 0
        lastCentroid = -1
        motion = 0
        if !rearmed && framesWithoutBody > PhotoFinishDetector.trackGapFrames { rearmed = true }
    }

    private struct LineFit { var intercept: Double; var slope: Double; var residualVariance: Double; var count: Int }

    /// Least squares edge = intercept + slope x t over the kept samples.
    private func fitLine() -> LineFit? {
        let n = sampleCount
        var st = 0.0, se = 0.0
        for i in 0..<n { st += sampleTimes[i]; se += sampleEdges[i] }
        let mt = st / Double(n), me = se / Double(n)
        var stt = 0.0, ste = 0.0
        for i in 0..<n {
            let dt = sampleTimes[i] - mt
            stt += dt * dt
            ste += dt * (sampleEdges[i] - me)
        }
        guard stt > 0 else { return nil }
        let slope = ste / stt
        let intercept = me - slope * mt
        var sse = 0.0
        for i in 0..<n {
            let r = sampleEdges[i] - (intercept + slope * sampleTimes[i])
            sse += r * r
        }
        let dof = n > 2 ? Double(n - 2) : 1
        return LineFit(intercept: intercept, slope: slope, residualVariance: sse / dof, count: n)
    }
}

@inline(__always)
func squareRoot(_ x: Double) -> Double { x.squareRoot() }

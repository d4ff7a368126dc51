/// What both detection modes share once they have found the torso front in
/// a frame: the direction of travel, a short history of front positions, the
/// sub-frame fit across the gate line, cooldown and rearming. Storage is
/// allocated in init; nothing is allocated per frame.
final class FrontTracker {
    let settings: DetectorSettings
    let workWidth: Int
    let gateX: Double
    private let times: UnsafeMutablePointer<Double>
    private let fronts: UnsafeMutablePointer<Double>
    private var count = 0
    private var next = 0
    private var baseNanos: Int64 = 0
    private var lastCentroid = -1.0
    private var motion = 0.0
    private(set) var framesWithoutBody = 0
    private var rearmed = true
    private var lastCrossingNanos = Int64.min
    /// The front's speed from the last two samples, work columns per second (0: unknown).
    private(set) var velocity = 0.0

    /// Frames without a usable body the track survives (the body falls
    /// apart for a frame, a limb merges oddly).
    static let gapFrames = 2

    init(settings: DetectorSettings, workWidth: Int, gateX: Double) {
        self.settings = settings
        self.workWidth = workWidth
        self.gateX = gateX
        times = .allocate(capacity: settings.fitSamples)
        fronts = .allocate(capacity: settings.fitSamples)
    }

    deinit {
        times.deallocate()
        fronts.deallocate()
    }

    func reset() {
        framesWithoutBody = FrontTracker.gapFrames + 1
        forget()
        rearmed = true
    }

    /// A frame without a usable body.
    func missBody() {
        framesWithoutBody += 1
        if framesWithoutBody > FrontTracker.gapFrames {
            forget()
            if !rearmed { rearmed = true }
        }
    }

    private func forget() {
        velocity = 0
        count = 0
        next = 0
        lastCentroid = -1
        motion = 0
    }

    /// The body's centroid this frame; returns the direction of travel once
    /// the drift is clear, nil while it is not.
    func observe(centroid: Double) -> CrossingDirection? {
        framesWithoutBody = 0
        if lastCentroid >= 0 { motion = 0.5 * motion + (centroid - lastCentroid) }
        lastCentroid = centroid
        guard motion > 0.25 || motion < -0.25 else { return nil }
        return motion > 0 ? .leftToRight : .rightToLeft
    }

    /// Adds this frame's torso front (work columns) seen at `nanos`; returns
    /// a crossing when the front has just reached the gate line.
    func add(front: Double, atNanos nanos: Int64, direction: CrossingDirection, frame: LumaFrame,
             occupancy: Double) -> DetectedCrossing? {
        let last = (next + settings.fitSamples - 1) % settings.fitSamples
        let previous = count > 0 ? fronts[last] : front
        if count == 0 { baseNanos = nanos }
        let seconds = Double(nanos - baseNanos) / 1e9
        if count > 0 && seconds > times[last] { velocity = (front - previous) / (seconds - times[last]) }
        times[next] = seconds
        fronts[next] = front
        next = (next + 1) % settings.fitSamples
        if count < settings.fitSamples { count += 1 }

        let sign = direction == .leftToRight ? 1.0 : -1.0
        let distance = (front - gateX) * sign
        if !rearmed {
            let away = settings.rearmDistanceFraction * Double(workWidth)
            if distance.magnitude > away && frame.timestampNanos - lastCrossingNanos >= settings.cooldownNanos { rearmed = true }
            return nil
        }
        guard count >= 2, (previous - gateX) * sign < 0, distance >= 0 else { return nil }
        guard let fit = fitLine(), fit.slope * sign >= settings.minVelocityPixelsPerSecond else { return nil }

        let crossingSeconds = (gateX - fit.intercept) / fit.slope
        let crossingNanos = baseNanos + Int64((crossingSeconds * 1e9).rounded())
        if lastCrossingNanos != Int64.min && crossingNanos - lastCrossingNanos < settings.cooldownNanos { return nil }
        rearmed = false
        lastCrossingNanos = crossingNanos
        // Residual scatter plus a pixel's quantization, over the samples, in time.
        let frontVariance = (fit.residualVariance + 1.0 / 12.0) / Double(fit.count)
        let uncertaintySeconds = frontVariance.squareRoot() / (fit.slope * sign)
        return DetectedCrossing(
            timeNanos: crossingNanos,
            frameIndex: frame.sequence,
            interpolationOffsetMs: Double(crossingNanos - frame.timestampNanos) / 1e6,
            direction: direction,
            velocityWorkPixelsPerSecond: fit.slope,
            velocityWidthsPerSecond: fit.slope / Double(workWidth),
            uncertaintyMs: uncertaintySeconds * 1000,
            occupancyAtTrigger: occupancy)
    }

    struct LineFit { var intercept: Double; var slope: Double; var residualVariance: Double; var count: Int }

    /// Least squares front = intercept + slope x t over the kept samples.
    private func fitLine() -> LineFit? {
        let n = count
        var st = 0.0, sf = 0.0
        for i in 0..<n { st += times[i]; sf += fronts[i] }
        let mt = st / Double(n), mf = sf / Double(n)
        var stt = 0.0, stf = 0.0
        for i in 0..<n {
            let dt = times[i] - mt
            stt += dt * dt
            stf += dt * (fronts[i] - mf)
        }
        guard stt > 0 else { return nil }
        let slope = stf / stt
        let intercept = mf - slope * mt
        var sse = 0.0
        for i in 0..<n {
            let r = fronts[i] - (intercept + slope * times[i])
            sse += r * r
        }
        return LineFit(intercept: intercept, slope: slope, residualVariance: sse / Double(max(1, n - 2)), count: n)
    }
}

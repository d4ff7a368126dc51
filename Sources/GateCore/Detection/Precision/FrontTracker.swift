/// What follows one torso's front once a frame has found it: a short
/// history of front positions, the sub-frame fit across the gate line,
/// cooldown and rearming. Storage is allocated in init; nothing is
/// allocated per frame.
///
/// Two ways to time the crossing: at once, from a line through the last
/// `fitSamples` fronts (`postroll` 0); or, with a `postroll` of n, n
/// samples later, from a quadratic through the samples on both sides of
/// the line (the detectors' default: an accelerating runner's front is not
/// a straight line in time, and samples after the line halve the
/// extrapolation).
final class FrontTracker {
    let settings: DetectorSettings
    let workWidth: Int
    let gateX: Double
    let times: UnsafeMutablePointer<Double>
    let fronts: UnsafeMutablePointer<Double>
    /// Samples the fits use (the postroll fit leaves out outliers).
    let included: UnsafeMutablePointer<Bool>
    let residuals: UnsafeMutablePointer<Double>
    /// Room to rebuild the ring in time order (`removeExcluded`).
    let spareTimes: UnsafeMutablePointer<Double>
    let spareFronts: UnsafeMutablePointer<Double>
    /// The samples the last jump dropped, kept while it is on trial (`checkHeldJump`).
    let droppedTimes: UnsafeMutablePointer<Double>
    let droppedFronts: UnsafeMutablePointer<Double>
    var droppedCount = 0
    var count = 0
    var next = 0
    var baseNanos: Int64 = 0
    var rearmed = true
    var lastCrossingNanos = Int64.min
    /// Crossings timed since init (by the fronts or, through `noteCrossing`, otherwise).
    var crossings = 0
    /// True when a front reaching the line now would be timed (not within a crossing's rearming).
    var isArmed: Bool { rearmed }
    /// The front's speed from the last two samples, work columns per second (0: unknown).
    private(set) var velocity = 0.0
    /// Samples still awaited after the front reached the line before it is timed (0: none pending).
    let postroll: Int
    /// ... and then more, until this long after the first at or past the
    /// line, up to `maxPostroll` samples after it (see `add`).
    let postrollSeconds: Double
    let maxPostroll: Int
    /// The postroll fit takes at least this many samples before the line,
    /// and every one of the last `fitSpanSeconds` before it.
    let samplesBefore: Int
    let fitSpanSeconds: Double
    /// The first sample at or past the line of the pending crossing (seconds from `baseNanos`).
    var pendingSeconds = 0.0
    var pendingLeft = 0
    var pendingFrame: UInt32 = 0
    var pendingFrameNanos: Int64 = 0
    var pendingOccupancy = 0.0
    var pendingDirection = CrossingDirection.leftToRight
    /// True while a crossing waits for its postroll samples.
    var hasPendingCrossing: Bool { pendingLeft > 0 }
    /// True once a front has been added since the last reset (the track has a direction).
    var hasFronts: Bool { count > 0 }

    /// Frames without a usable torso a track survives at least (a limb
    /// across it for a frame).
    static let gapFrames = 2

    /// `samplesBefore` (default: all the ring holds) and `fitSpanNanos`
    /// choose the postroll fit's samples before the line; `postrollNanos`
    /// and `maxPostroll` (default: `postroll`) how long it goes on after it.
    init(settings: DetectorSettings, workWidth: Int, gateX: Double, postroll: Int = 0, samplesBefore: Int? = nil,
         fitSpanNanos: Int64 = 0, postrollNanos: Int64 = 0, maxPostroll: Int? = nil) {
        let maxPostroll = max(postroll, maxPostroll ?? postroll)
        precondition(postroll >= 0 && maxPostroll < settings.fitSamples, "postroll must leave samples before the line")
        self.settings = settings
        self.workWidth = workWidth
        self.gateX = gateX
        self.postroll = postroll
        postrollSeconds = Double(postrollNanos) / 1e9
        self.maxPostroll = maxPostroll
        self.samplesBefore = min(samplesBefore ?? settings.fitSamples, settings.fitSamples - 1 - maxPostroll)
        fitSpanSeconds = Double(fitSpanNanos) / 1e9
        times = .allocate(capacity: settings.fitSamples)
        fronts = .allocate(capacity: settings.fitSamples)
        included = .allocate(capacity: settings.fitSamples)
        included.initialize(repeating: true, count: settings.fitSamples)
        residuals = .allocate(capacity: settings.fitSamples)
        spareTimes = .allocate(capacity: settings.fitSamples)
        spareFronts = .allocate(capacity: settings.fitSamples)
        droppedTimes = .allocate(capacity: settings.fitSamples)
        droppedFronts = .allocate(capacity: settings.fitSamples)
    }

    deinit {
        times.deallocate()
        fronts.deallocate()
        included.deallocate()
        residuals.deallocate()
        spareTimes.deallocate()
        spareFronts.deallocate()
        droppedTimes.deallocate()
        droppedFronts.deallocate()
    }

    func reset() {
        forgetFronts()
        rearmed = true
        fresh = true
    }

    /// True from `reset` to the first front: a new track, not one that turned.
    var fresh = true
    /// The crossing pending is a late start's (`lateStartSeconds`).
    var lateStart = false

    /// Drops the fronts and any crossing pending on them, keeping the
    /// cooldown and the rearming (a track that turned: its fronts were the
    /// other side's edge; it is still the body that just crossed).
    func forgetFronts() {
        pendingLeft = 0
        fresh = false
        lateStart = false
        jumpIndex = -1
        heldJump = nil
        earliestRoot = nil
        velocity = 0
        count = 0
        next = 0
    }

    /// Adds this frame's torso front (work columns) seen at `nanos`; returns
    /// a crossing when the front has just reached the gate line.
    ///
    /// `jumpLimit` (work pixels): farther than this ahead of where its speed
    /// takes it, the front has not moved there; a different outline is being
    /// measured (see `noteJump`).
    func add(front: Double, atNanos nanos: Int64, direction: CrossingDirection, frame: LumaFrame,
             occupancy: Double, jumpLimit: Double = .infinity) -> DetectedCrossing? {
        if count == 0 { baseNanos = nanos }
        let seconds = Double(nanos - baseNanos) / 1e9
        if heldJump != nil { checkHeldJump(front: front, seconds: seconds, direction: direction, limit: jumpLimit) }
        noteJump(front: front, seconds: seconds, direction: direction, limit: jumpLimit)
        curvatureLimit = FrontTracker.curvatureLimits * jumpLimit
        let last = (next + settings.fitSamples - 1) % settings.fitSamples
        let previous = count > 0 ? fronts[last] : front
        if count > 0 && seconds > times[last] { velocity = (front - previous) / (seconds - times[last]) }
        times[next] = seconds
        fronts[next] = front
        next = (next + 1) % settings.fitSamples
        if count < settings.fitSamples { count += 1 }

        if pendingLeft > 0 {
            pendingLeft -= 1
            // The postroll is a time too, as the fit's span before the line
            // is: samples past the line for as long as those before it, so
            // that a limb across the front for a few frames (an arm swinging
            // across it takes about a tenth of a second at any frame rate)
            // is a minority the outlier test leaves out on both sides.
            // Three samples past the line were 12 ms at 240 fps, often the
            // limb's alone; at 30 fps, four frames off about the line were
            // four of the seven samples. Measured on the second renderer's
            // ten sets (1000 crossings, both modes), 150 ms on both sides
            // against three samples after and 100 ms before: within 1 ms
            // 731 -> 786, within 5 ms 925 -> 933.
            if pendingLeft == 0 && seconds - pendingSeconds < postrollSeconds && samplesAfterPending() < maxPostroll {
                pendingLeft = 1
            }
            return pendingLeft == 0 ? finishPending() : nil
        }
        let sign = direction == .leftToRight ? 1.0 : -1.0
        let distance = (front - gateX) * sign
        if !rearmed {
            let away = settings.rearmDistanceFraction * Double(workWidth)
            let behind = distance < -FrontTracker.rearmBehindJumpLimits * jumpLimit
            if (distance.magnitude > away || behind) && frame.timestampNanos - lastCrossingNanos >= settings.cooldownNanos {
                rearmed = true
            }
            return nil
        }
        // A new track whose first front is already past the line: a late
        // start (`lateStartSeconds`), timed from its fronts after the line.
        let late = fresh && count == 1 && distance >= 0 && postroll > 0
        fresh = false
        guard late || (count >= 2 && (previous - gateX) * sign < 0 && distance >= 0) else { return nil }
        lateStart = late
        if postroll > 0 {
            pendingLeft = postroll
            pendingSeconds = seconds
            pendingFrame = frame.sequence
            pendingFrameNanos = frame.timestampNanos
            pendingOccupancy = occupancy
            pendingDirection = direction
            return nil
        }
        guard let fit = fitLine(), fit.slope * sign >= settings.minVelocityPixelsPerSecond else { return nil }

        let crossingSeconds = (gateX - fit.intercept) / fit.slope
        let crossingNanos = baseNanos + Int64((crossingSeconds * 1e9).rounded())
        if lastCrossingNanos != Int64.min && crossingNanos - lastCrossingNanos < settings.cooldownNanos { return nil }
        markCrossed(atNanos: crossingNanos)
        // Residual scatter plus a pixel's quantization.
        let uncertaintySeconds = FrontTracker.uncertaintySeconds(scatter: fit.residualVariance + 1.0 / 12.0, of: fit,
                                                                 at: crossingSeconds, speed: fit.slope * sign)
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

    /// The error of the measured front as a model of the torso's (one
    /// sigma, work pixels): the sub-pixel edge of a round, blurred,
    /// leaning torso, the same in every sample of a crossing, so no number
    /// of samples averages it out. The sample scatter alone made the
    /// reported uncertainty far too small. Measured on the second
    /// renderer's plain runners (`make accuracy-second`, both modes): 18%
    /// of the crossings within it and 29% within twice it before; 73% and
    /// 82% with this. Its hard profile: 9% and 17% before, 40% and 53%
    /// with this (most of its errors are segmentation's, a torso taken
    /// from the wrong pixels, which no scatter model covers). On GateSim's
    /// corpus, whose torsos are the detector's own model, every error now
    /// lies within it (50-83% before).
    static let frontModelPixels = 0.3

    /// A crossing's one-sigma uncertainty (seconds) from the samples'
    /// `scatter` (variance, work pixels squared) about the `line` through
    /// them, met at `crossingSeconds` at `speed` (work pixels per second):
    /// the line's standard error there, so that a crossing among its
    /// samples is known to the scatter over their number, and one carried
    /// over a gap (no front for a dozen frames at the line) or back from
    /// the fronts after it less well, by the square of its distance from
    /// their centre against their spread; on top of that the front's own
    /// error, the same in every sample (`frontModelPixels`), and `other`
    /// (variance, work pixels squared) if the front was estimated otherwise.
    static func uncertaintySeconds(scatter: Double, of line: LineFit, at crossingSeconds: Double,
                                   speed: Double, other: Double = 0) -> Double {
        let variance = line.variance(at: crossingSeconds, scatter: scatter) + other
            + FrontTracker.frontModelPixels * FrontTracker.frontModelPixels
        return variance.squareRoot() / speed
    }

    /// A forward jump of the front waiting for the next sample to confirm
    /// it: the ring index of the sample that jumped (-1: none), and the
    /// speed before the jump.
    var jumpIndex = -1
    var jumpVelocity = 0.0
    /// The largest curvature (c of a + b t + c t^2, work pixels per s^2) a
    /// front's path may have, from the last jump limit (`curvatureLimits`).
    var curvatureLimit = Double.infinity
    /// After a jump, the instant of the last sample dropped (seconds from
    /// `baseNanos`); nil otherwise.
    var earliestRoot: Double?

    /// A confirmed jump on trial: the jump sample's instant (seconds from
    /// `baseNanos`) and front, the speed it was confirmed at, and the path
    /// of the samples it dropped (the one `noteJump` measured it against)
    /// with that path's first sample's instant.
    struct HeldJump { var time: Double; var front: Double; var speed: Double; var oldPath: LineFit; var oldFirst: Double }
    var heldJump: HeldJump?
    /// The path and first instant a jump waiting for confirmation was measured against.
    var jumpOldPath = LineFit(intercept: 0, slope: 0, residualVariance: 0, count: 0, meanSeconds: 0, spread: 0)
    var jumpOldFirst = 0.0
}

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
    private let times: UnsafeMutablePointer<Double>
    private let fronts: UnsafeMutablePointer<Double>
    /// Samples the fits use (the postroll fit leaves out outliers).
    private let included: UnsafeMutablePointer<Bool>
    private let residuals: UnsafeMutablePointer<Double>
    /// Room to rebuild the ring in time order (`removeExcluded`).
    private let spareTimes: UnsafeMutablePointer<Double>
    private let spareFronts: UnsafeMutablePointer<Double>
    /// The samples the last jump dropped, kept while it is on trial (`checkHeldJump`).
    private let droppedTimes: UnsafeMutablePointer<Double>
    private let droppedFronts: UnsafeMutablePointer<Double>
    private var droppedCount = 0
    private var count = 0
    private var next = 0
    private var baseNanos: Int64 = 0
    private var rearmed = true
    private var lastCrossingNanos = Int64.min
    /// Crossings timed since init (by the fronts or, through `noteCrossing`, otherwise).
    private(set) var crossings = 0
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
    private var pendingSeconds = 0.0
    private var pendingLeft = 0
    private var pendingFrame: UInt32 = 0
    private var pendingFrameNanos: Int64 = 0
    private var pendingOccupancy = 0.0
    private var pendingDirection = CrossingDirection.leftToRight
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
    private var fresh = true
    /// The crossing pending is a late start's (`lateStartSeconds`).
    private var lateStart = false

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
    private var jumpIndex = -1
    private var jumpVelocity = 0.0
    /// The largest curvature (c of a + b t + c t^2, work pixels per s^2) a
    /// front's path may have, from the last jump limit (`curvatureLimits`).
    private var curvatureLimit = Double.infinity
    /// After a jump, the instant of the last sample dropped (seconds from
    /// `baseNanos`); nil otherwise.
    private var earliestRoot: Double?

    /// Finds where the measured front jumped ahead of its own path and
    /// stayed there, and forgets the samples before the jump.
    ///
    /// Why: a torso's front cannot leave its path. A sprinter's acceleration
    /// (under about 10 m/s^2) moves it less than a centimetre off its
    /// constant-speed path in a frame at 30 fps, a few hundredths of the
    /// torso's depth; `jumpLimit` is far above that and above the noise. A
    /// front that jumps ahead by more and stays ahead was lagging before:
    /// the silhouette behind it held the torso back (the scene a runner
    /// leaves while the background still holds them, attached to their
    /// back, deepens the torso and moves its measured front back). The
    /// fronts from before the jump sit on a curve of their own, parallel to
    /// the true one; a fit through both, or the outlier test's best curve
    /// through the older ones, times the crossing late by the lag. A single
    /// sample ahead (a limb) is not a jump: the next one is back on the old
    /// path, and the outlier test leaves it out.
    private func noteJump(front: Double, seconds: Double, direction: CrossingDirection, limit: Double) {
        guard limit.isFinite, count >= 2 else { jumpIndex = -1; return }
        let sign = direction == .leftToRight ? 1.0 : -1.0
        if jumpIndex >= 0 {
            let expected = fronts[jumpIndex] + jumpVelocity * (seconds - times[jumpIndex])
            let jumpTime = times[jumpIndex], jumpFront = fronts[jumpIndex]
            let speed = seconds > jumpTime ? (front - jumpFront) / (seconds - jumpTime) : jumpVelocity
            if (front - expected).magnitude <= limit && speed * sign > 0 {
                // Confirmed: the samples before it go, back from the newest
                // that lags behind its path by more than the limit; those
                // after that one were on the path, the lag only brief (a
                // limb or a shadow across the front for a few frames, not
                // the scene behind the runner). The path goes back from the
                // jump at its speed from this sample (the speed before the
                // jump came from the lagging samples).
                var dropped = 0
                for k in 0..<(count - 1) {
                    let i = slot(k)
                    let path = jumpFront + speed * (times[i] - jumpTime)
                    if (path - fronts[i]) * sign > limit { dropped = k + 1 }
                }
                // Unless most of the samples before the newest lagging one
                // are on the path (within the limit): then the lag was brief
                // (the front held back for a frame or two just before the
                // jump), the jump is the front coming back to its path, and
                // the outlier test leaves the lagging samples out. Measured:
                // a second renderer's standing start at 120 fps, ten fronts
                // on the path, then one 5.5 px behind it at the line, then
                // two back near it. The jump dropped all eleven; the two
                // left were too few for the outlier test, and the crossing,
                // timed once more fronts came far past the line, was 23 ms
                // late (0.6 with this). Behind a ghost the older fronts lag
                // too, or (an accelerating start) lie ahead of the path
                // carried back at the jump's speed: off it either way.
                // (Counting as on it those ahead of it too timed a few more
                // of the second renderer's runners better and failed the
                // accelerating ghost of `FrontTrackerTests`.)
                if dropped >= FrontTracker.fewestBeforeBriefLag {
                    var onPath = 0
                    for k in 0..<(dropped - 1) {
                        let i = slot(k)
                        if (jumpFront + speed * (times[i] - jumpTime) - fronts[i]).magnitude <= limit { onPath += 1 }
                    }
                    if 2 * onPath > dropped - 1 { dropped = 0 }
                }
                if dropped > 0 && (pendingLeft == 0 || times[slot(dropped - 1)] < pendingSeconds) {
                    // The crossing may lie before every sample kept after
                    // the jump, back to the last one dropped (see `fitQuadratic`).
                    earliestRoot = times[slot(dropped - 1)]
                    for k in 0..<dropped {
                        droppedTimes[k] = times[slot(k)]
                        droppedFronts[k] = fronts[slot(k)]
                        included[slot(k)] = false
                    }
                    droppedCount = dropped
                    heldJump = HeldJump(time: jumpTime, front: jumpFront, speed: speed, oldPath: jumpOldPath,
                                        oldFirst: jumpOldFirst)
                    removeExcluded()
                    // A pending crossing waits for five samples in all (with
                    // this one), the fewest the outlier test works with: the
                    // jump may leave only itself before the postroll ends.
                    if pendingLeft > 0 { pendingLeft = max(pendingLeft, FrontTracker.fewestForOutliers - count) }
                }
            }
            jumpIndex = -1
            return
        }
        guard let path = recentPath(), path.slope * sign > 0 else { return }
        // The path is known over its own samples (the last four): carried
        // further ahead than they reach back, over a gap where the front was
        // unreadable (an arm of the shirt's colour swinging across it for a
        // dozen frames), its slope's error and the runner's acceleration put
        // a front after the gap off it by more than the limit without any
        // jump. Measured: a standing start at 60 fps, twelve frames without
        // a front at the line, 15 px ahead of the path against 13 (the limit
        // with the allowance below); taken for a jump, every front before
        // the gap was dropped and the crossing timed from the fronts after
        // the line alone, 25 ms late. Only a front that follows the path
        // closely enough can show a jump (the scene coming off a runner's
        // back costs a frame or two).
        let first = times[slot(max(0, count - 4))], last = times[slot(count - 1)]
        guard seconds - last <= last - first else { return }
        // Ahead of the path by more than the limit and than what it drifts
        // from the front over its span: a runner still accelerating, or a
        // slope bent by one lagging front, puts the front off the path by
        // more than the limit without any jump, most at 30 fps where four
        // frames span 0.13 s. The allowance grows with the square of the
        // time since the path's first sample, up to 6 m/s^2 with the limit
        // (half a torso half depth, ~6 cm) as the scale: 0.5 x 6 m/s^2 /
        // 6 cm = 50 limits per second squared; 5% more at 120 fps, 22% at 60
        // and 89% at 30. Measured on the second renderer's plain runners:
        // 71 of 102 crossings within 1 ms and 99 within 5 (70 and 98
        // without); an accelerating runner at 30 fps 3.0 -> 0.2 ms, one at
        // 120 fps 2.9 -> 0.3 ms, one at 60 fps worse, 2.9 -> 4.9 ms.
        let since = seconds - first
        if (front - path.value(at: seconds)) * sign > limit * (1 + 50 * since * since) {
            jumpIndex = next
            jumpVelocity = path.slope
            jumpOldPath = path
            jumpOldFirst = first
        }
    }

    /// How far beyond the samples the line through them may carry a
    /// crossing, in spans of the samples (`rootReach`). Measured on the
    /// second renderer's four plain sets and that runner: with a quarter
    /// (the quadratic's), a runner whose track was taken over by another
    /// past the line, timed 13 ms late by the line, was missed; with one
    /// span, a line 3.5 ms late was kept (0.1 ms early with three
    /// quarters, the centre's); either way a runner at 240 fps 20.7 ms late
    /// came to 1.6 ms early, and nothing else moved.
    static let lineReachSpans = 0.75

    /// How far before a late start's first front its crossing may be
    /// carried back (seconds).
    ///
    /// A track begun on a torso already past the line has no fronts before
    /// it: two runners side by side at a standing start are one body, too
    /// deep for one torso, until they come apart (a second renderer's pair
    /// at 120 fps: the front runner's torso first found 30 ms past the
    /// line, and missed). Its fronts after the line still time the
    /// crossing, carried back as the postroll fit carries any crossing
    /// (`finishPending`), if the root lies this close to the first front:
    /// a torso found that soon after the line was hidden at the line, not
    /// standing past it (a still torso gives no root, too slow), and a
    /// crossing known to a few centimetres is worth more to a coach than
    /// none. Farther back, the fronts' curve is a guess. Measured on the
    /// second renderer's pair: timed 9.5 ms late, with fronts lagging as the
    /// runners came apart; nothing else moved on four plain sets.
    static let lateStartSeconds = 0.05

    /// Samples from the newest lagging one back (itself included) that
    /// `noteJump` needs before it asks whether the lag was brief.
    static let fewestBeforeBriefLag = 4

    /// A confirmed jump on trial: the jump sample's instant (seconds from
    /// `baseNanos`) and front, the speed it was confirmed at, and the path
    /// of the samples it dropped (the one `noteJump` measured it against)
    /// with that path's first sample's instant.
    struct HeldJump { var time: Double; var front: Double; var speed: Double; var oldPath: LineFit; var oldFirst: Double }
    private var heldJump: HeldJump?
    /// The path and first instant a jump waiting for confirmation was measured against.
    private var jumpOldPath = LineFit(intercept: 0, slope: 0, residualVariance: 0, count: 0, meanSeconds: 0, spread: 0)
    private var jumpOldFirst = 0.0

    /// How long a confirmed jump stays on trial (`checkHeldJump`): a limb
    /// leads the torso for up to about 0.1 s (as `pastLineWaitSeconds`).
    static let jumpTrialSeconds = 0.1

    /// Undoes a confirmed jump that did not hold: within `jumpTrialSeconds`
    /// of it, a front behind the jumped path by more than the limit and
    /// back on the path of the samples the jump dropped (within the limit,
    /// with `noteJump`'s allowance for that path's drift). What jumped
    /// ahead and stayed for a few frames was a limb reaching ahead of the
    /// torso, not the torso coming free of a lag (that one stays ahead):
    /// the samples from the jump on go, the dropped ones come back, and a
    /// crossing the jump set pending is dropped; the torso's own crossing
    /// is found again as its fronts reach the line.
    ///
    /// Why: a second renderer's standing start at 120 fps (hard profile);
    /// an arm thrust 28 px ahead of the torso for three frames at the
    /// line, then the torso's front again. The jump was confirmed by the
    /// arm's second frame, every sample before it dropped, and the crossing
    /// timed from the arm's: 92 ms early (24 ms late with this: the torso's
    /// fronts after the arm lag). Measured on the six sets (both modes), 52
    /// jumps undone, 23 of them within 150 ms of a crossing: in 18 the
    /// front that undid it was nearer the truth than the jumped path.
    private func checkHeldJump(front: Double, seconds: Double, direction: CrossingDirection, limit: Double) {
        guard let held = heldJump, count > 0, seconds - held.time <= FrontTracker.jumpTrialSeconds else {
            heldJump = nil
            return
        }
        let sign = direction == .leftToRight ? 1.0 : -1.0
        let jumped = held.front + held.speed * (seconds - held.time)
        let old = held.oldPath.value(at: seconds)
        let since = seconds - held.oldFirst
        guard (jumped - front) * sign > limit,
              (front - old).magnitude <= limit * (1 + 50 * since * since) else { return }
        heldJump = nil
        // The dropped samples, then those kept from before the jump: in time order.
        spareTimes.update(from: droppedTimes, count: droppedCount)
        spareFronts.update(from: droppedFronts, count: droppedCount)
        var kept = droppedCount
        for k in 0..<count where times[slot(k)] < held.time && kept < settings.fitSamples {
            spareTimes[kept] = times[slot(k)]
            spareFronts[kept] = fronts[slot(k)]
            kept += 1
        }
        adoptSpare(kept)
        jumpIndex = -1
        earliestRoot = nil
        if pendingLeft > 0 && pendingSeconds >= held.time { pendingLeft = 0 }
    }

    /// A crossing of this torso timed otherwise (`CentreCrossing`): the
    /// fronts do not time it again, and the gate rearms as after one of theirs.
    func noteCrossing(atNanos nanos: Int64) {
        pendingLeft = 0
        markCrossed(atNanos: nanos)
    }

    /// A crossing at `nanos` is timed: the gate waits to rearm, a jump's trial ends.
    private func markCrossed(atNanos nanos: Int64) {
        rearmed = false
        lastCrossingNanos = nanos
        crossings += 1
        heldJump = nil
    }

    /// The front's path from the last few samples (least squares line; one
    /// sample off by a limb moves it less than the last two would, and over
    /// a tenth of a second at 30 fps even a sprinter's start bends it by
    /// under a pixel).
    private func recentPath() -> LineFit? { fitLine(newest: min(count, 4)) }

    /// Samples in the ring after the first at or past the line of the pending crossing.
    private func samplesAfterPending() -> Int {
        var after = 0
        for i in 0..<count where times[i] > pendingSeconds { after += 1 }
        return after
    }

    /// Times a pending crossing now, with the postroll samples seen so far
    /// (the track ended early: the runner left the view or was lost) if
    /// its fronts span `fewestFlushedSeconds`. A track that ends sooner
    /// was a few frames of something else (two runners joined by their
    /// feet, their torsos taken in turn): in the detector's test scene of
    /// that (`aSlimRunnerJoinedByTheFeetToADeeperOneIsTimed`) one timed a
    /// crossing from four fronts in 42 ms, one 44 px behind the line and
    /// one 8 ahead of the torso, 32 ms early, while the runner's own track
    /// still waited out its postroll (the cooldown then kept its crossing
    /// out).
    func flushPending() -> DetectedCrossing? {
        guard pendingLeft > 0 else { return nil }
        pendingLeft = 0
        guard count >= 2, times[slot(count - 1)] - times[slot(0)] >= FrontTracker.fewestFlushedSeconds else { return nil }
        return finishPending(final: true)
    }

    /// See `flushPending`: as long as a limb leads the torso (`pastLineWaitSeconds`).
    static let fewestFlushedSeconds = 0.1

    /// The pending crossing from a quadratic (a line with fewer than four
    /// samples) through the kept samples, which straddle the gate line.
    private func finishPending(final: Bool = false) -> DetectedCrossing? {
        pendingLeft = 0
        let sign = pendingDirection == .leftToRight ? 1.0 : -1.0
        // The samples of the last `fitSpanSeconds` before the line, and at
        // least `samplesBefore`: at a high frame rate a limb or a shadow
        // across the front for a few frames would otherwise be most of them.
        var before = 0, old = 0
        for i in 0..<count where times[i] < pendingSeconds {
            before += 1
            if times[i] < pendingSeconds - fitSpanSeconds { old += 1 }
        }
        for k in 0..<max(0, min(old, before - samplesBefore)) { included[slot(k)] = false }
        removeExcluded()
        excludeOutliers()
        balanceAfterLine()
        defer { for i in 0..<settings.fitSamples { included[i] = true } }
        // The torso has not been seen past the line if the outlier test left
        // out every sample there (what reached it first was a limb ahead of
        // the torso, or the samples before the line drift from the torso's
        // path as an arm hides its shoulder): the fit would only carry the
        // path before the line on. So the postroll runs again, for up to
        // `pastLineWaitSeconds` after the first sample at the line, and the
        // samples it adds are asked too. Measured on a second renderer's
        // fresh set (106 crossings, both modes): within 5 ms 99 -> 102, p95
        // at 240 fps 10.7 -> 6.4 ms in precision mode; a runner at 240 fps
        // 6.5 ms early -> 0.7 late. (On the hard profile two runners 1 to
        // 4 ms worse: more samples past the line, an arm among them.)
        //
        // The wait is a time, not a number of postrolls: a hand leads the
        // torso by the same distance at any frame rate. Twice the postroll
        // (37 ms at 240 fps) timed a standing start from a hand 55 ms ahead
        // of the torso: the torso reached the line one frame after the wait,
        // and the outlier test kept the fronts of 50 ms before it (1.4 px
        // off the later ones) and left out the last four: 9.8 ms late; 4.3
        // with the wait (what is left is the fronts' own lag at the line).
        let newest = count > 0 ? times[slot(count - 1)] : pendingSeconds
        if !final && newest - pendingSeconds < FrontTracker.pastLineWaitSeconds {
            var past = 0
            for i in 0..<count where included[i] && (fronts[i] - gateX) * sign >= 0 { past += 1 }
            if past == 0 {
                pendingLeft = max(1, postroll)
                return nil
            }
        }
        defer { earliestRoot = nil }
        guard count >= 2, let line = fitLine(), line.slope * sign > 0 else { return nil }
        var crossingSeconds = (gateX - line.intercept) / line.slope
        var slope = line.slope
        var residualVariance = line.residualVariance
        // A quadratic that meets the line going the other way is no path of
        // the runner's: the line is kept. Measured (a second renderer's
        // striped shirt at 120 fps, no front for 19 frames from the line):
        // two fronts before the gap a pixel apart the wrong way bent the
        // quadratic back, its root moved backwards, and the crossing was
        // dropped; the line times it 7.7 ms early, with 8.4 ms of uncertainty.
        if line.count >= 4, let curve = fitQuadratic(near: crossingSeconds),
           curve.slope * sign >= settings.minVelocityPixelsPerSecond {
            crossingSeconds = curve.seconds
            slope = curve.slope
            residualVariance = curve.residualVariance
        } else {
            // The line's root is held within reach of the samples too
            // (`rootReach`, `lineReachSpans`): carried farther, it times no
            // torso, and the crossing is left to the centre
            // (`CentreCrossing`). Measured: a second renderer's runner at
            // 120 fps whose hand led the torso by 15 px in four of the five
            // frames after the line; taken for a jump, it left only the
            // fronts after the line, hand and torso mixed, and the line
            // through them met the gate 101 ms early, a miss and a false
            // trigger (5.4 ms early from the centre with this).
            let reach = rootReach(spans: FrontTracker.lineReachSpans)
            guard crossingSeconds >= reach.earliest && crossingSeconds <= reach.latest else { return nil }
        }
        guard slope * sign >= settings.minVelocityPixelsPerSecond else { return nil }
        if lateStart {
            lateStart = false
            // From the track's first front (second 0 of `baseNanos`), even
            // when the outlier test left it out: a late start's first fronts
            // are often off, the bodies still coming apart, and measured from
            // the first one kept, a pair's front runner was dropped.
            guard crossingSeconds >= -FrontTracker.lateStartSeconds else { return nil }
        }
        let crossingNanos = baseNanos + Int64((crossingSeconds * 1e9).rounded())
        if lastCrossingNanos != Int64.min && crossingNanos - lastCrossingNanos < settings.cooldownNanos { return nil }
        markCrossed(atNanos: crossingNanos)
        // Residual scatter, at least a twentieth of a pixel.
        let uncertaintySeconds = FrontTracker.uncertaintySeconds(scatter: max(residualVariance, 0.0025), of: line,
                                                                 at: crossingSeconds, speed: slope * sign)
        return DetectedCrossing(
            timeNanos: crossingNanos,
            frameIndex: pendingFrame,
            interpolationOffsetMs: Double(crossingNanos - pendingFrameNanos) / 1e6,
            direction: pendingDirection,
            velocityWorkPixelsPerSecond: slope,
            velocityWidthsPerSecond: slope / Double(workWidth),
            uncertaintyMs: uncertaintySeconds * 1000,
            occupancyAtTrigger: pendingOccupancy)
    }

    /// The postroll fit's samples past the line cut to no longer after the
    /// line than those kept before it reach back (at least
    /// `fewestBalancedSeconds`), and the outlier test run again on them,
    /// when the test left out every sample before the line and the first
    /// past it (a lone sample before the line off the others, a limb, is
    /// left out as any outlier). The ring is in time order
    /// (`removeExcluded`): the samples past the window are its last ones,
    /// left out of the fits.
    ///
    /// Why: a young track has few samples before the line and the full
    /// postroll after it (150 ms, 18 samples at 120 fps). The outlier test
    /// then takes its curve from the samples far past the line, and a
    /// runner whose torso changes shape as it rises from a start does not
    /// follow one quadratic over that time: the samples nearest the line,
    /// on both sides, are off it by a pixel and left out, and the crossing
    /// is carried back from the far ones. A second renderer's standing
    /// start at 120 fps: a track taken over 6 ms before the line, one
    /// front there, the next 36 ms past it; the test left out that front
    /// and the five after it, and timed the crossing 13.2 ms late (1.5 ms
    /// early with this). With a track followed long before the line the
    /// window is the postroll's own, and nothing changes. (Cut whenever a
    /// track is young, not only when its nearest samples were left out, the
    /// smaller window moved 55 crossings of six sets by over 0.3 ms, 30 of
    /// them for the worse.)
    private func balanceAfterLine() {
        var firstBefore = pendingSeconds
        for i in 0..<count where times[i] <= pendingSeconds {
            guard !included[i] else { return }
            firstBefore = min(firstBefore, times[i])
        }
        guard firstBefore < pendingSeconds else { return }
        let last = pendingSeconds + max(FrontTracker.fewestBalancedSeconds, pendingSeconds - firstBefore)
        var kept = 0
        while kept < count && times[kept] <= last { kept += 1 }
        for i in 0..<settings.fitSamples { included[i] = i < kept }
        excludeOutliers(among: kept)
    }

    /// See `balanceAfterLine`: how long after the line its window reaches at least (seconds).
    static let fewestBalancedSeconds = 0.05

    /// Leaves out of the fits the samples far from the others' curve (a
    /// frame where a limb hid the torso's front): least median of squares
    /// over the quadratics through every three of up to 16 samples spread
    /// over the window, then every sample more than three robust
    /// deviations (at least a third of a pixel) from the best one is out.
    /// Works with up to almost half the samples bad.
    ///
    /// Only quadratics a runner can follow take part: no more curvature
    /// than `curvatureLimit`, plus what fronts half a pixel off would give
    /// the three samples (`curvatureNoisePixels` over their span squared).
    /// Without that bound, a quadratic through a few fronts held back by a
    /// sleeve and a few good ones, bending at 90 m/s^2, could have the
    /// least median.
    ///
    /// With five samples, over the lines through every two instead: the
    /// median of five residuals is always one of the three a quadratic fits
    /// exactly, zero, so every quadratic looked as good as the first and
    /// the samples off it were left out, good or bad. (With six or more the
    /// median reaches a sample the quadratic does not pass through; lines
    /// there left out good samples of a runner accelerating at 30 fps.)
    /// `among`: the first that many samples of the ring in time order
    /// (`removeExcluded`); the others are left as they are.
    private func excludeOutliers(among first: Int? = nil) {
        let n = first ?? count
        guard n >= FrontTracker.fewestForOutliers else { return }
        var bestMedian = Double.infinity
        var best = Quadratic(origin: 0, a: 0, b: 0, c: 0)
        if n == 5 {
            for i in 0..<(n - 1) {
                for j in (i + 1)..<n {
                    let ti = times[i], tj = times[j]
                    guard tj != ti else { continue }
                    let line = Quadratic(origin: ti, a: fronts[i], b: (fronts[j] - fronts[i]) / (tj - ti), c: 0)
                    let median = FrontTracker.medianResidual(line, times: times, fronts: fronts, among: n,
                                                             below: bestMedian, residuals: residuals)
                    if median < bestMedian { bestMedian = median; best = line }
                }
            }
        } else {
            // Through at most 16 of the samples, spread over the window
            // (the ring is in time order here): 560 quadratics, not the
            // 3,276 of a full 28 at 240 fps (0.16 ms per crossing on this
            // machine, not 0.8); more than half of them are good, so some
            // three are. (Through 12, a 240 fps clip was 5 ms off.)
            let picks = min(n, FrontTracker.outlierPicks)
            for pi in 0..<(picks - 2) {
                for pj in (pi + 1)..<(picks - 1) {
                    for pk in (pj + 1)..<picks {
                        let i = pi * (n - 1) / (picks - 1), j = pj * (n - 1) / (picks - 1), k = pk * (n - 1) / (picks - 1)
                        // The parabola through three samples (Newton's divided differences).
                        let ti = times[i], tj = times[j], tk = times[k]
                        guard tj != ti && tk != tj && tk != ti else { continue }
                        let dij = (fronts[j] - fronts[i]) / (tj - ti)
                        let djk = (fronts[k] - fronts[j]) / (tk - tj)
                        let c = (djk - dij) / (tk - ti)
                        guard c.magnitude <= curvatureLimit + FrontTracker.curvatureNoisePixels / ((tk - ti) * (tk - ti))
                        else { continue }
                        let curve = Quadratic(origin: ti, a: fronts[i], b: dij - c * (tj - ti), c: c)
                        let median = FrontTracker.medianResidual(curve, times: times, fronts: fronts, among: n,
                                                                 below: bestMedian, residuals: residuals)
                        if median < bestMedian { bestMedian = median; best = curve }
                    }
                }
            }
        }
        guard bestMedian.isFinite else { return }
        let limit = max(1.0 / 3.0, 3 * 1.4826 * bestMedian)
        for m in 0..<n where (fronts[m] - best.value(at: times[m])).magnitude > limit { included[m] = false }
    }

    /// Rebuilds the ring in time order from slot 0 without the samples
    /// marked not `included`, and includes every slot again. A jump
    /// waiting for confirmation is forgotten: its slot has moved (a jump
    /// in the sample that times a crossing is moot for that crossing).
    private func removeExcluded() {
        jumpIndex = -1
        var kept = 0
        for k in 0..<count {
            let i = slot(k)
            guard included[i] else { continue }
            spareTimes[kept] = times[i]
            spareFronts[kept] = fronts[i]
            kept += 1
        }
        adoptSpare(kept)
    }

    /// The ring becomes the first `kept` samples of the spare buffers (in
    /// time order), every one included.
    private func adoptSpare(_ kept: Int) {
        for i in 0..<settings.fitSamples { included[i] = true }
        times.update(from: spareTimes, count: kept)
        fronts.update(from: spareFronts, count: kept)
        count = kept
        next = kept % settings.fitSamples
    }

    /// The ring index of the `k`-th oldest sample (0: the oldest).
    @inline(__always)
    private func slot(_ k: Int) -> Int { (next + settings.fitSamples - count + k) % settings.fitSamples }

    /// After a crossing, a front this many jump limits (a torso half depth)
    /// behind the line rearms the gate as well as one far away: a torso
    /// back on the near side of the line has not crossed it yet, so it is
    /// a runner coming again, or another one.
    ///
    /// Why: two runners 0.5 s apart at a standing start, 30 px apart in
    /// the view (a second renderer's hard runners, 120 fps). The first one's
    /// track lost its torso for a frame past the line and took the second
    /// one's, standing behind it; that runner never came a quarter of the
    /// view from the line before reaching it, and was missed. A standing
    /// runner swaying at the line, or a front measured a few pixels short,
    /// stays within a half depth.
    static let rearmBehindJumpLimits = 2.0

    /// The fewest samples the outlier test leaves outliers out of.
    static let fewestForOutliers = 5

    /// How long after its first sample at the line a pending crossing
    /// waits for a kept sample past it (`finishPending`): a limb leads the
    /// torso by up to about 0.3 m, 100 ms at a standing start's 3 m/s.
    static let pastLineWaitSeconds = 0.1

    /// The outlier test's bound on a path's curvature, in jump limits per
    /// second squared. A jump limit is half a torso half depth, 4.5-7.5 cm,
    /// so this is 13-22 m/s^2 of acceleration: about twice a sprinter's
    /// first steps. Measured on the second renderer's six sets (648
    /// crossings, both modes): on the four plain sets three runners moved,
    /// 12.4 -> 15.3 ms, -8.3 -> -8.7 ms and one 3.9 -> 4.2 ms in one mode,
    /// 3.7 -> 2.7 in the other; on the two hard sets within 5 ms 166 ->
    /// 169: a runner at 240 fps -35.5 -> -4.4 ms, one at 120 fps -7.7 ->
    /// -1.5 ms, one at 30 fps -16.7 -> -11.3 ms, two 1-1.3 ms worse.
    static let curvatureLimits = 150.0

    /// Three fronts each half a pixel off their path bend a quadratic
    /// through them by up to this over their span squared (8 x 0.5 px):
    /// close in time, noise alone bends it far more than a runner can.
    /// (Without it, a runner at 30 fps with sparse fronts went from 16.7
    /// to 47 ms early.)
    static let curvatureNoisePixels = 4.0

    /// Samples the outlier test draws its quadratics through, at most.
    static let outlierPicks = 16

    /// The median of the first `n` samples' distances from `curve`, or
    /// infinity when it is not below `best` (the least median so far);
    /// `residuals`: room for `n` distances, to work in.
    ///
    /// The median is below `best` only if (n + 1) / 2 of the distances
    /// are: for an odd n it is the middle one; for an even n the mean of
    /// the two middle ones, so the lower of them is. Counting them is one
    /// pass; sorting them all, for each of the outlier test's 560 curves,
    /// made the frame that times a crossing cost 0.5 ms at 640x480 (the
    /// others 0.2 ms at most), and most curves are no better than the best
    /// one found early. The curves kept, and so the samples excluded, are
    /// the same: only those that could not have won are not sorted.
    /// Of those that could, only the distances below `best` are sorted:
    /// the median's middle ones are among them, but for an even n's upper
    /// one when exactly n / 2 are below, which is then the least of the rest.
    ///
    /// Two samples at a time, and counted without branches: whether a
    /// distance is below the best so far is what the data decide, and as
    /// a branch it was mispredicted often enough to be most of the cost.
    static func medianResidual(_ curve: Quadratic, times: UnsafePointer<Double>, fronts: UnsafePointer<Double>,
                               among n: Int, below best: Double, residuals: UnsafeMutablePointer<Double>) -> Double {
        let origin = SIMD2(repeating: curve.origin), a = SIMD2(repeating: curve.a)
        let b = SIMD2(repeating: curve.b), c = SIMD2(repeating: curve.c), bound = SIMD2(repeating: best)
        let allButSign = SIMD2<UInt64>(repeating: ~(1 << 63))
        let timePairs = UnsafeRawPointer(times), frontPairs = UnsafeRawPointer(fronts)
        let distancePairs = UnsafeMutableRawPointer(residuals)
        var under = SIMD2<Int64>()
        var m = 0
        while m &+ 2 <= n {
            // `Quadratic.value`'s arithmetic, lane by lane.
            let t = timePairs.loadUnaligned(fromByteOffset: m &* 8, as: SIMD2<Double>.self) - origin
            let off = frontPairs.loadUnaligned(fromByteOffset: m &* 8, as: SIMD2<Double>.self) - (a + b * t + c * t * t)
            let distance = unsafeBitCast(unsafeBitCast(off, to: SIMD2<UInt64>.self) & allButSign, to: SIMD2<Double>.self)
            distancePairs.storeBytes(of: distance, toByteOffset: m &* 8, as: SIMD2<Double>.self)
            // A mask's lanes are -1 where true.
            under &-= unsafeBitCast(distance .< bound, to: SIMD2<Int64>.self)
            m &+= 2
        }
        var count = Int(under[0] &+ under[1])
        if m < n {
            let distance = (fronts[m] - curve.value(at: times[m])).magnitude
            residuals[m] = distance
            count &+= distance < best ? 1 : 0
        }
        guard count >= (n + 1) / 2 else { return .infinity }
        // Those below `best` to the front, in place (a distance moves to
        // the same index or an earlier one), and the least of the others.
        var below = 0
        var rest = Double.infinity
        for m in 0..<n {
            let distance = residuals[m]
            residuals[below] = distance
            let isBelow = distance < best
            below &+= isBelow ? 1 : 0
            rest = min(rest, isBelow ? .infinity : distance)
        }
        FrontTracker.sort(residuals, count: below)
        let middle = n / 2
        if n % 2 == 1 { return residuals[middle] }
        return (residuals[middle - 1] + (below > middle ? residuals[middle] : rest)) / 2
    }

    /// Sorts `count` values in place, by insertion: a handful.
    static func sort(_ values: UnsafeMutablePointer<Double>, count: Int) {
        for i in 1..<max(1, count) {
            let v = values[i]
            var j = i - 1
            while j >= 0 && values[j] > v { values[j + 1] = values[j]; j -= 1 }
            values[j + 1] = v
        }
    }

    /// The median of `count` values (at least one; reordered).
    static func median(_ values: UnsafeMutablePointer<Double>, count: Int) -> Double {
        sort(values, count: count)
        return count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2
    }

    /// a + b t + c t^2, t from `origin` (a line when c is 0).
    struct Quadratic {
        var origin: Double; var a: Double; var b: Double; var c: Double
        @inline(__always) func value(at time: Double) -> Double {
            let t = time - origin
            return a + b * t + c * t * t
        }
    }

    struct CurveCrossing { var seconds: Double; var slope: Double; var residualVariance: Double }

    /// The first and last instants of the samples the fits use (seconds from `baseNanos`).
    private func includedSpan() -> (first: Double, last: Double) {
        var first = Double.infinity, last = -Double.infinity
        for i in 0..<count where included[i] {
            first = min(first, times[i]); last = max(last, times[i])
        }
        return (first, last)
    }

    /// How far beyond the samples the fits may carry a crossing (seconds
    /// from `baseNanos`): `spans` of their span either way (the
    /// quadratic's a quarter: its bend is a guess beyond them); after a jump
    /// dropped the samples before the line (all kept ones are past it), back
    /// to the last one dropped: the line through samples past it, of a
    /// runner still accelerating, times the crossing late by a good part of
    /// a frame.
    private func rootReach(spans: Double = 0.25) -> (earliest: Double, latest: Double) {
        let (first, last) = includedSpan()
        let span = last - first
        return (min(first - spans * span, earliestRoot ?? .infinity), last + spans * span)
    }

    /// Least squares front = a + b t + c t^2 (t from `near`), and the root of
    /// front = gate nearest `near`; nil when the curve never reaches the gate
    /// close to where the line does.
    private func fitQuadratic(near: Double) -> CurveCrossing? {
        let n = count
        var sums = QuadraticSums()
        var used = 0
        for i in 0..<n where included[i] {
            used += 1
            sums.add(times[i] - near, fronts[i] - gateX)
        }
        guard let fit = sums.quadratic() else { return nil }
        let (a, b, c) = fit
        // a + b t + c t^2 = 0: the root nearest t = 0 (where the line crosses).
        var root: Double
        if c == 0 {
            guard b != 0 else { return nil }
            root = -a / b
        } else {
            // The stable form: a tiny c leaves a / q, the line's root.
            let disc = b * b - 4 * a * c
            guard disc >= 0 else { return nil }
            let q = -0.5 * (b + (b >= 0 ? 1.0 : -1.0) * disc.squareRoot())
            let r1 = q / c, r2 = q != 0 ? a / q : r1
            root = r1.magnitude < r2.magnitude ? r1 : r2
        }
        let reach = rootReach()
        guard root >= reach.earliest - near, root <= reach.latest - near else { return nil }
        var sse = 0.0
        for i in 0..<n where included[i] {
            let t = times[i] - near
            let r = fronts[i] - gateX - (a + b * t + c * t * t)
            sse += r * r
        }
        return CurveCrossing(seconds: near + root, slope: b + 2 * c * root,
                             residualVariance: sse / Double(max(1, used - 3)))
    }

    /// Least squares front = intercept + slope x t over the kept samples,
    /// or over the `newest` samples only (nil when they have no spread in time).
    private func fitLine(newest: Int? = nil) -> LineFit? {
        var sums = LineSums()
        for k in 0..<(newest ?? count) {
            let i = newest != nil ? slot(count - 1 - k) : k
            guard newest != nil || included[i] else { continue }
            sums.add(times[i], fronts[i])
        }
        return sums.fit()
    }
}

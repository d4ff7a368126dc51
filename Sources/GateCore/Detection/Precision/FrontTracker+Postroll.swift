/// The postroll: a crossing found at the line waits for samples past it,
/// then is timed from the samples on both sides (`finishPending`).
extension FrontTracker {
    /// A crossing of this torso timed otherwise (`CentreCrossing`): the
    /// fronts do not time it again, and the gate rearms as after one of theirs.
    func noteCrossing(atNanos nanos: Int64) {
        pendingLeft = 0
        markCrossed(atNanos: nanos)
    }

    /// A crossing at `nanos` is timed: the gate waits to rearm, a jump's trial ends.
    func markCrossed(atNanos nanos: Int64) {
        rearmed = false
        lastCrossingNanos = nanos
        crossings += 1
        heldJump = nil
    }

    /// The front's path from the last few samples (least squares line; one
    /// sample off by a limb moves it less than the last two would, and over
    /// a tenth of a second at 30 fps even a sprinter's start bends it by
    /// under a pixel).
    func recentPath() -> LineFit? { fitLine(newest: min(count, 4)) }

    /// Samples in the ring after the first at or past the line of the pending crossing.
    func samplesAfterPending() -> Int {
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
    func finishPending(final: Bool = false) -> DetectedCrossing? {
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
    func balanceAfterLine() {
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
}

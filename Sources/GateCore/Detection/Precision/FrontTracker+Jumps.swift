/// A front that jumps ahead of its own path: a lag coming free (the samples
/// before it go) or a limb leading the torso for a few frames (undone).
extension FrontTracker {
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
    func noteJump(front: Double, seconds: Double, direction: CrossingDirection, limit: Double) {
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
    func checkHeldJump(front: Double, seconds: Double, direction: CrossingDirection, limit: Double) {
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
}

/// Step 8 of `PrecisionDetector`: tracks. Each torso found is matched to
/// the track that should be nearest it now (the longest followed first),
/// its front read on both sides (`TorsoFront`) until its direction is
/// clear, and the front handed to the track's `FrontTracker`, which times
/// the crossing through the gate line after its postroll; where the fronts
/// never time a torso followed across the line, its centre does (step 9,
/// `CentreCrossing`). Gives the detector the frame's first crossing, under
/// the cooldown.
final class TorsoTracks: ReadsWorkPlanes {
    typealias Torso = PrecisionDetector.Torso

    let planes: WorkPlanes
    let settings: DetectorSettings
    let gateX: Double
    let bodies: BodyFinder
    let torsos: TorsoFinder
    let edges: TorsoEdges
    let front: TorsoFront
    let tracks: [PrecisionTrack]
    /// When the last crossing was reported: the cooldown runs from it.
    var lastReportedNanos = Int64.min
    /// The last torso front measured (work columns) and its exposure instant,
    /// and the torso half depth (work pixels) of that body.
    private(set) var lastFront = Double.nan
    private(set) var lastFrontNanos: Int64 = 0
    private(set) var lastHalfDepth = 0.0

    init(planes: WorkPlanes, settings: DetectorSettings, gateX: Double, bodies: BodyFinder, torsos: TorsoFinder,
         edges: TorsoEdges, front: TorsoFront) {
        self.planes = planes
        self.settings = settings
        self.gateX = gateX
        self.bodies = bodies
        self.torsos = torsos
        self.edges = edges
        self.front = front
        var trackerSettings = settings
        trackerSettings.fitSamples = max(settings.precisionSamplesBefore, settings.precisionMaxSamplesBefore) + 1
            + max(settings.precisionPostroll, settings.precisionMaxPostroll)
        trackerSettings.minVelocityPixelsPerSecond = settings.precisionMinSpeedWidthsPerSecond * Double(planes.width)
        var list: [PrecisionTrack] = []
        for _ in 0..<TorsoFinder.maxCandidates {
            list.append(PrecisionTrack(tracker: FrontTracker(settings: trackerSettings, workWidth: planes.width, gateX: gateX,
                                                              postroll: settings.precisionPostroll,
                                                              samplesBefore: settings.precisionSamplesBefore,
                                                              fitSpanNanos: settings.precisionFitSpanNanos,
                                                              postrollNanos: settings.precisionPostrollNanos,
                                                              maxPostroll: settings.precisionMaxPostroll)))
        }
        tracks = list
    }

    /// True while a track has a direction and fronts: a torso moving through the view.
    var isFollowingATorso: Bool {
        for track in tracks where track.active && track.tracker.hasFronts { return true }
        return false
    }

    /// True while a track waits for its postroll.
    var hasPendingCrossing: Bool {
        for track in tracks where track.active && track.tracker.hasPendingCrossing { return true }
        return false
    }

    /// Ends every track (the scene was reset or re-learnt).
    func endAll() {
        for track in tracks { track.end() }
    }

    /// The end of the frames: each track still followed times now, with
    /// what it has, the crossing it waits for (its postroll's, or its
    /// centre's), and ends; oldest track first, under the cooldown.
    func finish(_ deliver: (DetectedCrossing) -> Void) {
        while let track = oldestActiveTrack() {
            var kept: DetectedCrossing?
            report(track.tracker.flushPending(), into: &kept)
            reportCentreCrossing(of: track, direction: track.settled, sequence: 0, frameNanos: 0, occupancy: 0,
                                 final: true, into: &kept)
            track.end()
            if let kept { deliver(kept) }
        }
    }

    func oldestActiveTrack() -> PrecisionTrack? {
        var oldest: PrecisionTrack?
        for track in tracks where track.active {
            if oldest.map({ track.moves > $0.moves }) ?? true { oldest = track }
        }
        return oldest
    }

    func followTorsos(_ frame: LumaFrame, frameIntervalNanos: Int64, into result: inout DetectedCrossing?) {
        // Each live track takes the nearest torso to where it should be now,
        // the longest followed first: a torso whose legs join it may also lie
        // near a young track begun on a leg, which would take it from the
        // track holding the runner's fronts.
        for track in tracks { track.matched = PrecisionTrack.unassigned }
        while let track = oldestUnassignedTrack() {
            var best = -1
            var bestDistance = Double.infinity
            for c in 0..<torsos.candidateCount where !torsos.candidates[c].matched {
                let t = torsos.candidates[c]
                // Where it should be: one step per frame since it was last seen.
                let frames = Double(track.missed + 1)
                let dx = t.centroidX - (track.centroidX + frames * track.stepX), dy = t.centroidY - track.centroidY
                // The centroid is known to within the torso's size, and the
                // torso may be measured smaller or larger than last frame
                // (the scene a runner leaves, attached to their back while
                // the background still holds them, deepens the torso until
                // it comes off: then the centroid jumps ahead by about the
                // depth it loses). So the larger of the two depths.
                let size = max(t.halfDepth, track.halfDepth)
                // A young track does not know its speed yet: up to 18 m/s at 30 fps.
                let limitX = 2 * size + 1.5 * frames * track.stepX.magnitude + (track.moves < 2 ? 3 * size : 0)
                // Vertically: near its centroid, or on mostly the same rows
                // (legs side by side as deep as the torso join it in some
                // frames and run its centroid down to the feet).
                guard dx.magnitude <= limitX,
                      dy.magnitude <= 2 * size || track.sharesRows(t.firstRow...t.lastRow) else { continue }
                let d = dx * dx + dy * dy
                if d < bestDistance { bestDistance = d; best = c }
            }
            if best >= 0 {
                torsos.candidates[best].matched = true
                track.matched = best
            } else {
                track.matched = -1
                track.missed += 1
                // A torso may be unreadable for a few frames (a limb across
                // it); the track survives 60 ms, and at least two frames.
                let gap = max(Int64(FrontTracker.gapFrames), 60_000_000 / max(1, frameIntervalNanos))
                if Int64(track.missed) > gap {
                    report(track.tracker.flushPending(), into: &result)
                    reportCentreCrossing(of: track, direction: track.settled, sequence: frame.sequence,
                                         frameNanos: frame.timestampNanos, occupancy: 0, final: true, into: &result)
                    track.end()
                }
            }
        }
        // New tracks for torsos nobody follows.
        for c in 0..<torsos.candidateCount where !torsos.candidates[c].matched {
            var free: PrecisionTrack?
            for track in tracks where !track.active && free == nil { free = track }
            guard let track = free else { break }
            track.start(centroidX: torsos.candidates[c].centroidX, centroidY: torsos.candidates[c].centroidY,
                        rows: torsos.candidates[c].firstRow...torsos.candidates[c].lastRow)
            torsos.candidates[c].matched = true
            track.matched = c
        }
        for track in tracks where track.active && track.matched >= 0 {
            let torso = torsos.candidates[track.matched]
            track.move(toX: torso.centroidX, y: torso.centroidY, halfDepth: torso.halfDepth,
                       rows: torso.firstRow...torso.lastRow)
            let velocity = track.stepX * 1e9 / Double(max(1, frameIntervalNanos))
            let occupancy = Double(bodies.groups[torso.group].maxY - bodies.groups[torso.group].minY + 1) / Double(height)
            // Both sides are measured and kept for the last frames: until the
            // way it runs is clear, so that a torso first seen close to the
            // line is timed all the same; and after, so that a track that
            // turns (a runner standing at the line sways before the start)
            // is timed from its new side's fronts of those frames, not from
            // the first it measures once the turn is clear, maybe past the line.
            // The neck is the same for both sides: found once.
            let neck = edges.neckLuma(torso, candidate: track.matched, value: UInt8(2 + torso.group))
            let right = front.measureFront(torso, candidate: track.matched, direction: .leftToRight, frame: frame,
                                     velocity: velocity, neck: neck, learnt: &track.topRight)
            let left = front.measureFront(torso, candidate: track.matched, direction: .rightToLeft, frame: frame,
                                    velocity: velocity, neck: neck, learnt: &track.topLeft)
            let before = track.settled
            let direction = track.direction(halfDepth: torso.halfDepth)
            if let before, direction != before {
                // A turn (or a torso cut by the view's edge, its centre
                // drawn back): the fronts' pending crossing, else the
                // centre's, the old way is due now.
                report(track.timedOnTurn, into: &result)
                track.timedOnTurn = nil
                reportCentreCrossing(of: track, direction: before, sequence: frame.sequence,
                                     frameNanos: frame.timestampNanos, occupancy: occupancy, final: true, into: &result)
                track.centre.reset()
            }
            guard let direction else {
                track.remember(right: right?.front ?? .nan, rightNanos: right?.nanos ?? 0, left: left?.front ?? .nan,
                               leftNanos: left?.nanos ?? 0, frame: frame, occupancy: occupancy)
                continue
            }
            if direction != before {
                for k in 0..<track.remembered {
                    let entry = track.rememberedFrame(k)
                    let front = direction == .leftToRight ? entry.right : entry.left
                    guard !front.isNaN else { continue }
                    let then = LumaFrame(pixels: frame.pixels, width: frame.width, height: frame.height,
                                         rowStride: frame.rowStride, pixelStride: frame.pixelStride,
                                         timestampNanos: entry.frameNanos, sequence: entry.sequence)
                    report(track.tracker.add(front: front,
                                             atNanos: direction == .leftToRight ? entry.rightNanos : entry.leftNanos,
                                             direction: direction, frame: then, occupancy: entry.occupancy,
                                             jumpLimit: jumpLimit(torso)), into: &result)
                }
            }
            track.remember(right: right?.front ?? .nan, rightNanos: right?.nanos ?? 0, left: left?.front ?? .nan,
                           leftNanos: left?.nanos ?? 0, frame: frame, occupancy: occupancy)
            let sample = direction == .leftToRight ? right : left
            if let sample {
                lastFront = sample.front
                lastFrontNanos = sample.nanos
                lastHalfDepth = torso.halfDepth
                report(track.tracker.add(front: sample.front, atNanos: sample.nanos, direction: direction, frame: frame,
                                         occupancy: occupancy, jumpLimit: jumpLimit(torso)), into: &result)
            }
            // The centre at its row's instant, and the front brought to it.
            let centreNanos = rowNanos(min(height - 1, max(0, Int(torso.centroidY))), frame: frame)
            track.centre.add(centre: torso.centroidX,
                             front: sample.map { $0.front - velocity * Double($0.nanos - centreNanos) / 1e9 },
                             atNanos: centreNanos)
            reportCentreCrossing(of: track, direction: direction, sequence: frame.sequence,
                                 frameNanos: frame.timestampNanos, occupancy: occupancy, final: false, into: &result)
        }
    }

    /// The track's crossing from its centre (`CentreCrossing`) if its fronts
    /// did not time it; the fronts then do not time it again.
    func reportCentreCrossing(of track: PrecisionTrack, direction: CrossingDirection?, sequence: UInt32,
                                      frameNanos: Int64, occupancy: Double, final: Bool,
                                      into result: inout DetectedCrossing?) {
        guard let direction else { return }
        let tracker = track.tracker
        guard let crossing = track.centre.check(direction: direction, gateX: gateX, crossings: tracker.crossings,
                                                armed: tracker.isArmed, pending: tracker.hasPendingCrossing,
                                                minSpeed: tracker.settings.minVelocityPixelsPerSecond,
                                                depth: 2 * track.halfDepth, sequence: sequence, frameNanos: frameNanos,
                                                occupancy: occupancy, final: final) else { return }
        tracker.noteCrossing(atNanos: crossing.timeNanos)
        report(crossing, into: &result)
    }

    /// The active track followed through the most frames that has not been
    /// given this frame's torso yet.
    func oldestUnassignedTrack() -> PrecisionTrack? {
        var oldest: PrecisionTrack?
        for track in tracks where track.active && track.matched == PrecisionTrack.unassigned {
            if oldest.map({ track.moves > $0.moves }) ?? true { oldest = track }
        }
        return oldest
    }

    /// How far the front may land ahead of its path before `FrontTracker`
    /// takes it for a jump: half the torso's half depth (~7 cm, tens of
    /// times what a sprinter's acceleration moves it off its path in a
    /// frame), at least two pixels (the front's noise, a pixel's quantization).
    func jumpLimit(_ torso: Torso) -> Double { max(2, 0.5 * torso.halfDepth) }

    /// Keeps the first crossing of the frame unless one was reported within the cooldown.
    func report(_ crossing: DetectedCrossing?, into result: inout DetectedCrossing?) {
        guard let crossing, result == nil else { return }
        if lastReportedNanos != Int64.min && crossing.timeNanos - lastReportedNanos < settings.cooldownNanos { return }
        result = crossing
        lastReportedNanos = crossing.timeNanos
    }
}

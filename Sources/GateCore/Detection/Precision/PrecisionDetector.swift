/// Precision mode: a background model learnt from the empty scene, the
/// silhouette of each body against it, the torso as the body's thickest
/// part, and the sub-pixel front of that torso, row by row, at each row's
/// own exposure instant.
///
/// Why a silhouette: frame differencing sees only the edges that moved, so
/// a leaning torso's slanted front and a forearm raised ahead of it look
/// alike. Against a background the whole body is seen, and the torso can be
/// told from limbs and head by thickness: it holds discs about 0.3 m
/// across along a spine about 0.5 m long; a head (~0.22 m), an arm (~0.1 m)
/// or the bump where a limb joins the torso do not.
///
/// Per frame, on a work image about `precisionWorkWidth` wide (`WorkPlanes`),
/// each step a stage of its own, in the file named after it:
/// 1. each row's gain against the background (its median ratio): mains
///    flicker through a rolling shutter and a cloud are light, not bodies
///    (`RowGains`);
/// 2. the silhouette: pixels farther from the gained background than the
///    row's noise threshold (learnt at calibration: median + MAD)
///    (`Silhouette`);
/// 3. bodies: silhouette regions grouped when they overlap in x; short
///    gaps between pixels of one luma where something other than the
///    scene lies between them, and enclosed holes (large ones by the
///    head only where they are not the scene), are filled (an arm
///    across the torso that nearly matches the background is body; the
///    scene between a raised hand and the head is not) (`BodyFinder`);
/// 4. per body, the distance transform; the torso half depth R is the
///    depth the deepest 30% of the upper 60% of its rows reach (legs side
///    by side are as deep); a person's R is between a thirtieth and a
///    quarter of the silhouette's height and 12 R is at least
///    `minBlobHeightFraction` of the frame (a ball, a bird, a far figure,
///    the thin edges of a bumped scene are not people) (`TorsoDepth`);
/// 5. the torso: where the body holds a disc of 0.65 R (the core), the
///    core pixels holding `torsoCoreFraction` x R (more than a head) with a
///    run of `torsoSpineHalfDepths` x R through the core, along its axis
///    or a lean (the spine), and the union of those pixels' largest discs
///    (a morphological opening: limbs and head cut off); a piece at the
///    silhouette's top above a larger one is the head, not a torso;
///    pieces of one body's core a few R apart in x are one torso
///    (`TorsoFinder`, `TorsoSpine.swift`);
/// 6. from the torso's top down 3.25 R (the shoulder over the chest: never
///    the hips), per row where the silhouette's edge is the torso's (it ends
///    where the opened torso does, in the torso's colour), the edge to a
///    fraction of a pixel from the luma between torso and background (an
///    area sum: motion blur and anti-aliasing cancel) (`TorsoEdges`);
/// 7. the torso front: the most forward row where the front is locally
///    flat (two of its four neighbours agree; a limb leaving the torso
///    makes a ramp), refined by a parabola through those rows (the round
///    top of a leaning torso's shoulder), rows brought to one instant with
///    the rolling shutter's row times; the sample is taken at that row's
///    exposure instant (`TorsoFront`);
/// 8. per tracked torso, `FrontTracker` with a postroll: when the front
///    passes the gate line it waits for `precisionPostroll` more samples
///    and those of `precisionPostrollNanos`, takes those of the last
///    `precisionFitSpanNanos` before the line (at least
///    `precisionSamplesBefore`), leaves out the samples off the others'
///    curve, and times the crossing from a quadratic through the samples
///    on both sides. Until a track's direction is clear, both sides'
///    fronts are kept and replayed (`TorsoTracks`, `PrecisionTrack`);
/// 9. a torso followed across the line whose fronts never time it (none
///    readable past the line) is timed from its centre's path and the
///    fronts' median offset from it (`CentreCrossing`), once the track
///    ends or a second has passed: late and less sure, but not missed.
///
/// The empty scene (`SceneModel`) is learnt by calibration
/// (`SceneLearning.calibration`, precision mode) or from the first frames
/// (`.firstFrames`: photo-finish mode, which is this detector without
/// calibration). While precision mode
/// calibrates (about a second), a photo-finish engine of its own times the
/// runners (`provisional`): a runner through the gate in the first second
/// of a clip, or just after the box was reset, is timed all the same.
///
/// The background keeps learning where the scene is empty; what stays
/// unchanged in the silhouette for `absorbStillNanos` becomes background (a
/// bumped camera, where an athlete stood at the start); a change over most
/// of the frame re-learns the background at once. None of it can trigger:
/// a crossing needs a torso moving through the gate line.
///
/// Every buffer is allocated in `init`; `process` allocates nothing.
public final class PrecisionDetector: ReadsWorkPlanes {
    /// Seed 000's precision state machine.
    public enum State: Equatable, Sendable {
        /// Learning the empty scene.
        case calibrating
        /// Calibrated, but a body is on the gate line.
        case waitingForClear
        /// Ready to time a torso through the line.
        case armed
        /// A torso reached the line; samples after it are being gathered.
        case postroll
        /// Just timed a crossing; no second one within `cooldownNanos`.
        case cooldown
    }

    public let settings: DetectorSettings
    public let image: WorkImage
    /// How the empty scene is learnt: calibration (precision mode) or the first frames (photo-finish).
    let learning: SceneLearning
    public var workWidth: Int { image.width }
    public var workHeight: Int { image.height }
    public internal(set) var state = State.calibrating
    /// The last torso front measured (work columns) and its exposure instant:
    /// what the sub-frame fit is given, for tests and tuning.
    public var lastFront: Double { tracking.lastFront }
    public var lastFrontNanos: Int64 { tracking.lastFrontNanos }
    /// The torso half depth (work pixels) of the last body measured.
    public var lastHalfDepth: Double { tracking.lastHalfDepth }

    let gateX: Double

    /// The planes every stage reads, the scene they are cut from, and the
    /// stages in the order they run.
    let planes: WorkPlanes
    let scene: SceneModel
    let rowGains: RowGains
    let silhouette: Silhouette
    let bodies: BodyFinder
    let depth: TorsoDepth
    let torsos: TorsoFinder
    let edges: TorsoEdges
    let front: TorsoFront
    let tracking: TorsoTracks

    /// The last frame processed: what a crossing's nearest frame is counted from.
    var lastSequence: UInt32 = 0
    var lastSequenceNanos = Int64.min
    /// A silhouette pixel's mark in `mask` once it has been unchanged for `hideStillNanos`.
    static let hidden: UInt8 = 255

    /// Precision mode's stand-in while it calibrates: the same engine
    /// learning the scene from the first frames (photo-finish), ready within
    /// `warmupFrames`. It is fed until calibration is done and it follows no
    /// moving torso (a runner it is timing is not handed over halfway), and
    /// no longer than `provisionalOverrunNanos` after that; the two share the
    /// cooldown, so a runner both follow is reported once.
    let provisional: PrecisionDetector?
    var feedingProvisional = true
    var calibratedAtNanos = Int64.min
    static let provisionalOverrunNanos: Int64 = 1_000_000_000

    public convenience init(width: Int, height: Int, settings: DetectorSettings = DetectorSettings()) {
        self.init(width: width, height: height, settings: settings, learning: .calibration)
    }

    init(width: Int, height: Int, settings: DetectorSettings, learning: SceneLearning) {
        precondition(settings.calibrationFrames >= 3, "calibration needs frames")
        precondition(settings.warmupFrames >= 2, "the noise needs frames")
        precondition(settings.precisionSamplesBefore >= 1 && settings.precisionPostroll >= 0, "fit needs samples")
        self.settings = settings
        self.learning = learning
        image = WorkImage(sourceWidth: width, sourceHeight: height, workWidth: settings.precisionWorkWidth)
        gateX = image.gateColumn(settings.gatePosition)
        planes = WorkPlanes(image: image, readoutNanos: settings.readoutNanos,
                            scratchCapacity: max(image.width, image.height, settings.calibrationFrames) + 1)
        rowGains = RowGains(planes: planes)
        scene = SceneModel(planes: planes, settings: settings, rowGains: rowGains, learning: learning)
        silhouette = Silhouette(planes: planes, scene: scene)
        bodies = BodyFinder(planes: planes, settings: settings)
        depth = TorsoDepth(planes: planes)
        torsos = TorsoFinder(planes: planes, settings: settings, bodies: bodies, depth: depth)
        edges = TorsoEdges(planes: planes, settings: settings, bodies: bodies, torsos: torsos)
        front = TorsoFront(planes: planes, edges: edges)
        tracking = TorsoTracks(planes: planes, settings: settings, gateX: gateX, bodies: bodies, torsos: torsos,
                               edges: edges, front: front)
        provisional = learning == .calibration
            ? PrecisionDetector(width: width, height: height, settings: settings, learning: .firstFrames) : nil
    }

    /// Forgets the scene (after the camera moved): calibration starts again.
    public func reset() {
        state = .calibrating
        scene.reset()
        tracking.endAll()
        provisional?.reset()
        feedingProvisional = true
        calibratedAtNanos = Int64.min
        torsos.reset()
    }

    /// True once the background has been learnt.
    public var isCalibrated: Bool { state != .calibrating }

    /// Feeds one frame; returns a crossing when a torso front passed the gate line.
    public func process(_ frame: LumaFrame) -> DetectedCrossing? {
        planes.downsample(frame)
        var result: DetectedCrossing?
        if let provisional, feedingProvisional {
            // The stand-in works on the same work image: copied, not made again.
            provisional.current.update(from: current, count: pixelCount)
            var early: DetectedCrossing?
            provisional.analyse(frame, into: &early)
            tracking.report(early, into: &result)
            if state != .calibrating {
                if calibratedAtNanos == Int64.min { calibratedAtNanos = frame.timestampNanos }
                if !provisional.isFollowingATorso
                    || frame.timestampNanos - calibratedAtNanos > PrecisionDetector.provisionalOverrunNanos {
                    feedingProvisional = false
                }
            }
        }
        analyse(frame, into: &result)
        lastSequence = frame.sequence
        lastSequenceNanos = frame.timestampNanos
        guard var crossing = result else { return nil }
        crossing.referToNearestFrame(sequence: frame.sequence, stampNanos: frame.timestampNanos,
                                     intervalNanos: scene.frameIntervalNanos)
        return crossing
    }

    /// The end of the frames (a clip's end): each track still followed
    /// times now, with what it has, the crossing it waits for (its
    /// postroll's, or its centre's: `CentreCrossing`), and ends. Crossings
    /// go to `deliver`, oldest track first, under the same cooldown as
    /// `process`'s.
    public func finish(_ deliver: (DetectedCrossing) -> Void) {
        let (sequence, stamp, interval) = (lastSequence, lastSequenceNanos, scene.frameIntervalNanos)
        func referred(_ crossing: DetectedCrossing) -> DetectedCrossing {
            var c = crossing
            c.referToNearestFrame(sequence: sequence, stampNanos: stamp, intervalNanos: interval)
            return c
        }
        if let provisional, feedingProvisional {
            provisional.finish { crossing in
                var kept: DetectedCrossing?
                tracking.report(crossing, into: &kept)
                if let kept { deliver(referred(kept)) }
            }
        }
        tracking.finish { deliver(referred($0)) }
    }

    /// The frame from its work image in `current` on: learning the scene,
    /// or the silhouette, bodies, torsos and their tracks.
    private func analyse(_ frame: LumaFrame, into result: inout DetectedCrossing?) {
        scene.noteFrameInterval(frame.timestampNanos)
        defer { planes.swapFrames() }
        if state == .calibrating {
            switch learning {
            case .calibration: scene.calibrate(frame)
            case .firstFrames: scene.learnFromFirstFrames()
            }
            if scene.isLearnt { state = .waitingForClear }
            return
        }
        planes.swapGains()
        rowGains.estimateRowGains()
        let pixels = silhouette.segment()
        if pixels * 5 > pixelCount * 2 {
            // Most of the view changed at once: the camera moved or the light
            // changed beyond the gain model. Learn the scene as it is now.
            scene.relearnFromCurrent()
            tracking.endAll()
            state = .waitingForClear
            return
        }
        bodies.findBodies()
        torsos.findTorsos(frameNanos: scene.lastFrameNanos)
        tracking.followTorsos(frame, frameIntervalNanos: scene.frameIntervalNanos, into: &result)
        updateState(frame)
    }

    /// True while a track has a direction and fronts: a torso moving through the view.
    var isFollowingATorso: Bool { tracking.isFollowingATorso }

    private func updateState(_ frame: LumaFrame) {
        let lastReportedNanos = tracking.lastReportedNanos
        if tracking.hasPendingCrossing {
            state = .postroll
        } else if lastReportedNanos != Int64.min && frame.timestampNanos - lastReportedNanos < settings.cooldownNanos {
            state = .cooldown
        } else {
            var onLine = false
            let gate = Int(gateX)
            for g in 0..<bodies.groupCount where bodies.groups[g].minX <= gate && bodies.groups[g].maxX >= gate {
                onLine = true
            }
            state = onLine && state == .waitingForClear ? .waitingForClear : .armed
        }
    }
}

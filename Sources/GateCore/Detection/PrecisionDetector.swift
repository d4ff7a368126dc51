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
/// Per frame, on a work image about `precisionWorkWidth` wide:
/// 1. each row's gain against the background (its median ratio): mains
///    flicker through a rolling shutter and a cloud are light, not bodies;
/// 2. the silhouette: pixels farther from the gained background than the
///    row's noise threshold (learnt at calibration: median + MAD);
/// 3. bodies: silhouette regions grouped when they overlap in x; short
///    gaps between pixels of one luma where something other than the
///    scene lies between them, and enclosed holes (large ones by the
///    head only where they are not the scene), are filled (an arm
///    across the torso that nearly matches the background is body; the
///    scene between a raised hand and the head is not);
/// 4. per body, the distance transform; the torso half depth R is the
///    depth the deepest 30% of the upper 60% of its rows reach (legs side
///    by side are as deep); a person's R is between a thirtieth and a
///    quarter of the silhouette's height and 12 R is at least
///    `minBlobHeightFraction` of the frame (a ball, a bird, a far figure,
///    the thin edges of a bumped scene are not people);
/// 5. the torso: where the body holds a disc of 0.65 R (the core), the
///    core pixels holding `torsoCoreFraction` x R (more than a head) with a
///    run of `torsoSpineHalfDepths` x R through the core, along its axis
///    or a lean (the spine), and the union of those pixels' largest discs
///    (a morphological opening: limbs and head cut off); a piece at the
///    silhouette's top above a larger one is the head, not a torso;
///    pieces of one body's core a few R apart in x are one torso;
/// 6. from the torso's top down 5 R (the shoulder to the hips: never the
///    thighs), per row where the silhouette's edge is the torso's (it ends
///    where the opened torso does, in the torso's colour), the edge to a
///    fraction of a pixel from the luma between torso and background (an
///    area sum: motion blur and anti-aliasing cancel);
/// 7. the torso front: the most forward row where the front is locally
///    flat (two of its four neighbours agree; a limb leaving the torso
///    makes a ramp), refined by a parabola through those rows (the round
///    top of a leaning torso's shoulder), rows brought to one instant with
///    the rolling shutter's row times; the sample is taken at that row's
///    exposure instant;
/// 8. per tracked torso, `FrontTracker` with a postroll: when the front
///    passes the gate line it waits for `precisionPostroll` more samples
///    and those of `precisionPostrollNanos`,
///    takes those of the last `precisionFitSpanNanos` before the line (at
///    least `precisionSamplesBefore`), leaves out the samples off the
///    others' curve, and times the crossing from a quadratic through the
///    samples on both sides. Until a track's
///    direction is clear, both sides' fronts are kept and replayed;
/// 9. a torso followed across the line whose fronts never time it (none
///    readable past the line) is timed from its centre's path and the
///    fronts' median offset from it (`CentreCrossing`), once the track
///    ends or a second has passed: late and less sure, but not missed.
///
/// The empty scene is learnt by calibration (`SceneLearning.calibration`,
/// precision mode) or from the first frames (`.firstFrames`: photo-finish
/// mode, which is this detector without calibration). While precision mode
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
public final class PrecisionDetector {
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
    public private(set) var lastFront = Double.nan
    public private(set) var lastFrontNanos: Int64 = 0
    /// The torso half depth (work pixels) of the last body measured.
    public private(set) var lastHalfDepth = 0.0

    let width: Int
    let height: Int
    let pixelCount: Int
    let gateX: Double

    var current: UnsafeMutablePointer<UInt8>
    var previous: UnsafeMutablePointer<UInt8>

    // Background model (PrecisionBackground.swift).
    /// The empty scene, luma x 65536.
    let background: UnsafeMutablePointer<Int32>
    /// The same as luma x 256 (clamped to 16 bits), for the silhouette
    /// test's 16-bit lanes; written wherever `background` is.
    let background16: UnsafeMutablePointer<UInt16>
    /// Per-row silhouette threshold, luma.
    let threshold: UnsafeMutablePointer<Int32>
    /// This frame's gain of each row against the background, x 4096.
    var gain: UnsafeMutablePointer<Int32>
    /// The previous frame's, so that whether a pixel changed is asked of
    /// the scene, not of the light (mains flicker changes every pixel).
    var previousGain: UnsafeMutablePointer<Int32>
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
    let scratch: UnsafeMutablePointer<Int32>
    let scratchCapacity: Int
    /// One row's gain samples (`rowGain`): ratios x 4096, below 2^16.
    let gainSamples: UnsafeMutablePointer<UInt16>
    /// Per column of the body being split: its rows in the body's upper part (`splitPeople`).
    let columnRows: UnsafeMutablePointer<Int32>
    /// The boxes of the people `splitPeople` told apart.
    let people: UnsafeMutablePointer<Body>
    let histogram: UnsafeMutablePointer<UInt32>
    var frameIntervalNanos: Int64 = 0
    var lastFrameNanos = Int64.min
    /// The last frame processed: what a crossing's nearest frame is counted from.
    var lastSequence: UInt32 = 0
    var lastSequenceNanos = Int64.min
    var updateShift = 8
    /// Which quarter of the rows gets the background's slow update this frame.
    var upkeepPhase = 0
    var absorbFrames = 60
    var hideFrames = 24

    // Silhouette and torso (this file).
    /// 0 background, 1 silhouette, 2 + g the pixels of body g, `hidden`
    /// silhouette unchanged for `hideStillNanos`.
    let mask: UnsafeMutablePointer<UInt8>
    /// Per row, the first and last column of the silhouette `segment` cut
    /// (first > last: none), so that labelling skips what is empty, and
    /// whether it hid any (rows without are skipped by `reclaimHidden`).
    let silhouetteSpans: UnsafeMutablePointer<ColumnSpan>
    static let hidden: UInt8 = 255
    /// Core pixels (1), those of candidate c marked 2 + c.
    let core: UnsafeMutablePointer<UInt8>
    let runs: PrecisionRuns
    let coreRuns: PrecisionRuns
    let distance: PrecisionDistance
    let discRows: DiscRows
    let holes: PrecisionHoles
    static let maxPieces = 64
    static let maxGroups = 4
    /// People told apart in one body (`splitPeople`), at most.
    static let maxPeople = 4
    static let maxCandidates = 6
    let pieceRoot: UnsafeMutablePointer<Int32>
    /// The spine pixels of a core, one slot per pixel.
    let spinePixels: UnsafeMutablePointer<Int32>
    /// The steps of the walks along a core: per direction, dx and dy of each step.
    let axisSteps: UnsafeMutablePointer<Int32>
    /// The same steps as offsets in the image (dy x width + dx).
    let axisOffsets: UnsafeMutablePointer<Int>
    let axisStepsCapacity: Int
    let pieceParent: UnsafeMutablePointer<Int32>
    var pieceCount = 0
    let groups: UnsafeMutablePointer<Body>
    var groupCount = 0
    let candidates: UnsafeMutablePointer<Torso>
    var candidateCount = 0
    /// When a head was last seen apart from its torso (`dropHead`): the
    /// silhouette's top row, the rows from it to the torso's, and the time.
    var headTopRow = 0
    var headGapRows = 0
    var headGapNanos = Int64.min / 2
    static let headGapMemoryNanos: Int64 = 500_000_000
    /// How recent that frame must be for a short piece at the top to be
    /// taken for the head joined to the shoulder (`dropHead`).
    static let headShoulderMemoryNanos: Int64 = 50_000_000
    /// Per candidate and row: the torso's opened front, right (ahead when
    /// moving right) and left; NaN where the torso has no disc in the row.
    let rightFront: UnsafeMutablePointer<Double>
    let leftFront: UnsafeMutablePointer<Double>
    /// Per row of the torso being measured: its front edge (NaN: no clean
    /// edge), that edge brought to one instant (NaN also where the edge is
    /// not the torso's colour: a limb), and the torso's luma behind it.
    let rowEdge: UnsafeMutablePointer<Double>
    let rowAligned: UnsafeMutablePointer<Double>
    let rowLuma: UnsafeMutablePointer<Double>
    /// The torso's luma behind its back edge per row (NaN: no clean edge).
    let rowBackLuma: UnsafeMutablePointer<Double>
    /// Its back edge, brought to one instant as `rowAligned` is, in the
    /// same sense (forward positive; NaN: no clean edge, or not measured).
    let rowBackAligned: UnsafeMutablePointer<Double>
    /// How far (RMS, pixels) the fronts of a straight lean may lie from
    /// their line in the frame `measureFront` reads (`leanLine`).
    var leanTolerance = PrecisionDetector.leanToleranceFloor

    let tracks: [PrecisionTrack]
    var lastReportedNanos = Int64.min

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

    struct Body {
        var minX = 0, maxX = 0, minY = 0, maxY = 0
        var area = 0
    }

    struct Torso {
        var group = 0
        var halfDepth = 0.0
        var discRadius = 0.0
        var centroidX = 0.0, centroidY = 0.0
        var firstRow = 0, lastRow = -1
        var matched = false
        /// Spine pixels (discs) it is made of.
        var discs = 0.0
    }

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
        self.width = image.width
        self.height = image.height
        pixelCount = image.pixelCount
        gateX = image.gateColumn(settings.gatePosition)
        current = .allocate(capacity: pixelCount)
        previous = .allocate(capacity: pixelCount)
        current.initialize(repeating: 0, count: pixelCount)
        previous.initialize(repeating: 0, count: pixelCount)
        background = .allocate(capacity: pixelCount)
        background.initialize(repeating: 0, count: pixelCount)
        background16 = .allocate(capacity: pixelCount)
        background16.initialize(repeating: 0, count: pixelCount)
        threshold = .allocate(capacity: image.height)
        threshold.initialize(repeating: 12, count: image.height)
        gain = .allocate(capacity: image.height)
        gain.initialize(repeating: 4096, count: image.height)
        previousGain = .allocate(capacity: image.height)
        previousGain.initialize(repeating: 4096, count: image.height)
        still = .allocate(capacity: pixelCount)
        still.initialize(repeating: 0, count: pixelCount)
        calibration = .allocate(capacity: learning == .calibration ? pixelCount * settings.calibrationFrames : 1)
        deviationHistograms = .allocate(capacity: learning == .firstFrames ? image.height * 256 : 1)
        calibrationGain = .allocate(capacity: image.height * settings.calibrationFrames)
        scratchCapacity = max(image.width, image.height, settings.calibrationFrames) + 1
        scratch = .allocate(capacity: scratchCapacity)
        gainSamples = .allocate(capacity: image.width / 8 + 8)   // and whole vectors (`rankValue`)
        columnRows = .allocate(capacity: image.width)
        people = .allocate(capacity: PrecisionDetector.maxPeople)
        people.initialize(repeating: Body(), count: PrecisionDetector.maxPeople)
        histogram = .allocate(capacity: 256)
        histogram.initialize(repeating: 0, count: 256)
        mask = .allocate(capacity: pixelCount)
        mask.initialize(repeating: 0, count: pixelCount)
        silhouetteSpans = .allocate(capacity: image.height)
        silhouetteSpans.initialize(repeating: ColumnSpan(first: 0, last: Int32(image.width - 1), hidden: true),
                                   count: image.height)
        core = .allocate(capacity: pixelCount)
        core.initialize(repeating: 0, count: pixelCount)
        runs = PrecisionRuns(width: image.width, height: image.height)
        coreRuns = PrecisionRuns(width: image.width, height: image.height)
        distance = PrecisionDistance(width: image.width, height: image.height)
        discRows = DiscRows(width: image.width, height: image.height)
        holes = PrecisionHoles(width: image.width, height: image.height)
        pieceRoot = .allocate(capacity: PrecisionDetector.maxPieces)
        spinePixels = .allocate(capacity: pixelCount)
        // A walk needs at most a spine length of steps: 1.2 half depths, and
        // a half depth is at most a quarter of the height.
        axisStepsCapacity = image.height + 1
        axisSteps = .allocate(capacity: 2 * axisStepsCapacity * (PrecisionDetector.spineDirections + 1))
        axisOffsets = .allocate(capacity: axisStepsCapacity * (PrecisionDetector.spineDirections + 1))
        pieceParent = .allocate(capacity: PrecisionDetector.maxPieces)
        groups = .allocate(capacity: PrecisionDetector.maxGroups)
        groups.initialize(repeating: Body(), count: PrecisionDetector.maxGroups)
        candidates = .allocate(capacity: PrecisionDetector.maxCandidates)
        candidates.initialize(repeating: Torso(), count: PrecisionDetector.maxCandidates)
        rightFront = .allocate(capacity: PrecisionDetector.maxCandidates * image.height)
        leftFront = .allocate(capacity: PrecisionDetector.maxCandidates * image.height)
        rowEdge = .allocate(capacity: image.height)
        rowAligned = .allocate(capacity: image.height)
        rowLuma = .allocate(capacity: image.height)
        rowBackLuma = .allocate(capacity: image.height)
        rowBackAligned = .allocate(capacity: image.height)

        var trackerSettings = settings
        trackerSettings.fitSamples = max(settings.precisionSamplesBefore, settings.precisionMaxSamplesBefore) + 1
            + max(settings.precisionPostroll, settings.precisionMaxPostroll)
        trackerSettings.minVelocityPixelsPerSecond = settings.precisionMinSpeedWidthsPerSecond * Double(image.width)
        var list: [PrecisionTrack] = []
        for _ in 0..<PrecisionDetector.maxCandidates {
            list.append(PrecisionTrack(tracker: FrontTracker(settings: trackerSettings, workWidth: image.width, gateX: gateX,
                                                              postroll: settings.precisionPostroll,
                                                              samplesBefore: settings.precisionSamplesBefore,
                                                              fitSpanNanos: settings.precisionFitSpanNanos,
                                                              postrollNanos: settings.precisionPostrollNanos,
                                                              maxPostroll: settings.precisionMaxPostroll)))
        }
        tracks = list
        provisional = learning == .calibration
            ? PrecisionDetector(width: width, height: height, settings: settings, learning: .firstFrames) : nil
    }

    deinit {
        current.deallocate(); previous.deallocate(); background.deallocate(); background16.deallocate(); threshold.deallocate()
        gain.deallocate(); previousGain.deallocate(); still.deallocate(); calibration.deallocate(); deviationHistograms.deallocate()
        calibrationGain.deallocate()
        scratch.deallocate(); gainSamples.deallocate(); columnRows.deallocate(); people.deallocate(); histogram.deallocate(); mask.deallocate(); silhouetteSpans.deallocate(); core.deallocate()
        pieceRoot.deallocate(); spinePixels.deallocate(); axisSteps.deallocate(); axisOffsets.deallocate()
        pieceParent.deallocate(); groups.deallocate()
        candidates.deallocate(); rightFront.deallocate(); leftFront.deallocate()
        rowEdge.deallocate(); rowAligned.deallocate(); rowLuma.deallocate(); rowBackLuma.deallocate()
        rowBackAligned.deallocate()
    }

    /// Forgets the scene (after the camera moved): calibration starts again.
    public func reset() {
        state = .calibrating
        storedFrames = 0
        finishStage = -1
        lastFrameNanos = Int64.min
        frameIntervalNanos = 0
        for track in tracks { track.end() }
        provisional?.reset()
        feedingProvisional = true
        calibratedAtNanos = Int64.min
        headGapNanos = Int64.min / 2
    }

    /// True once the background has been learnt.
    public var isCalibrated: Bool { state != .calibrating }

    /// Feeds one frame; returns a crossing when a torso front passed the gate line.
    public func process(_ frame: LumaFrame) -> DetectedCrossing? {
        downsample(frame)
        var result: DetectedCrossing?
        if let provisional, feedingProvisional {
            // The stand-in works on the same work image: copied, not made again.
            provisional.current.update(from: current, count: pixelCount)
            var early: DetectedCrossing?
            provisional.analyse(frame, into: &early)
            report(early, into: &result)
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
                                     intervalNanos: frameIntervalNanos)
        return crossing
    }

    /// The end of the frames (a clip's end): each track still followed
    /// times now, with what it has, the crossing it waits for (its
    /// postroll's, or its centre's: `CentreCrossing`), and ends. Crossings
    /// go to `deliver`, oldest track first, under the same cooldown as
    /// `process`'s.
    public func finish(_ deliver: (DetectedCrossing) -> Void) {
        let (sequence, stamp, interval) = (lastSequence, lastSequenceNanos, frameIntervalNanos)
        func referred(_ crossing: DetectedCrossing) -> DetectedCrossing {
            var c = crossing
            c.referToNearestFrame(sequence: sequence, stampNanos: stamp, intervalNanos: interval)
            return c
        }
        if let provisional, feedingProvisional {
            provisional.finish { crossing in
                var kept: DetectedCrossing?
                report(crossing, into: &kept)
                if let kept { deliver(referred(kept)) }
            }
        }
        while let track = oldestActiveTrack() {
            var kept: DetectedCrossing?
            report(track.tracker.flushPending(), into: &kept)
            reportCentreCrossing(of: track, direction: track.settled, sequence: 0, frameNanos: 0, occupancy: 0,
                                 final: true, into: &kept)
            track.end()
            if let kept { deliver(referred(kept)) }
        }
    }

    private func oldestActiveTrack() -> PrecisionTrack? {
        var oldest: PrecisionTrack?
        for track in tracks where track.active {
            if oldest.map({ track.moves > $0.moves }) ?? true { oldest = track }
        }
        return oldest
    }

    /// The frame from its work image in `current` on: learning the scene,
    /// or the silhouette, bodies, torsos and their tracks.
    private func analyse(_ frame: LumaFrame, into result: inout DetectedCrossing?) {
        noteFrameInterval(frame.timestampNanos)
        defer { swap(&current, &previous) }
        if state == .calibrating {
            switch learning {
            case .calibration: calibrate(frame)
            case .firstFrames: learnFromFirstFrames()
            }
            return
        }
        swap(&gain, &previousGain)
        estimateRowGains()
        let silhouette = segment()
        if silhouette * 5 > pixelCount * 2 {
            // Most of the view changed at once: the camera moved or the light
            // changed beyond the gain model. Learn the scene as it is now.
            relearnFromCurrent()
            for track in tracks { track.end() }
            state = .waitingForClear
            return
        }
        findBodies()
        findTorsos()
        followTorsos(frame, into: &result)
        updateState(frame)
    }

    /// True while a track has a direction and fronts: a torso moving through the view.
    var isFollowingATorso: Bool {
        for track in tracks where track.active && track.tracker.hasFronts { return true }
        return false
    }

    // MARK: - Bodies

    /// Silhouette regions of some size, grouped when they overlap in x
    /// (a body falls apart where a limb matches the background), kept when
    /// the group is tall enough to be a person.
    private func findBodies() {
        runs.label(mask, stride: width, value: 1, x0: 0, x1: width - 1, y0: 0, y1: height - 1, spans: silhouetteSpans)
        pieceCount = 0
        groupCount = 0
        let minPiece = max(6, pixelCount / 4000)
        for r in 0..<runs.count where runs.root(r) == r && Int(runs.area[r]) >= minPiece {
            guard pieceCount < PrecisionDetector.maxPieces else { break }
            pieceRoot[pieceCount] = Int32(r)
            pieceParent[pieceCount] = Int32(pieceCount)
            pieceCount += 1
        }
        guard pieceCount > 0 else { return }
        let margin = Int32(max(1, width / 64))
        for i in 0..<pieceCount {
            for j in (i + 1)..<max(i + 1, pieceCount) {
                let a = Int(pieceRoot[i]), b = Int(pieceRoot[j])
                if runs.maxX[a] + margin >= runs.minX[b] && runs.maxX[b] + margin >= runs.minX[a] {
                    let ra = pieceFind(i), rb = pieceFind(j)
                    if ra != rb { pieceParent[max(ra, rb)] = Int32(min(ra, rb)) }
                }
            }
        }
        // Half the person's height here: legs that match the track behind them
        // vanish; the torso check below asks for the whole person.
        let minHeight = 0.5 * settings.minBlobHeightFraction * Double(height)
        for i in 0..<pieceCount where pieceFind(i) == i {
            var body = Body(minX: Int.max, maxX: Int.min, minY: Int.max, maxY: Int.min, area: 0)
            for j in 0..<pieceCount where pieceFind(j) == i {
                let k = Int(pieceRoot[j])
                body.minX = min(body.minX, Int(runs.minX[k])); body.maxX = max(body.maxX, Int(runs.maxX[k]))
                body.minY = min(body.minY, Int(runs.minY[k])); body.maxY = max(body.maxY, Int(runs.maxY[k]))
                body.area += Int(runs.area[k])
            }
            guard Double(body.maxY - body.minY + 1) >= minHeight else { continue }
            if groupCount < PrecisionDetector.maxGroups {
                groups[groupCount] = body
                groupCount += 1
            } else {
                // Keep the largest bodies.
                var smallest = 0
                for g in 1..<groupCount where groups[g].area < groups[smallest].area { smallest = g }
                if groups[smallest].area < body.area { groups[smallest] = body }
            }
        }
        // Paint each body's pixels with its number (2 + g).
        for g in 0..<groupCount {
            var body = groups[g]
            // Its pieces are the sizeable regions inside its box (groups are apart in x).
            for r in 0..<runs.count {
                let k = runs.root(r)
                guard Int(runs.area[k]) >= minPiece, runs.minX[k] >= Int32(body.minX), runs.maxX[k] <= Int32(body.maxX),
                      runs.minY[k] >= Int32(body.minY), runs.maxY[k] <= Int32(body.maxY) else { continue }
                let line = mask + Int(runs.row[r]) * width
                for x in Int(runs.start[r])...Int(runs.end[r]) { line[x] = UInt8(2 + g) }
            }
            reclaimHidden(&body, value: UInt8(2 + g))
            groups[g] = body
            fillCamouflage(body, value: UInt8(2 + g))
            fillCamouflageVertically(body, value: UInt8(2 + g))
            fillHoles(body, value: UInt8(2 + g))
        }
    }

    /// Gives a body back the hidden pixels that continue its rows in its own
    /// luma, and grows its box over them.
    ///
    /// Why: a body of one colour (dressed, or seen, in one luma) that moves
    /// slowly leaves the pixels behind its front unchanged for longer than
    /// `hideStillNanos`: at 2 m/s a torso 0.3 m deep takes 150 ms to pass a
    /// pixel. The back of its torso would be hidden, the torso measured half
    /// as deep and its front taken from a limb. What is hidden for good
    /// reason (the scene where a runner stood while the background was
    /// learnt, an object put down) continues a body's rows in the body's own
    /// luma only by chance. Along rows only: bodies move across the view,
    /// so what they keep covering lies behind them in the same row. No
    /// farther than a quarter of the body's height (a torso is at most half
    /// that deep).
    private func reclaimHidden(_ body: inout Body, value: UInt8) {
        let longest = max(2, (body.maxY - body.minY + 1) / 4)
        var minX = body.minX, maxX = body.maxX
        // Only rows where `segment` hid pixels have any to give back.
        for y in body.minY...body.maxY where silhouetteSpans[y].hidden {
            let line = mask + y * width, pixels = current + y * width
            let limit = 2 * Int(threshold[y])
            // Each run of the body's pixels, from its first pixel leftwards
            // and from its last rightwards (never from pixels just given back).
            var x = body.minX
            while x <= body.maxX {
                guard line[x] == value else { x += 1; continue }
                var end = x
                while end < body.maxX && line[end + 1] == value { end += 1 }
                minX = min(minX, reclaim(line, pixels, from: x, step: -1, longest: longest, limit: limit, value: value))
                let last = reclaim(line, pixels, from: end, step: 1, longest: longest, limit: limit, value: value)
                maxX = max(maxX, last)
                x = last + 1
            }
        }
        body.minX = minX
        body.maxX = maxX
    }

    /// Gives the body the hidden pixels beyond its pixel `from` (`step` -1:
    /// to the left) whose luma is within `limit` of its own, if what ends
    /// them is an edge: the frame's, a body's, or the scene in another luma.
    /// A hidden run that ends in the scene in its own luma is the scene
    /// itself (where a body stood: the pixel now and the scene beyond it are
    /// one surface, it is the background model that differs); one that
    /// runs on for more than `longest` pixels is no torso's back either.
    /// Returns the body's last pixel that way.
    @inline(__always)
    private func reclaim(_ line: UnsafeMutablePointer<UInt8>, _ pixels: UnsafeMutablePointer<UInt8>, from: Int, step: Int,
                         longest: Int, limit: Int, value: UInt8) -> Int {
        let luma = Int(pixels[from])
        var k = from
        while k + step >= 0 && k + step < width && line[k + step] == PrecisionDetector.hidden {
            guard PrecisionDetector.agree(Int(pixels[k + step]), luma, within: limit),
                  (k + step - from) * step <= longest else { return from }
            k += step
        }
        guard k != from else { return from }
        let next = k + step
        if next >= 0 && next < width && line[next] == 0
            && PrecisionDetector.agree(Int(pixels[next]), luma, within: limit) { return from }
        var i = from
        while i != k { i += step; line[i] = value }
        return k
    }

    /// Two lumas that differ by no more than `limit`.
    @inline(__always)
    static func agree(_ a: Int, _ b: Int, within limit: Int) -> Bool {
        let difference = a - b
        return difference <= limit && difference >= -limit
    }

    /// Fills short gaps in a body's rows between pixels of the same luma
    /// where what lies between departs from the scene
    /// (`gapDepartsFromScene`): an arm across the torso that happens to
    /// match the background cuts a hole through the torso's silhouette
    /// (its anti-aliased edges may remain), not a gap between two parts.
    /// An arm ahead of the torso differs from the torso: it stays apart.
    private func fillCamouflage(_ body: Body, value: UInt8) {
        let longest = max(2, (body.maxY - body.minY + 1) / 10)
        for y in body.minY...body.maxY {
            let start = y * width, line = mask + start
            let limit = 2 * Int(threshold[y])
            forEachGapStart(line, after: line - 1, from: body.minX + 1, through: body.maxX, value: value) { x in
                fillGap(at: x, start: start, stride: 1, range: body.minX...body.maxX, longest: longest,
                        value: value, limit: limit)
            }
        }
    }

    /// The same down each column: a camouflaged forearm across the torso
    /// cuts it in two, one above the other. Done row by row across the
    /// columns, which reads the mask in memory order: a fill changes only
    /// its own column, at and below the row where its gap starts, so each
    /// column sees the same checks in the same order as walking it alone.
    private func fillCamouflageVertically(_ body: Body, value: UInt8) {
        let longest = max(2, (body.maxY - body.minY + 1) / 10)
        guard body.maxY > body.minY else { return }
        for y in (body.minY + 1)...body.maxY {
            let line = mask + y * width
            let limit = 2 * Int(threshold[y])
            forEachGapStart(line, after: line - width, from: body.minX, through: body.maxX, value: value) { x in
                fillGap(at: y, start: x, stride: width, range: body.minY...body.maxY, longest: longest,
                        value: value, limit: limit)
            }
        }
    }

    /// Calls `fill(x)`, x rising from `first` through `last`, where a gap
    /// starts: `here[x]` is not `value` and `previous[x]` (the pixel before
    /// it along the line being filled) is. Eight positions at a time where
    /// none starts one (most of a body); each check reads the mask as the
    /// fills before it left it.
    @inline(__always)
    private func forEachGapStart(_ here: UnsafeMutablePointer<UInt8>, after previous: UnsafeMutablePointer<UInt8>,
                                 from first: Int, through last: Int, value: UInt8, _ fill: (Int) -> Void) {
        let v = SIMD8<UInt8>(repeating: value)
        var x = first
        while x <= last {
            if x + 8 <= last + 1 {
                let h = UnsafeRawPointer(here + x).loadUnaligned(as: SIMD8<UInt8>.self)
                let p = UnsafeRawPointer(previous + x).loadUnaligned(as: SIMD8<UInt8>.self)
                if !any((h .!= v) .& (p .== v)) {
                    x += 8
                    continue
                }
            }
            if here[x] != value && previous[x] == value { fill(x) }
            x += 1
        }
    }

    /// Along one line of the mask (positions `range`, `stride` apart from
    /// `start`: 1 along a row, `width` down a column), fills the gap that
    /// starts at position x after a body pixel, if it ends within `longest`
    /// at a body pixel of the same luma (within `limit`): from the body
    /// pixel nearest before the gap back, the first such end.
    ///
    /// The body pixels that may end it (up to `longest` past x) are listed
    /// once, with their luma, in `scratch`: each pixel before the gap is
    /// then matched against that short list, not against every position of
    /// the line again (most gaps have none: the scene between the legs,
    /// past the body's end). At most `longest` entries, less than a line:
    /// within `scratchCapacity`, and nothing else holds `scratch` while
    /// the masks are mended.
    @inline(__always)
    private func fillGap(at x: Int, start: Int, stride: Int, range: ClosedRange<Int>, longest: Int, value: UInt8,
                         limit: Int) {
        var ends = 0
        var b = x + 1
        while b <= min(range.upperBound, x + longest) {
            let i = start + b * stride
            if mask[i] == value {
                scratch[ends] = Int32(truncatingIfNeeded: b << 8 | Int(current[i]))
                ends += 1
            }
            b += 1
        }
        guard ends > 0 else { return }
        var a = x - 1
        while a >= max(range.lowerBound, x - 1 - longest / 2) {
            if mask[start + a * stride] == value {
                let luma = Int(current[start + a * stride])
                let last = min(range.upperBound, a + longest + 1)
                for k in 0..<ends {
                    let end = Int(scratch[k] >> 8)
                    guard end <= last else { break }
                    if PrecisionDetector.agree(Int(scratch[k] & 255), luma, within: limit) {
                        guard gapDepartsFromScene(from: a + 1, to: end, start: start, stride: stride) else { return }
                        for gap in (a + 1)..<end { mask[start + gap * stride] = value }
                        return
                    }
                }
            }
            a -= 1
        }
    }

    /// True when what lies in the gap at positions `first..<end` of a line
    /// (as in `fillGap`) is on average farther from the gained background
    /// than a third of the threshold: something is there, not the scene.
    ///
    /// Why: two parts of one luma with the scene between them (a hand
    /// raised beside the head, an arm beside the thigh, the legs) leave a
    /// gap just like a camouflaged limb across the torso does, and filling
    /// it joins them into a mass as deep as a torso (a hand and head so
    /// joined: 50 ms early). Each of the gap's scene pixels (not in the
    /// silhouette) is within the threshold (four sigmas of the row's
    /// noise) of the background; but a limb or a stripe that matches the
    /// scene only that closely still departs from it, in one direction,
    /// pixel after pixel, while the scene itself departs by noise that
    /// averages out: over n pixels the mean is off by sigma / sqrt(n), and
    /// a third of the threshold is 1.3 sigmas. Scene pixels beside a
    /// silhouette pixel are left out where others remain: anti-aliased
    /// edges of the parts, they lean towards the parts' luma. A gap of
    /// silhouette pixels only (another luma, hidden) holds something.
    @inline(__always)
    private func gapDepartsFromScene(from first: Int, to end: Int, start: Int, stride: Int) -> Bool {
        var departure = 0, thresholds = 0, edgeDeparture = 0, edgeThresholds = 0
        // Along a row every position is in that row; down a column, position p is row p.
        let lineRow = stride == 1 ? start / width : -1
        for p in first..<end {
            let i = start + p * stride
            guard mask[i] == 0 else { continue }
            let row = stride == 1 ? lineRow : p
            // background is luma x 65536, gain x 4096.
            let d = Int(current[i]) - ((Int(background[i]) * Int(gain[row]) + (1 << 27)) >> 28)
            // The gap's ends are body pixels: positions first - 1 and end are in the line.
            if mask[i - stride] != 0 || mask[i + stride] != 0 {
                edgeDeparture += d; edgeThresholds += Int(threshold[row])
            } else {
                departure += d; thresholds += Int(threshold[row])
            }
        }
        if thresholds == 0 { departure = edgeDeparture; thresholds = edgeThresholds }
        return 3 * abs(departure) >= thresholds
    }

    /// Fills the holes of a body: background enclosed by it. A hole is
    /// camouflage (a limb across the torso matching the background), not
    /// space the camera sees through: little on a runner encloses
    /// background. Except a raised arm whose hand reaches the head: the
    /// scene between forearm, upper arm and head is then a hole as deep as
    /// a torso, and filled it became one, its front the forearm's (a second
    /// renderer's runner at 240 fps, 16 px ahead of the torso for 17 frames:
    /// 52 ms early). So a hole of at least a twelfth of the body's height
    /// both ways (wider than a limb across the torso) that ends in the
    /// upper third of the body (by the head, not across the chest or the
    /// hips) is filled only where it departs from the scene as a gap must
    /// (`PrecisionHoles.fill`, `gapDepartsFromScene`). Lower, the test
    /// itself is wrong where the background still holds a runner who stood
    /// there while it was learnt: the runner leaving matches that ghost,
    /// and left open, the hole across the torso timed a standing start in
    /// view 83 ms late (precision mode, GateSim's corpus at 240 fps).
    private func fillHoles(_ body: Body, value: UInt8) {
        holes.fill(mask, stride: width, value: value, x0: body.minX, x1: body.maxX, y0: body.minY, y1: body.maxY) { i, y in
            // background is luma x 65536, gain x 4096.
            (departure: Int(current[i]) - ((Int(background[i]) * Int(gain[y]) + (1 << 27)) >> 28),
             threshold: Int(threshold[y]))
        }
    }

    private func pieceFind(_ i: Int) -> Int {
        var r = i
        while Int(pieceParent[r]) != r { r = Int(pieceParent[r]) }
        return r
    }

    // MARK: - Torsos

    /// Per body: distance transform, torso half depth, core, spine, and the
    /// opened torso's left and right front per row.
    private func findTorsos() {
        candidateCount = 0
        for g in 0..<groupCount {
            let body = groups[g]
            let value = UInt8(2 + g)
            // Exact distances in the rows the half depth is measured on; in
            // the rest, where a core can be, once the half depth tells where.
            distance.compute(mask, value: value, x0: body.minX, x1: body.maxX, y0: body.minY, y1: body.maxY,
                             exactThrough: PrecisionDetector.upperRow(of: body))
            guard let halfDepth = torsoHalfDepth(body, countColumns: true) else { continue }
            let count = splitPeople(body)
            if count < 2 {
                distance.finish(below: min(coreSquared(halfDepth), discSquared(halfDepth)))
                findTorsos(in: g, box: body, halfDepth: halfDepth)
                continue
            }
            for k in 0..<count {
                guard let own = torsoHalfDepth(people[k], countColumns: false) else { continue }
                findTorsos(in: g, box: people[k], halfDepth: own)
            }
        }
    }

    /// The torso half depth of the body in `box` (its pixels have a
    /// distance above 0 there): the depth that the deepest 30% of the upper
    /// 60% of its rows reach (head, torso, hips: legs side by side are as
    /// deep, and below). With `countColumns`, each column's rows in that
    /// upper part go to `columnRows` (from the box's first column).
    private func torsoHalfDepth(_ box: Body, countColumns: Bool) -> Double? {
        var rows = 0
        let upper = PrecisionDetector.upperRow(of: box)
        let boxWidth = box.maxX - box.minX + 1
        if countColumns { for i in 0..<boxWidth { columnRows[i] = 0 } }
        for y in box.minY...upper {
            var deepest: Int32 = 0
            let d = distance.squared + y * width + box.minX   // 0 where the box is not this body
            // Counted from 0 with no overflow check: in vector lanes.
            for i in 0..<boxWidth { deepest = max(deepest, d[i]) }
            if countColumns {
                for i in 0..<boxWidth { columnRows[i] &+= d[i] > 0 ? 1 : 0 }
            }
            if deepest > 0 { scratch[rows] = deepest; rows += 1 }
        }
        guard rows >= 4 else { return nil }
        let k = Int(0.7 * Double(rows - 1))
        return Double(PrecisionDetector.select(scratch, count: rows, rank: k)).squareRoot()
    }

    /// The last of the upper 60% of `box`'s rows, where `torsoHalfDepth` looks.
    static func upperRow(of box: Body) -> Int { box.minY + Int(0.6 * Double(box.maxY - box.minY)) }

    /// The least squared distance of a core pixel (`findCores`: a disc of 0.65 R).
    private func coreSquared(_ halfDepth: Double) -> Int32 {
        let coreRadius = 0.65 * halfDepth
        return Int32((coreRadius * coreRadius).rounded(.up))
    }

    /// The least squared distance of a spine pixel's disc (`torsoCoreFraction` x R).
    private func discSquared(_ halfDepth: Double) -> Int32 {
        let discRadius = settings.torsoCoreFraction * halfDepth
        return Int32((discRadius * discRadius).rounded(.up))
    }

    /// Two runners close behind each other, a leg of one across the other's,
    /// are one body. Its half depth is the larger runner's, and the other's
    /// torso, slimmer in the view (farther, or leaning more), may hold no
    /// core at all: it was missed for 14 frames at the line (a second
    /// renderer's pair, 120 fps, 8 and 12 px half depths). So the body's
    /// upper part (`columnRows`) is split where no pixel is: each run of
    /// columns that holds a torso's height somewhere (three tenths of the
    /// upper rows; an arm or a hand on its own does not) is a person, and
    /// the columns between two people are shared at the middle of the gap.
    /// Fills `people` with each person's box (rows: where its columns have
    /// pixels) and returns how many; below 2, the body is one person.
    private func splitPeople(_ body: Body) -> Int {
        let boxWidth = body.maxX - body.minX + 1
        let upperRows = Int(0.6 * Double(body.maxY - body.minY)) + 1
        let tall = Int32(max(4, (3 * upperRows) / 10))
        var count = 0
        var i = 0
        // `people` first holds each person's columns (box-relative).
        while i < boxWidth {
            guard columnRows[i] > 0 else { i += 1; continue }
            let start = i
            var highest: Int32 = 0
            while i < boxWidth && columnRows[i] > 0 { highest = max(highest, columnRows[i]); i += 1 }
            guard highest >= tall else { continue }
            guard count < PrecisionDetector.maxPeople else { return 1 }
            people[count] = Body(minX: start, maxX: i - 1, minY: 0, maxY: 0, area: 0)
            count += 1
        }
        guard count >= 2 else { return count }
        // Each person's own half depth and cores: every distance exact.
        distance.finish(below: 0)
        var firstColumn = body.minX
        for k in 0..<count {
            let lastColumn = k == count - 1 ? body.maxX : body.minX + (people[k].maxX + people[k + 1].minX) / 2
            var top = Int.max, bottom = Int.min
            for y in body.minY...body.maxY {
                let d = distance.squared + y * width
                var any = false
                for x in firstColumn...lastColumn where d[x] > 0 { any = true; break }
                if any { top = min(top, y); bottom = y }
            }
            people[k] = Body(minX: firstColumn, maxX: lastColumn, minY: top == Int.max ? body.minY : top,
                             maxY: bottom == Int.min ? body.minY : bottom, area: 0)
            firstColumn = lastColumn + 1
        }
        return count
    }

    /// The torsos of body `g` in `box` (the whole body's, or one person's).
    private func findTorsos(in g: Int, box: Body, halfDepth: Double) {
        let bodyHeight = Double(box.maxY - box.minY + 1)
        // A person: the torso is deep enough to be seen and between a
        // thirtieth and a quarter of the silhouette's height (not a line of
        // pixels from a shifted edge, not a blob); and a person is about
        // 12 torso half depths tall, however much of the silhouette is
        // seen: a far figure is too small.
        guard halfDepth >= max(2.0, 0.012 * Double(height)), halfDepth * 30 >= bodyHeight,
              halfDepth * 4 <= bodyHeight,
              max(bodyHeight, 12 * halfDepth) >= settings.minBlobHeightFraction * Double(height) else { return }
        let first = candidateCount
        findCores(in: g, box: box, halfDepth: halfDepth)
        dropHead(from: first, top: box.minY, halfDepth: halfDepth)
        mergePieces(from: first, halfDepth: halfDepth)
    }

    /// A leaning torso's core often breaks in two (the shoulder end and the
    /// hip end, where an arm or the thighs join); the pieces of one body
    /// within three half depths of each other in x are one torso.
    private func mergePieces(from first: Int, halfDepth: Double) {
        var i = first
        while i < candidateCount {
            var j = i + 1
            while j < candidateCount {
                guard (candidates[j].centroidX - candidates[i].centroidX).magnitude < 3 * halfDepth else { j += 1; continue }
                let a = candidates[i], b = candidates[j]
                let right = rightFront + i * height, left = leftFront + i * height
                let rightB = rightFront + j * height, leftB = leftFront + j * height
                for y in b.firstRow...b.lastRow {
                    if !(right[y] >= rightB[y]) && !rightB[y].isNaN { right[y] = rightB[y] }
                    if !(left[y] <= leftB[y]) && !leftB[y].isNaN { left[y] = leftB[y] }
                }
                let discs = a.discs + b.discs
                candidates[i].centroidX = (a.centroidX * a.discs + b.centroidX * b.discs) / discs
                candidates[i].centroidY = (a.centroidY * a.discs + b.centroidY * b.discs) / discs
                candidates[i].discs = discs
                candidates[i].firstRow = min(a.firstRow, b.firstRow)
                candidates[i].lastRow = max(a.lastRow, b.lastRow)
                removeCandidate(j)
            }
            i += 1
        }
    }

    /// Side on, a head (~0.2 m) is about as deep as a slim torso (chests
    /// are 0.2-0.25 m deep), so its core can hold the torso's discs; the
    /// neck between them is too thin to join it to the torso's core. A
    /// piece that begins within R of the silhouette's top and ends above
    /// (at most R / 2 into) a larger piece of the same body is that head:
    /// no torso, and ahead of the torso's front when the runner leans.
    /// (Once merged as the torso's shoulder end: 17-45 ms early.)
    ///
    /// The neck is not always thin enough: in some frames the head's core
    /// joins the torso's. So where the torso began below the top of the
    /// silhouette, in a frame whose head stood apart, is remembered for
    /// `headGapMemoryNanos`; in the meantime a piece that begins within R of
    /// the same top holds the head, and begins as a torso that many rows
    /// below the top. (A head joined in every other frame: 58 ms early at
    /// 60 fps.)
    ///
    /// The torso's core may also break in two below the shoulder (a sleeve
    /// of the shirt's colour across it), and the head join the shoulder's
    /// piece alone: a piece too short to be cut to a torso's height, above
    /// a larger piece that it overlaps by more than R / 2. Within
    /// `headShoulderMemoryNanos` of the frame whose head stood apart (the
    /// posture is the same a frame or two later) it is cut as well, or
    /// dropped if it ends above the torso's top. Merged whole, the head
    /// led the torso: a second renderer's leaning runner at 60 fps, 52 ms
    /// early. (With the whole memory, 500 ms, at 30 fps arms of the shirt's
    /// colour were cut into torsos: two runners 30 and 60 ms worse.)
    func dropHead(from first: Int, top: Int, halfDepth: Double) {
        let reach = Int(halfDepth.rounded(.up))
        // The last row of the heads dropped; Int.max once one was longer
        // than a head (a spine of more than 4 R: a head is about 2 R tall).
        var headEnd = Int.min
        var j = first
        while j < candidateCount {
            if candidates[j].firstRow <= top + reach && hasLargerPiece(than: j, from: first, below: candidates[j].lastRow - reach / 2) {
                headEnd = candidates[j].discs <= 4 * halfDepth ? max(headEnd, candidates[j].lastRow) : Int.max
                removeCandidate(j)
            } else {
                j += 1
            }
        }
        var torsoRow = Int.max
        for k in first..<candidateCount { torsoRow = min(torsoRow, candidates[k].firstRow) }
        guard torsoRow < Int.max else { return }
        let gap = torsoRow - top
        if gap > reach {
            // Learnt from a head wholly above the torso's core, a neck of at
            // most 1.5 R between them, and 2.25 to 4 R in all: else the
            // piece dropped may have been a leaning torso's shoulder, or the
            // torso's top is missing (a shirt like the scene).
            if headEnd > Int.min && headEnd < torsoRow && Double(torsoRow - headEnd) <= 1.5 * halfDepth
                && Double(gap) >= 2.25 * halfDepth && Double(gap) <= 4 * halfDepth {
                headTopRow = top
                headGapRows = gap
                headGapNanos = lastFrameNanos
            }
        } else if lastFrameNanos - headGapNanos <= PrecisionDetector.headGapMemoryNanos && abs(top - headTopRow) <= reach {
            // The top is the head's as it was then (not a torso's whose head
            // the scene hides); cut while the rest is a torso's height.
            let recent = lastFrameNanos - headGapNanos <= PrecisionDetector.headShoulderMemoryNanos
            var k = first
            while k < candidateCount {
                if candidates[k].firstRow <= top + reach {
                    if top + headGapRows + 2 * reach <= candidates[k].lastRow {
                        candidates[k].firstRow = top + headGapRows
                    } else if recent && hasLargerPiece(than: k, from: first, below: top + reach + 1) {
                        // The head joined to the shoulder, a torso below it.
                        if candidates[k].lastRow < top + headGapRows {
                            removeCandidate(k)
                            continue
                        }
                        candidates[k].firstRow = top + headGapRows
                    }
                }
                k += 1
            }
        }
    }

    /// True when a piece from `first` on other than `j`, with more discs, begins at or below `row`.
    private func hasLargerPiece(than j: Int, from first: Int, below row: Int) -> Bool {
        for k in first..<candidateCount where k != j {
            if candidates[k].discs > candidates[j].discs && candidates[k].firstRow >= row { return true }
        }
        return false
    }

    /// Moves the last candidate into `j`'s place.
    private func removeCandidate(_ j: Int) {
        let last = candidateCount - 1
        if j != last {
            candidates[j] = candidates[last]
            (rightFront + j * height).update(from: rightFront + last * height, count: height)
            (leftFront + j * height).update(from: leftFront + last * height, count: height)
        }
        candidateCount -= 1
    }

    /// The torso candidates of body `g` in `box`: its cores at `halfDepth`,
    /// their spines, and each one's opened fronts per row.
    private func findCores(in g: Int, box body: Body, halfDepth: Double) {
        // The core is where the body holds a disc of 0.65 R (connected
        // enough to follow along the torso); only its pixels holding a disc of
        // `torsoCoreFraction` x R (more than a head's) make the torso.
        let coreSquared = coreSquared(halfDepth)
        let boxWidth = body.maxX - body.minX + 1
        for y in body.minY...body.maxY {
            // Only the body's pixels have a distance above 0 in its box.
            let d = distance.squared + y * width + body.minX, c = core + y * width + body.minX
            for i in 0..<boxWidth { c[i] = d[i] >= coreSquared ? 1 : 0 }
        }
        coreRuns.label(core, stride: width, value: 1, x0: body.minX, x1: body.maxX, y0: body.minY, y1: body.maxY)
        let discRadius = settings.torsoCoreFraction * halfDepth
        let discSquared = discSquared(halfDepth)
        let spineLength = settings.torsoSpineHalfDepths * halfDepth
        // A spine pixel's walk along the core reaches `spineLength` pixels
        // (itself and `need` steps) forwards and backwards together.
        let need = min(axisStepsCapacity, max(0, Int((spineLength - 1).rounded(.up))))
        for k in 0..<PrecisionDetector.spineDirections {
            let direction = PrecisionDetector.spineDirection(k)
            fillSteps(k + 1, ax: direction.x, ay: direction.y, count: need)
        }
        for r in 0..<coreRuns.count where coreRuns.root(r) == r {
            guard candidateCount < PrecisionDetector.maxCandidates else { return }
            let coreHeight = Double(coreRuns.maxY[r] - coreRuns.minY[r] + 1)
            guard coreHeight >= 0.8 * halfDepth else { continue }
            // The core's axis from its second moments; a torso stands within 60 degrees of vertical.
            var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0
            var i = r
            while i >= 0 {
                let y = Double(coreRuns.row[i])
                for x in Int(coreRuns.start[i])...Int(coreRuns.end[i]) {
                    let fx = Double(x)
                    n += 1; sx += fx; sy += y; sxx += fx * fx; sxy += fx * y; syy += y * y
                }
                i = Int(coreRuns.next[i])
            }
            let mx = sx / n, my = sy / n
            let cxx = sxx / n - mx * mx, cxy = sxy / n - mx * my, cyy = syy / n - my * my
            let half = (cxx - cyy) / 2
            let lambda = (cxx + cyy) / 2 + (half * half + cxy * cxy).squareRoot()
            var ax = cxy, ay = lambda - cxx
            if ax * ax + ay * ay < 1e-12 { ax = lambda - cyy; ay = cxy }
            if ax * ax + ay * ay < 1e-12 { ax = 0; ay = 1 }
            let norm = (ax * ax + ay * ay).squareRoot()
            ax /= norm; ay /= norm
            guard ay.magnitude >= 0.5 else { continue }
            fillSteps(0, ax: ax, ay: ay, count: need)
            // Mark this core and walk along the axis from each of its pixels.
            let mark = UInt8(2 + candidateCount)
            i = r
            while i >= 0 {
                let line = core + Int(coreRuns.row[i]) * width
                for x in Int(coreRuns.start[i])...Int(coreRuns.end[i]) { line[x] = mark }
                i = Int(coreRuns.next[i])
            }
            let c = candidateCount
            let right = rightFront + c * height, left = leftFront + c * height
            for y in 0..<height { right[y] = .nan; left[y] = .nan }
            var discs = 0.0, cx = 0.0, cy = 0.0
            var firstRow = Int.max, lastRow = Int.min
            // The spine: core pixels holding the disc whose core runs on
            // along an axis. Listed first (`spinePixels`), marked once all are found
            // (the walks read this core's mark).
            var spineCount = 0
            i = r
            while i >= 0 {
                let y = Int(coreRuns.row[i])
                for x in Int(coreRuns.start[i])...Int(coreRuns.end[i]) {
                    guard distance.squared[y * width + x] >= discSquared else { continue }
                    // Along the core's axis, or along a torso's own lean (the
                    // axis of a whole body leans less than its torso).
                    var long = false
                    for k in 0...PrecisionDetector.spineDirections where !long {
                        long = coreRunsOn(x: x, y: y, steps: k, need: need, mark: mark, body: body)
                    }
                    guard long else { continue }
                    discs += 1; cx += Double(x) + 0.5; cy += Double(y) + 0.5
                    spinePixels[spineCount] = Int32(y * width + x)
                    spineCount += 1
                }
                i = Int(coreRuns.next[i])
            }
            for k in 0..<spineCount { core[Int(spinePixels[k])] = PrecisionDetector.spine }
            // The torso: the union of the spine pixels' own largest discs (a
            // pixel's distance reaches the next pixel's centre; the edge lies
            // half a pixel short of it), as a left and a right front per row.
            for k in 0..<spineCount {
                let p = Int(spinePixels[k])
                guard !discInsideNeighbours(p) else { continue }
                let y = p / width, x = p - y * width
                let squared = distance.squared[p]
                let reach = discRows.reach(squared)
                let halfWidths = discRows.halfWidths(squared)
                firstRow = min(firstRow, max(0, y - reach)); lastRow = max(lastRow, min(height - 1, y + reach))
                // Rows dy above and below share the disc's half width.
                for dy in 0...reach {
                    let h = halfWidths[dy]
                    let r1 = Double(x) + 0.5 + h, l1 = Double(x) + 0.5 - h
                    // Selects, not branches (which way they go is data): a row
                    // without a disc yet (NaN) takes this one's.
                    @inline(__always) func widen(_ row: Int) {
                        let r0 = right[row], l0 = left[row]
                        right[row] = r0 >= r1 ? r0 : r1
                        left[row] = l0 <= l1 ? l0 : l1
                    }
                    if y - dy >= 0 { widen(y - dy) }
                    if dy > 0 && y + dy < height { widen(y + dy) }
                }
            }
            guard discs > 0 else { continue }
            candidates[c] = Torso(group: g, halfDepth: halfDepth, discRadius: discRadius, centroidX: cx / discs,
                                  centroidY: cy / discs, firstRow: firstRow, lastRow: lastRow, matched: false,
                                  discs: discs)
            candidateCount += 1
        }
    }

    /// A spine pixel's mark in `core` once its torso's spine is found.
    static let spine: UInt8 = 255

    /// True when the disc of spine pixel `p` lies inside the disc of a spine
    /// pixel beside it (left, right, above or below), and so adds nothing to
    /// the torso. Distances change by at most one from a pixel to the next,
    /// so that happens exactly where they are whole numbers one apart: the
    /// discs touch at one point, on the row or column through both (their
    /// fronts there are the same exact value), and elsewhere the inner one
    /// lies well inside. Most of a torso's spine is such steps across it;
    /// painting only the rest is most of the saving.
    @inline(__always)
    private func discInsideNeighbours(_ p: Int) -> Bool {
        let root = discRows.wholeRoot(distance.squared[p])
        guard root >= 0 else { return false }
        // Spine pixels are two or more pixels inside the body's box: their
        // neighbours are in it.
        let outer = Int32((root + 1) * (root + 1))
        @inline(__always) func holds(_ q: Int) -> Bool {
            core[q] == PrecisionDetector.spine && distance.squared[q] == outer
        }
        return holds(p - 1) || holds(p + 1) || holds(p - width) || holds(p + width)
    }

    /// Directions tried for a spine besides the core's axis: vertical and
    /// leaning 0.4 and 0.8 rad either way (unit vectors).
    static let spineDirections = 5
    static func spineDirection(_ k: Int) -> (x: Double, y: Double) {
        switch k {
        case 0: return (0, 1)
        case 1: return (0.389_418, 0.921_061)
        case 2: return (-0.389_418, 0.921_061)
        case 3: return (0.717_356, 0.696_707)
        default: return (-0.717_356, 0.696_707)
        }
    }

    /// Step table `table` (0: the core's axis, k: `spineDirection(k - 1)`):
    /// the first `count` steps along (ax, ay), step s being the pixel
    /// nearest to s x (ax, ay) from the start; the way back is its negation.
    private func fillSteps(_ table: Int, ax: Double, ay: Double, count: Int) {
        let steps = axisSteps + 2 * axisStepsCapacity * table, offsets = axisOffsets + axisStepsCapacity * table
        for s in 0..<count {
            steps[2 * s] = Int32(PortableMath.nearest(Double(s + 1) * ax))
            steps[2 * s + 1] = Int32(PortableMath.nearest(Double(s + 1) * ay))
            offsets[s] = Int(steps[2 * s + 1]) * width + Int(steps[2 * s])
        }
    }

    /// True when the core (marked `mark`) runs on from (x, y) for `need`
    /// steps of table `steps`, forwards and backwards together.
    private func coreRunsOn(x: Int, y: Int, steps table: Int, need: Int, mark: UInt8, body: Body) -> Bool {
        let steps = axisSteps + 2 * axisStepsCapacity * table
        guard need > 0 else { return true }
        // Steps grow along the line: the last is the farthest in x and in y.
        let reachX = Int(steps[2 * (need - 1)].magnitude), reachY = Int(steps[2 * (need - 1) + 1].magnitude)
        if x - reachX >= body.minX && x + reachX <= body.maxX && y - reachY >= body.minY && y + reachY <= body.maxY {
            // Every step both ways stays in the body's box: no bounds to check.
            let offsets = axisOffsets + axisStepsCapacity * table, p = y * width + x
            var found = 0
            while found < need && core[p + offsets[found]] == mark { found += 1 }
            guard found < need else { return true }
            var s = 0
            while found < need && core[p - offsets[s]] == mark { found += 1; s += 1 }
            return found >= need
        }
        var found = 0
        var sign = 1
        while true {
            var s = 0
            while found < need {
                let px = x + sign * Int(steps[2 * s]), py = y + sign * Int(steps[2 * s + 1])
                guard px >= body.minX && px <= body.maxX && py >= body.minY && py <= body.maxY,
                      core[py * width + px] == mark else { break }
                found += 1
                s += 1
            }
            if sign < 0 || found >= need { return found >= need }
            sign = -1
        }
    }

    // MARK: - Tracking and timing

    private func followTorsos(_ frame: LumaFrame, into result: inout DetectedCrossing?) {
        // Each live track takes the nearest torso to where it should be now,
        // the longest followed first: a torso whose legs join it may also lie
        // near a young track begun on a leg, which would take it from the
        // track holding the runner's fronts.
        for track in tracks { track.matched = PrecisionTrack.unassigned }
        while let track = oldestUnassignedTrack() {
            var best = -1
            var bestDistance = Double.infinity
            for c in 0..<candidateCount where !candidates[c].matched {
                let t = candidates[c]
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
                candidates[best].matched = true
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
        for c in 0..<candidateCount where !candidates[c].matched {
            var free: PrecisionTrack?
            for track in tracks where !track.active && free == nil { free = track }
            guard let track = free else { break }
            track.start(centroidX: candidates[c].centroidX, centroidY: candidates[c].centroidY,
                        rows: candidates[c].firstRow...candidates[c].lastRow)
            candidates[c].matched = true
            track.matched = c
        }
        for track in tracks where track.active && track.matched >= 0 {
            let torso = candidates[track.matched]
            track.move(toX: torso.centroidX, y: torso.centroidY, halfDepth: torso.halfDepth,
                       rows: torso.firstRow...torso.lastRow)
            let velocity = track.stepX * 1e9 / Double(max(1, frameIntervalNanos))
            let occupancy = Double(groups[torso.group].maxY - groups[torso.group].minY + 1) / Double(height)
            // Both sides are measured and kept for the last frames: until the
            // way it runs is clear, so that a torso first seen close to the
            // line is timed all the same; and after, so that a track that
            // turns (a runner standing at the line sways before the start)
            // is timed from its new side's fronts of those frames, not from
            // the first it measures once the turn is clear, maybe past the line.
            // The neck is the same for both sides: found once.
            let neck = neckLuma(torso, candidate: track.matched, value: UInt8(2 + torso.group))
            let right = measureFront(torso, candidate: track.matched, direction: .leftToRight, frame: frame,
                                     velocity: velocity, neck: neck, learnt: &track.topRight)
            let left = measureFront(torso, candidate: track.matched, direction: .rightToLeft, frame: frame,
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
    private func reportCentreCrossing(of track: PrecisionTrack, direction: CrossingDirection?, sequence: UInt32,
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
    private func oldestUnassignedTrack() -> PrecisionTrack? {
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
    private func jumpLimit(_ torso: Torso) -> Double { max(2, 0.5 * torso.halfDepth) }

    /// Keeps the first crossing of the frame unless one was reported within the cooldown.
    private func report(_ crossing: DetectedCrossing?, into result: inout DetectedCrossing?) {
        guard let crossing, result == nil else { return }
        if lastReportedNanos != Int64.min && crossing.timeNanos - lastReportedNanos < settings.cooldownNanos { return }
        result = crossing
        lastReportedNanos = crossing.timeNanos
    }

    /// The exposure instant of work row `y` (rolling shutter: source row r is
    /// exposed readout x r / H after the top row).
    @inline(__always)
    func rowNanos(_ y: Int, frame: LumaFrame) -> Int64 {
        let f = image.factor
        let sourceRow = Double(y * f) + Double(f - 1) / 2
        return frame.timestampNanos + Int64((Double(settings.readoutNanos) * sourceRow / Double(image.sourceHeight)).rounded())
    }

    struct FrontSample { var front: Double; var nanos: Int64 }

    /// The torso's front this frame: each row's sub-pixel edge where the
    /// silhouette agrees with the opened torso, brought to one instant with
    /// the rolling shutter, and the most forward row that two of its four
    /// nearest rows support.
    /// `neck`: the luma of the neck above the torso, if seen (`neckLuma`).
    private func measureFront(_ torso: Torso, candidate c: Int, direction: CrossingDirection, frame: LumaFrame,
                              velocity: Double, neck: Double?, learnt: inout LearntTop) -> FrontSample? {
        let forward = direction == .leftToRight ? 1 : -1
        let opened = (forward > 0 ? rightFront : leftFront) + c * height
        let value = UInt8(2 + torso.group)
        // From the top of the torso down over the chest (3.25 R, about half
        // a metre): the most forward point of a torso is its shoulder or its
        // flat front, never lower. Lower, towards the hips, a leaning
        // torso's front falls back by the lean; when an arm hides the chest,
        // the flat rows found there are a hand's or the lower torso's, up to
        // most of a torso's depth behind the front (with rows down to the
        // hips, 5 R, leaning runners of a second renderer were timed up to
        // 39 ms late; 3.4 ms with these rows). With 3 R, more of those
        // runners were missed; with 3.5 R, two were 11 and 33 ms late.
        let firstRow = torso.firstRow
        let lastRow = min(torso.lastRow, torso.firstRow + Int(3.25 * torso.halfDepth))
        guard firstRow <= lastRow else { return nil }
        let referenceNanos = rowNanos((firstRow + lastRow) / 2, frame: frame)
        let speed = Double(forward) * velocity
        let blur = velocity.magnitude * Double(settings.exposureNanos) / 1e9
        var edgeNoise = 0.0, edges = 0.0
        for y in firstRow...lastRow {
            rowAligned[y] = .nan
            rowEdge[y] = .nan
            let o = opened[y]
            guard !o.isNaN, let run = silhouetteRun(row: y, opened: o, radius: torso.discRadius, forward: forward,
                                                    value: value) else { continue }
            if limbJoins(last: run.last, opened: o, radius: torso.discRadius, forward: forward) {
                // Infinite: a limb runs on from the torso's front here (`frontUnderALimb`).
                rowEdge[y] = .infinity
                continue
            }
            guard let edge = subPixelEdge(row: y, run: run, forward: forward, value: value, blur: blur) else { continue }
            rowEdge[y] = edge.position
            rowLuma[y] = edge.torsoLuma
            edgeNoise += PrecisionDetector.edgeNoise(threshold: Double(threshold[y]), blur: blur,
                                                     contrast: edge.torsoLuma - edge.sceneLuma)
            edges += 1
            let lag = Double(rowNanos(y, frame: frame) - referenceNanos) / 1e9
            rowAligned[y] = Double(forward) * edge.position - speed * lag
        }
        // Rows whose edge is not the torso's colour are a limb's (an arm
        // crossing the torso's front) or the head's. The torso's colour: the
        // one most rows of the upper part share (the arm hangs from the
        // shoulder over the lower part; the head covers a few top rows),
        // counting the rows of its back edge as well: the near arm lies
        // across the front or the back, seldom both, and a slim torso's
        // front may be the arm's over most of its rows.
        var n = 0
        for y in firstRow...lastRow where !rowAligned[y].isNaN { n += 1 }
        guard n >= 3 else { return nil }
        leanTolerance = max(PrecisionDetector.leanToleranceFloor, 1.5 * edgeNoise / edges)
        let upper = max(3, (n * 3 + 4) / 5)
        var upperEnd = firstRow, seen = 0
        for y in firstRow...lastRow where !rowAligned[y].isNaN && seen < upper { seen += 1; upperEnd = y }
        let back = (forward > 0 ? leftFront : rightFront) + c * height
        for y in firstRow...lastRow { rowBackAligned[y] = .nan }
        for y in firstRow...upperEnd {
            rowBackLuma[y] = .nan
            let o = back[y]
            // Unlike the scene beside it: the scene where a runner stood
            // when it was learnt, still attached to their back, is not.
            guard !o.isNaN, let run = silhouetteRun(row: y, opened: o, radius: torso.discRadius, forward: -forward,
                                                    value: value),
                  !limbJoins(last: run.last, opened: o, radius: torso.discRadius, forward: -forward),
                  let edge = subPixelEdge(row: y, run: run, forward: -forward, value: value, blur: blur,
                                          thirdColours: false),
                  (edge.sceneLuma - edge.torsoLuma).magnitude > 2 * Double(threshold[y]) else { continue }
            rowBackLuma[y] = edge.torsoLuma
            rowBackAligned[y] = Double(forward) * edge.position
                - speed * Double(rowNanos(y, frame: frame) - referenceNanos) / 1e9
        }
        // The rows down to `end` whose front (and, with `back`, whose back)
        // is of this luma.
        @inline(__always) func support(_ luma: Double, through end: Int, back: Bool) -> Int {
            var count = 0
            for b in firstRow...end {
                let tolerance = 2 * Double(threshold[b])
                if !rowAligned[b].isNaN && (rowLuma[b] - luma).magnitude <= tolerance { count += 1 }
                if back && !rowBackLuma[b].isNaN && (rowBackLuma[b] - luma).magnitude <= tolerance { count += 1 }
            }
            return count
        }
        var bestCount = 0
        var torsoLuma = 0.0
        for a in firstRow...upperEnd {
            if !rowAligned[a].isNaN {
                let count = support(rowLuma[a], through: upperEnd, back: true)
                if count > bestCount { bestCount = count; torsoLuma = rowLuma[a] }
            }
            if !rowBackLuma[a].isNaN {
                let count = support(rowBackLuma[a], through: upperEnd, back: true)
                if count > bestCount { bestCount = count; torsoLuma = rowBackLuma[a] }
            }
        }
        // Bare skin can outvote a shirt: the neck's rows at the top of the
        // torso are skin on both edges, and a bare arm lying along the back
        // over the torso's length adds as many rows as the shirt's front
        // has (second renderer: no front at all for the six frames at the
        // line at 30 fps, or the front taken from the neck). So when the
        // colour chosen is the neck's and the front rows mostly share
        // another, that other is the torso's: an arm of the neck's colour
        // across the front is the rows left out (a ramp, or not flat). A
        // bare torso, or a shirt of the skin's colour, has front rows of the
        // neck's colour, and nothing changes.
        if let neck, (torsoLuma - neck).magnitude <= 2 * Double(threshold[firstRow]) {
            var frontCount = 0, frontLuma = 0.0
            for a in firstRow...lastRow where !rowAligned[a].isNaN {
                let count = support(rowLuma[a], through: lastRow, back: false)
                if count > frontCount { frontCount = count; frontLuma = rowLuma[a] }
            }
            if frontCount >= 3 && (frontLuma - neck).magnitude > 2 * Double(threshold[firstRow]) { torsoLuma = frontLuma }
        }
        for y in firstRow...lastRow where !rowAligned[y].isNaN {
            if (rowLuma[y] - torsoLuma).magnitude > 2 * Double(threshold[y]) { rowAligned[y] = .nan }
        }
        // The most forward row where the front is locally flat: at least two
        // of its four nearest rows agree with it, to within what a torso's
        // round top allows. A limb leaving the torso at an angle makes a ramp
        // of rows, each ahead of the next: no two of them agree.
        let banded = frontIsBanded(firstRow: firstRow, lastRow: lastRow)
        var bestValue = -Double.infinity
        var bestRow = -1
        for y in firstRow...lastRow {
            let v = rowAligned[y]
            if v.isNaN || v <= bestValue { continue }
            if agreeingRows(y, firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth, banded: banded) >= 2 {
                bestValue = v
                bestRow = y
            }
        }
        // A shoulder hidden by an arm of another colour: the rows of the
        // torso's round top rise towards the arm and stop where it covers
        // them, and the flat rows left are far down a leaning torso's side.
        // Every row is a point of the torso's edge, none ahead of its front:
        // the last row before the arm is the nearest to the hidden front.
        // (A limb of the torso's own colour is not taken: its rows are not
        // set apart by colour.)
        //
        // Rows that rise going down into a limb below them are no shoulder
        // when they lie below the flat front found, within a half depth
        // ahead of it: below it a leaning torso's front falls back, and rows
        // coming forward again there are an arm of the shirt's colour swung
        // forward from the shoulder, joined to the torso, ending in a hand
        // or a seam of another luma (second renderer, standing starts at
        // 240 fps: 7.0 and 3.5 ms early, 0.3 and 0.1 ms with this; on six
        // sets 23 crossings moved by over 0.3 ms for the better, 11 for the
        // worse, the worst 0.3 -> 3.1 ms). Farther ahead they are another
        // runner's front joined to this torso, and still taken (a slim
        // runner joined by the feet to a deeper one is timed by them).
        let flatRow = bestRow
        @inline(__always) func armBelowTheFlatFront(_ y: Int) -> Bool {
            flatRow >= 0 && y > flatRow && rowAligned[y] - rowAligned[flatRow] <= torso.halfDepth
        }
        var hiddenTop = false
        for y in firstRow...lastRow where !rowAligned[y].isNaN && rowAligned[y] > bestValue {
            if (risesIntoALimb(y, step: 1, firstRow: firstRow, lastRow: lastRow) && !armBelowTheFlatFront(y))
                || risesIntoALimb(y, step: -1, firstRow: firstRow, lastRow: lastRow) {
                bestValue = rowAligned[y]
                bestRow = y
                hiddenTop = true
            }
        }
        var coveredRamp = false
        if bestRow < 0, let cap = capUnderALimb(firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth,
                                                learnt: &learnt) {
            bestRow = cap.row
            bestValue = cap.value
            coveredRamp = true
        }
        guard bestRow >= 0 else { return nil }
        var top = hiddenTop || coveredRamp
            ? bestValue
            : parabolaTop(around: bestRow, value: bestValue, firstRow: firstRow, lastRow: lastRow,
                          halfDepth: torso.halfDepth)
        if !hiddenTop && !coveredRamp,
           let ramp = leanRampTop(from: bestRow, firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth) {
            bestRow = ramp.row
            top = max(top, ramp.value)
        }
        if !hiddenTop {
            learnLineEnd(at: bestRow, firstRow: firstRow, lastRow: lastRow, halfDepth: torso.halfDepth,
                         into: &learnt.lineEndRows)
        }
        if !coveredRamp, let hidden = frontUnderALimb(above: bestRow, firstRow: firstRow, lastRow: lastRow,
                                                      halfDepth: torso.halfDepth, lineEndRows: learnt.lineEndRows) {
            top = max(top, hidden)
        }
        let bestNanos = rowNanos(bestRow, frame: frame)
        let shift = speed * Double(bestNanos - referenceNanos) / 1e9
        return FrontSample(front: Double(forward) * (top + shift), nanos: bestNanos)
    }

    /// How many rows past a row the fronts that tell the torso's lean
    /// reach: one and a half half depths, at least three rows.
    private func frontFitRows(_ halfDepth: Double) -> Int { max(3, Int((1.5 * halfDepth).rounded())) }

    /// The last of the rows below `row` whose fronts tell the torso's lean.
    private func frontFitEnd(_ row: Int, lastRow: Int, halfDepth: Double) -> Int {
        min(lastRow, row + frontFitRows(halfDepth))
    }

    /// The fronts (`rowAligned`) of rows `row` through `end`, against rows from `row`.
    private func frontSums(_ row: Int, through end: Int) -> QuadraticSums {
        frontSums(row...end, from: row)
    }

    /// The fronts (`rowAligned`) of `rows`, against rows from `origin`.
    private func frontSums(_ rows: ClosedRange<Int>, from origin: Int) -> QuadraticSums {
        var sums = QuadraticSums()
        for y in rows where !rowAligned[y].isNaN { sums.add(Double(y - origin), rowAligned[y]) }
        return sums
    }

    /// The line (against rows from `row`) of a leaning torso's straight
    /// front from `row` down, over one and a half half depths; nil when
    /// they are no straight lean (`leanLine(_:from:)`).
    private func leanLine(from row: Int, lastRow: Int, halfDepth: Double) -> (a: Double, b: Double)? {
        leanLine(row...frontFitEnd(row, lastRow: lastRow, halfDepth: halfDepth), from: row)
    }

    /// The line (against rows from `origin`) through the fronts of `rows`
    /// when they are a straight lean: at least four rows on a line leaning
    /// 0.1 to 1 px a row, to within `leanTolerance` (RMS); nil otherwise.
    private func leanLine(_ rows: ClosedRange<Int>, from origin: Int) -> (a: Double, b: Double)? {
        let sums = frontSums(rows, from: origin)
        // Rows count down the image: a front that leans forward rises with them.
        guard sums.count >= 4, let line = sums.line(), line.b < -0.1 && line.b >= -1 else { return nil }
        var squares = 0.0
        for y in rows where !rowAligned[y].isNaN {
            let off = frontOff(y, line, from: origin)
            squares += off * off
        }
        return squares <= leanTolerance * leanTolerance * sums.count ? line : nil
    }

    /// How far row `y`'s front lies ahead of `line` (against rows from
    /// `origin`), pixels; behind it, negative.
    @inline(__always)
    private func frontOff(_ y: Int, _ line: (a: Double, b: Double), from origin: Int) -> Double {
        rowAligned[y] - (line.a + line.b * Double(y - origin))
    }

    /// The least `leanTolerance`, pixels: the outline's own roughness (a
    /// pixel grid, anti-aliasing), what a sharp edge in little noise shows.
    static let leanToleranceFloor = 0.1

    /// The noise (one sigma, pixels) of a front read by `subPixelEdge`: each
    /// pixel of the blurred ramp (`blur` pixels long, and the two at its
    /// ends) adds its luma's noise over the `contrast` between torso and
    /// scene; `threshold` is four sigmas of the row's noise.
    ///
    /// Why `leanLine` allows 1.5 times this: a straight lean read in noise
    /// lies off its line by about this, RMS, and its fit over ten rows or
    /// so passes 1.5 times it all but always. A fixed 0.1 px turned away
    /// blurred, low-contrast fronts: a second renderer's box at 120 fps,
    /// 7.4 ms exposures (3.5 px of blur) and 52 luma of contrast, had fronts
    /// 0.11 px off their line (RMS) where this noise is 0.075 px; no ramp
    /// was followed up and fronts after the line were 2-4 px late, the
    /// crossing 2.4 ms late in precision mode (0.1 ms with this). Clean
    /// edges keep 0.1 px. On the second renderer's seven plain sets (762
    /// crossings, both modes): within 5 ms 759 -> 760, p99 3.8 -> 3.2 ms;
    /// p95 at 60 fps 1.34 -> 1.14 ms (7 -> 5 over its target), at 120 fps
    /// 1.22 -> 1.13 (13 -> 11 over), at 240 fps 0.49 either way; 9
    /// crossings moved by over 0.3 ms for the better (3.95 -> 0.03 ms, 5.8
    /// -> 0.2, 2.4 -> 0.1), 8 for the worse, by up to 1.3 ms and all
    /// within 1.5 ms. 1.25 times did about as well (120 fps 12 over), 2
    /// times as 1.5 did.
    static func edgeNoise(threshold: Double, blur: Double, contrast: Double) -> Double {
        threshold / 4 * (blur + 2).squareRoot() / max(16, contrast.magnitude)
    }

    /// Learns, from a frame whose top the arm left open, how many rows
    /// below the torso's first row its straight front ends (`lineEndRows`,
    /// the track's, nan until learnt): where `frontUnderALimb` carries the
    /// front up to when an arm covers the top again.
    ///
    /// A leaning box's front runs straight up to its top front corner, 2R
    /// sin(lean) rows below the first row (the back corner) and its most
    /// forward point; a round top's most forward row is R below, R(1/cos -
    /// 1) behind its front's line carried up. So the most forward row
    /// `row` counts when the rows below it lie on a straight lean and it
    /// lies on that line carried up a row, with the outline above it
    /// showing (the row above it has a front: no arm over the top). An
    /// average (weight 0.3) over such frames: one frame's rows are few.
    /// A capsule's round top learns about R, its apex row, or nothing:
    /// where the front was carried to already.
    ///
    /// Without it a box under a bare arm was carried to R below the first
    /// row, short of its corner by the lean over the rows between (second
    /// renderer, standing start at 120 fps: 5.6 ms late; 0.1 ms with this).
    /// On its seven plain sets (762 crossings, both modes): within 1 ms 697
    /// -> 704, p95 at 120 fps 1.98 -> 1.59 ms, at 240 fps 0.87 -> 0.73 ms;
    /// 18 crossings moved by over 0.3 ms for the better, 5 for the worse
    /// (the worst a capsule leaning 0.38 at 60 fps, -2.1 -> -3.2 ms).
    private func learnLineEnd(at row: Int, firstRow: Int, lastRow: Int, halfDepth: Double,
                              into lineEndRows: inout Double) {
        guard row > firstRow && row < lastRow && !rowAligned[row - 1].isNaN,
              let line = leanLine(from: row + 1, lastRow: lastRow, halfDepth: halfDepth),
              frontOff(row, line, from: row + 1).magnitude <= 0.25 else { return }
        LearntTop.average(Double(row - firstRow), into: &lineEndRows)
    }

    /// The front of a round top under an arm, when no row of a torso
    /// leaning more than the flat-row rule allows is flat; nil when the
    /// rows below the arm are no straight lean or the torso is a box.
    ///
    /// Leaning 0.34-0.42 rad (over 0.23 px a row) at a standing start, with
    /// an arm swung forward over the top, a torso's front rows are a ramp
    /// with no flat row, up to the arm: no front at all near the line, and
    /// the crossing was a late start timed from fronts tens of milliseconds
    /// past it (a second renderer's runners up to 45 ms late). The ramp's
    /// top row under two covered rows (a limb runs on from the front, or is
    /// of another colour) and the straight lean below it (`leanLine`) give
    /// the front: a capsule's cap meets the line at its tangent row, R(1 +
    /// sin) below the first row, and its apex is R(1 - cos) ahead of the
    /// line there. Carried up the line to the apex's row instead, as
    /// `frontUnderALimb` does, it overshot by R(1/cos - 1), 1 px at this
    /// lean (2.2 ms early).
    ///
    /// Not for a box: its corner lies up the line, higher than a cap's
    /// tangent, and reached from the cap it was 1.3 px late (a second
    /// renderer's box leaning 0.36: 8.9 ms late). A box the track learnt
    /// (`lineEndRows`) or whose back edge shows its corner
    /// (`backTopAhead` under 1 px) gives no front here, as before.
    ///
    /// On the second renderer's seven plain sets (762 crossings, both
    /// modes): within 1 ms 704 -> 708, within 5 ms 753 -> 757, p99 5.4 ->
    /// 4.0 ms; p95 at 60 fps 1.90 -> 1.73 ms, at 240 fps 0.73 -> 0.59; 11
    /// crossings moved by over 0.3 ms for the better (45.6 -> 1.9 ms, 9.5
    /// -> 4.0, 1.75 -> 0.01), 6 for the worse, all boxes whose back edge
    /// did not show the corner (the worst 0.0 -> 3.4 ms and 2.1 -> 4.0).
    ///
    /// Where the back does not show in this frame, the track's average over
    /// the frames it did decides (`LearntTop`): a far arm swung back across
    /// the back edge made a box at a standing start (240 fps) a round top in
    /// the frames after the line, timed 3.4 ms late (0.25 ms with it; `make
    /// test-second`'s seventh check). On the seven plain sets three other
    /// crossings moved, by 0.13-0.43 ms (one better, two worse, all within
    /// 0.5 ms).
    private func capUnderALimb(firstRow: Int, lastRow: Int, halfDepth: Double,
                               learnt: inout LearntTop) -> (row: Int, value: Double)? {
        var row = firstRow
        while row < lastRow && rowAligned[row].isNaN { row += 1 }
        guard row >= firstRow + 2, rowAligned[row - 1].isNaN && !rowEdge[row - 1].isNaN,
              rowAligned[row - 2].isNaN && !rowEdge[row - 2].isNaN, !(learnt.lineEndRows < halfDepth),
              let line = leanLine(from: row, lastRow: lastRow, halfDepth: halfDepth) else { return nil }
        // The back's top in this frame, or as the track's last frames
        // showed it: the far arm or the scene behind may hide it in some.
        if let ahead = backTopAhead(firstRow: firstRow, lastRow: lastRow, halfDepth: halfDepth, lean: line.b) {
            LearntTop.average(ahead, into: &learnt.backTopAhead)
            guard ahead >= 1 else { return nil }
        } else {
            guard !(learnt.backTopAhead < 1) else { return nil }
        }
        if let cap = capFront(line, row: row, firstRow: firstRow, halfDepth: halfDepth) { return (row, cap) }
        // The first row and half depth put the cap's tangent below `row`,
        // but the rows say otherwise: the front runs straight up to `row`.
        if leanReaches(row, lastRow: lastRow, halfDepth: halfDepth) {
            return (row, line.a + PrecisionDetector.capAhead(lean: line.b, halfDepth: halfDepth))
        }
        return (row, line.a)
    }

    /// Whether a leaning front runs straight up to `row`: its front and the
    /// next row's lie on the straight lean of the rows below them
    /// (`leanLine`), each within `leanTolerance`.
    ///
    /// Why: where an arm covers a capsule's top, `capFront` places the cap
    /// by the torso's first row and half depth, and both can be off. A
    /// runner who started from the spot where a second one still stood, and
    /// was one body with them until three frames before the line, was a new
    /// track there, measured with that body: a half depth of 11.3 px against
    /// its own 9.3 (a second renderer's pair at a standing start, 120 fps,
    /// 7.5 ms exposures). The cap's tangent fell 4 rows below the first
    /// row under the arm, while the rows from there down were one straight
    /// lean: the front was taken at that row, behind the apex by R(1 -
    /// cos), and the crossing was 4.0 ms late (0.8 ms with this). A row
    /// that is the cap's, curving away from the line, stays the front, as
    /// before: a capsule leaning 0.45 at 240 fps whose top row under the
    /// arm lay 0.24 px behind the line was 4.7 ms early when the apex was
    /// added to every such row. A row or so of the cap within
    /// `leanTolerance` of the line is taken for the line's, and the front
    /// is then ahead by up to the lean over those rows.
    ///
    /// On the second renderer's seven plain sets (752 crossings, both
    /// modes): within 1 ms 705 -> 708, p99 3.20 -> 2.63 ms; p95 at 60 fps
    /// 1.13 -> 0.95 ms, at 120 fps 1.15 -> 0.90 (11 -> 9 over its target),
    /// at 30 fps 1.21 -> 1.31, at 240 fps 0.49 either way. 8 crossings moved
    /// by over 0.3 ms for the better (4.05 -> 0.78 ms, 1.66 -> 0.42), 5 for
    /// the worse, all within 1.4 ms (the most 0.58 -> 1.34 ms, where the
    /// frame that changed came nearer its truth, 0.54 -> 0.02 px).
    private func leanReaches(_ row: Int, lastRow: Int, halfDepth: Double) -> Bool {
        guard !rowAligned[row + 1].isNaN, let below = leanLine(from: row + 2, lastRow: lastRow, halfDepth: halfDepth)
        else { return false }
        return frontOff(row + 1, below, from: row + 2).magnitude <= leanTolerance
            && frontOff(row, below, from: row + 2).magnitude <= leanTolerance
    }

    /// The most forward point of a capsule's round top whose straight front
    /// is `line` (against rows from `row`), or nil when the cap starts at or
    /// below `row`: the cap meets the line at its tangent row, R(1 + sin)
    /// below the first row, and its apex is R(1 - cos) ahead of the line
    /// there. The line carried on up to the apex's row overshoots by
    /// R(1/cos - 1).
    private func capFront(_ line: (a: Double, b: Double), row: Int, firstRow: Int, halfDepth: Double) -> Double? {
        // Rows count down the image: a front that leans forward rises with them.
        let cosine = 1 / (1 + line.b * line.b).squareRoot(), sine = -line.b * cosine
        let tangent = Double(firstRow) + halfDepth * (1 + sine) - Double(row)
        guard tangent < 0 else { return nil }
        return line.a + line.b * tangent + PrecisionDetector.capAhead(lean: line.b, halfDepth: halfDepth)
    }

    /// How far a capsule's apex lies ahead of its straight front at the
    /// cap's tangent row, R(1 - cos), for a front leaning `lean` px a row.
    static func capAhead(lean: Double, halfDepth: Double) -> Double {
        halfDepth * (1 - 1 / (1 + lean * lean).squareRoot())
    }

    /// How far, in all over the three rows below the torso's first row,
    /// its back edge lies ahead of its straight lean carried up: a box's
    /// corner or a round top. Nil when too little of the back shows.
    ///
    /// The back edge over the second half depth is a straight lean, as the
    /// front's (`lean`, within 0.15 px a row). A round top's outline lies
    /// well ahead of it near the top: its cap curves over R(1 - sin) rows
    /// (a second renderer's capsule at R = 10 and lean 0.45: 2.0-4.9 px in
    /// all over the three rows). A box's lies within its corner's rounding
    /// (one leaning 0.36: 0.1-0.9 px in most frames). So under 1 px is a
    /// box (`capUnderALimb`), 2 px or more a round top (`frontUnderALimb`).
    private func backTopAhead(firstRow: Int, lastRow: Int, halfDepth: Double, lean: Double) -> Double? {
        let from = firstRow + Int(halfDepth.rounded()), to = min(lastRow, firstRow + Int((2 * halfDepth).rounded()))
        guard from < to, firstRow + 3 <= lastRow else { return nil }
        var sums = QuadraticSums()
        for y in from...to where !rowBackAligned[y].isNaN { sums.add(Double(y - from), rowBackAligned[y]) }
        guard sums.count >= 4, let line = sums.line(), (line.b - lean).magnitude <= 0.15 else { return nil }
        var ahead = 0.0
        for y in (firstRow + 1)...(firstRow + 3) {
            guard !rowBackAligned[y].isNaN else { return nil }
            ahead += rowBackAligned[y] - (line.a + line.b * Double(y - from))
        }
        return ahead
    }

    /// The top of a leaning torso's straight front, from `row` (a row the
    /// flat-row rule took) up; nil when neither the rows below `row` nor
    /// those above it are a straight lean, or the rows above leave it.
    ///
    /// A straight front leaning by more than the flat-row rule allows (0.15
    /// px a row and the torso's roundness) is a ramp of rows, each ahead of
    /// the one below: no row of it agrees with two of its neighbours, and the
    /// row taken is wherever sensor noise made two agree, far down the ramp
    /// (a second renderer's runner leaning 0.23 rad was 15.7 ms late, fronts
    /// 19 rows down). Where the rows below `row`, over one and a half half
    /// depths, are a straight lean (`leanLine`: 0.1 to 1 px a row, within
    /// the edges' noise), the rows above that stay within 0.2 px of it are
    /// the torso's too, up to the last. An arm leaving the torso at an
    /// angle is off that line.
    ///
    /// The row taken may be the ramp's foot instead: below it the front
    /// comes forward again (a forearm across the chest below it, the
    /// hips), and the rows below are no lean. Then the line is the ramp's
    /// own, over the same span of rows above `row`, followed up from the
    /// highest of them on it (a limb may cross the ramp). A second
    /// renderer's box leaning 0.36 rad at 120 fps, an upper arm swung over
    /// its top and a forearm across its chest: the ramp between them was
    /// seven rows, the row taken its foot, fronts up to 4.9 px late, the
    /// crossing 7.6 ms early through the fit (`make test-second`'s eighth
    /// check). Also when the line below ends at `row` itself (no row above
    /// on it): the ramp above is then another lean than the rows below.
    ///
    /// On the second renderer's seven plain sets (762 crossings, both
    /// modes): within 1 ms 709 -> 713, within 5 ms 757 -> 759; p95 at 60
    /// fps 1.52 -> 1.34 ms (9 -> 7 over its target), at 120 fps 1.60 ->
    /// 1.22 (16 -> 13 over), at 240 fps 0.49 either way. 8 crossings moved
    /// by over 0.3 ms for the better (10.3 -> 0.1 ms, 7.6 -> 0.8, 4.7 ->
    /// 2.0), 3 for the worse, all at 30 fps and within 2.7 ms (the most
    /// -0.2 -> +1.6 ms: a front 7.9 px late became 0.9 px late, and the fit
    /// no longer left it out).
    private func leanRampTop(from row: Int, firstRow: Int, lastRow: Int, halfDepth: Double) -> (row: Int, value: Double)? {
        if let line = leanLine(from: row, lastRow: lastRow, halfDepth: halfDepth),
           let top = rampTop(line, row: row, from: row, firstRow: firstRow) {
            return top
        }
        let start = max(firstRow, row - frontFitRows(halfDepth))
        guard let line = leanLine(start...row, from: row) else { return nil }
        var highest = row
        for y in start...row where !rowAligned[y].isNaN && onRamp(y, line, row: row) { highest = y; break }
        return rampTop(line, row: row, from: highest, firstRow: firstRow)
    }

    /// True when row `y`'s front lies within 0.2 px of `line` (against rows from `row`).
    @inline(__always)
    private func onRamp(_ y: Int, _ line: (a: Double, b: Double), row: Int) -> Bool {
        frontOff(y, line, from: row).magnitude <= 0.2
    }

    /// The last of the rows up from `top` on `line` (against rows from
    /// `row`) and the line there; nil when that is `row` itself.
    private func rampTop(_ line: (a: Double, b: Double), row: Int, from top: Int, firstRow: Int)
        -> (row: Int, value: Double)? {
        var top = top
        while top > firstRow && !rowAligned[top - 1].isNaN && onRamp(top - 1, line, row: row) { top -= 1 }
        guard top < row else { return nil }
        return (top, line.a + line.b * Double(top - row))
    }

    /// The front of a leaning torso where an arm hides it, or nil when no
    /// limb covers the rows just above `row` (the most forward row seen).
    ///
    /// A leaning torso is most forward near its top, and the arm hangs from
    /// the shoulder there: swung forward, it covers those rows (the
    /// silhouette runs on past the torso's front, or is the arm's colour),
    /// and the rows below stop short of the front by the lean over the
    /// rows covered. In the second renderer one arm or the other is ahead
    /// most of the time, and leaning runners were timed 1-2 px late (a
    /// standing start at 120 fps 5.1 ms; 3.9 ms with this).
    ///
    /// The front rows below, over one and a half half depths, are fitted
    /// with a line or, when they bend back, a quadratic of no more curvature
    /// than the torso's own (with a line alone, round torsos were timed up
    /// to 7 ms early), and followed up through the covered rows: to the
    /// curve's top, or to where a rounded top is most forward (a half depth
    /// below the torso's first row; one and a quarter did worse), at most
    /// three quarters of a half depth (without that bound three runners
    /// were 2.6-3.8 ms off, 0.2-1.5 ms with it; a few others moved by up to
    /// a millisecond either way). A lean of more than a pixel a row is no
    /// torso's. Where the torso's outline shows again above the arm, the
    /// front is no less than it (a box's corner: below). Where the track
    /// learnt that its straight front ends higher than a half depth below
    /// the first row (`lineEndRows`, a box's corner), it is carried up to
    /// that row instead.
    private func frontUnderALimb(above row: Int, firstRow: Int, lastRow: Int, halfDepth: Double,
                                 lineEndRows: Double) -> Double? {
        var coveredTop = row
        while coveredTop > firstRow && rowAligned[coveredTop - 1].isNaN && !rowEdge[coveredTop - 1].isNaN {
            coveredTop -= 1
        }
        let reachRows = lineEndRows.isNaN ? halfDepth : min(halfDepth, lineEndRows)
        let target = max(coveredTop, firstRow + Int(reachRows.rounded()))
        guard target < row else { return nil }
        let sums = frontSums(row, through: frontFitEnd(row, lastRow: lastRow, halfDepth: halfDepth))
        guard sums.count >= 3, let line = sums.line() else { return nil }
        var (a, b, c) = (line.a, line.b, 0.0)
        if sums.count >= 4, let curve = sums.quadratic(), curve.c < 0 {
            (a, b, c) = (curve.a, curve.b, max(curve.c, -1 / halfDepth))
        }
        // Rows count down the image: a front that leans forward rises with them.
        guard b < 0 else { return nil }
        @inline(__always) func reach(_ t: Double) -> Double { min(a + b * t + c * t * t, a - t) }
        var t = max(Double(target - row), -0.75 * halfDepth)
        if c < 0 { t = max(t, -b / (2 * c)) }
        guard t < 0 else { return nil }
        // A round top (the back edge shows it, `backTopAhead`; no box end
        // learnt) over a straight front: its cap, reached from the line
        // (`capFront`). The line carried up to a half depth below the
        // first row overshot it by R(1/cos - 1): a capsule leaning 0.15-0.2
        // under an arm swung 0.8-1 rad forward, in `PrecisionScene`, was
        // 0.5-1.8 ms early, 0.1-1.0 ms with this. On the second renderer's
        // seven plain sets (762 crossings, both modes): p95 at 60 fps 1.73
        // -> 1.52 ms, at 240 fps 0.59 -> 0.50; 6 crossings moved by over 0.3
        // ms for the better (the most 1.8 -> 0.6 ms), 1 for the worse (0.7
        // -> 1.1 ms). A curved front (the quadratic) is left as it was: its
        // own top is nearer.
        if c == 0, !(lineEndRows < halfDepth),
           let ahead = backTopAhead(firstRow: firstRow, lastRow: lastRow, halfDepth: halfDepth, lean: b), ahead >= 2 {
            return capFront((a, b), row: row, firstRow: firstRow, halfDepth: halfDepth)
        }
        let front = reach(t)
        // The torso's outline above the covered rows, where it shows again:
        // a point of the torso's edge, so its front lies at least that far
        // forward. A box's straight front runs on to its top corner, higher
        // than a rounded top's most forward row; the arm hid it, and the
        // front above stopped a pixel short (a second renderer's box torso
        // under a sleeve at 60 fps, 5.4 ms late; 0.9 and 1.6 ms with this).
        // The front carried up the straight line to that row is as far as
        // it can reach there: a rounded top falls back from the line.
        //
        // Only where the outline shows over three rows or more: a row or
        // two between the arm and the top are the arm's edge, blended with
        // the top's, ahead of both (a capsule under a sleeve swung 1.2 rad
        // forward, in `PrecisionScene`: 2.9 ms early with them, 0.6 ms
        // without). On the second renderer's seven plain sets (762
        // crossings, both modes): within 1 ms 681 -> 693; p95 at 60 fps
        // 2.22 -> 1.90 ms, at 240 fps 1.45 -> 0.92; at 120 fps 1.98 either way.
        let shown = coveredTop - 1
        guard shown - 2 >= firstRow, !rowAligned[shown].isNaN, !rowAligned[shown - 1].isNaN,
              !rowAligned[shown - 2].isNaN else { return front }
        return max(front, min(reach(Double(shown - row)), rowAligned[shown]))
    }

    /// How many pixels at each side of the neck `neckLuma` leaves out.
    static let neckInset = 2

    /// The neck's luma: the median of the body's pixels in the rows just
    /// above the torso (half a half depth), over the columns of its top
    /// half depth, leaving out the two at each side of the neck (fewer
    /// than four left: all of them); nil when the body has no rows above
    /// the torso there.
    ///
    /// Why the sides go: the neck is thin (about 10 cm), and its side
    /// pixels blend it with the scene, the more so when it is blurred. A
    /// second renderer's runner at 120 fps (skin 200, shirt 135, scene 97,
    /// 7.5 ms exposures): with them the neck's median was 171, too far from
    /// the skin (199) chosen as the torso's colour for `measureFront`'s
    /// bare-skin rule to apply, and the front was read off an arm: 5.6 ms
    /// late in photo-finish mode, 2.6 in precision (0.5 and 0.7 ms late
    /// without them). On six sets 23 crossings moved by over 0.3 ms for
    /// the better, 4 for the worse (the worst: 0.5 ms early -> 3.4 ms
    /// late); three pixels a side did about as well.
    private func neckLuma(_ torso: Torso, candidate c: Int, value: UInt8) -> Double? {
        let rows = max(2, Int(0.5 * torso.halfDepth))
        let top = torso.firstRow
        guard top - rows >= groups[torso.group].minY else { return nil }
        let left = leftFront + c * height, right = rightFront + c * height
        var minX = Double.infinity, maxX = -Double.infinity
        for y in top...min(torso.lastRow, top + Int(torso.halfDepth)) where !left[y].isNaN && !right[y].isNaN {
            minX = min(minX, left[y]); maxX = max(maxX, right[y])
        }
        guard minX < maxX else { return nil }
        let x0 = max(0, Int(minX.rounded(.down))), x1 = min(width - 1, Int(maxX.rounded(.up)))
        var n = gatherBody((top - rows)..<top, columns: x0...x1, value: value, inset: PrecisionDetector.neckInset)
        if n < 4 { n = gatherBody((top - rows)..<top, columns: x0...x1, value: value, inset: 0) }
        guard n >= 4 else { return nil }
        return Double(PrecisionDetector.select(scratch, count: n, rank: n / 2))
    }

    /// Copies to `scratch` the luma of the pixels of body `value` in `rows`
    /// and `columns` whose `inset` neighbours on each side in the row are
    /// the body's too; returns how many.
    private func gatherBody(_ rows: Range<Int>, columns: ClosedRange<Int>, value: UInt8, inset: Int) -> Int {
        let first = max(columns.lowerBound, inset), last = min(columns.upperBound, width - 1 - inset)
        guard first <= last else { return 0 }
        var n = 0
        for y in rows {
            let line = mask + y * width, pixels = current + y * width
            pixel: for x in first...last where line[x] == value && n < scratchCapacity {
                for k in stride(from: 1, through: inset, by: 1) where line[x - k] != value || line[x + k] != value {
                    continue pixel
                }
                scratch[n] = Int32(pixels[x]); n += 1
            }
        }
        return n
    }

    /// The front at `row` (`value`) with the rows that agree with it: the
    /// top of a parabola through them.
    private func parabolaTop(around row: Int, value: Double, firstRow: Int, lastRow: Int, halfDepth: Double) -> Double {
        // With the rows that agree with it, the top of a parabola through
        // them (sensor noise averages out; a round shoulder falls away from
        // its top as dy^2 / 2R, which the parabola undoes), at the best row's instant.
        var m = 0.0, sx = 0.0, su = 0.0, sxx = 0.0, sxu = 0.0
        for dy in -2...2 {
            let yy = row + dy
            guard yy >= firstRow && yy <= lastRow else { continue }
            let u = rowAligned[yy]
            if !u.isNaN && (u - value).magnitude <= 0.15 + 0.75 * Double(dy * dy) / halfDepth {
                let x = Double(dy * dy)
                m += 1; sx += x; su += u; sxx += x * x; sxu += x * u
            }
        }
        var top = su / m
        let spread = m * sxx - sx * sx
        if spread > 0 {
            // The fall-off, no steeper than the torso's own roundness and never a rise.
            let fall = min(0, max(-1 / halfDepth, (m * sxu - sx * su) / spread))
            top = (su - fall * sx) / m
        }
        return top
    }

    /// How many of the front rows (`rowAligned`) nearest to row `y` agree
    /// with its front, to within what a torso's round top allows (the
    /// fall of a cap of radius `halfDepth`, dy^2 / 2R, and a little
    /// noise). The nearest rows are the two above and the two below; on a
    /// banded front (`frontIsBanded`), the first two rows with a front on
    /// each side within four rows, passing over rows left without one but
    /// not over a limb (`rowEdge` infinite).
    private func agreeingRows(_ y: Int, firstRow: Int, lastRow: Int, halfDepth: Double, banded: Bool) -> Int {
        let v = rowAligned[y], reach = banded ? 4 : 2
        var agree = 0
        for step in stride(from: -1, through: 1, by: 2) {
            // Two places on this side: rows, or on a banded front rows with a front.
            var places = 0, dy = step
            while places < 2 && dy.magnitude <= reach {
                let yy = y + dy
                guard yy >= firstRow && yy <= lastRow, !(banded && rowEdge[yy].isInfinite) else { break }
                let n = rowAligned[yy]
                if !n.isNaN && (n - v).magnitude <= 0.15 + 0.75 * Double(dy * dy) / halfDepth { agree += 1 }
                if !banded || !n.isNaN { places += 1 }
                dy += step
            }
        }
        return agree
    }

    /// True when the torso's front rows (`rowAligned`, after the colour
    /// test) come in bands: five or more runs of rows, three rows long or
    /// less on average. A striped shirt does that: the stripes of the
    /// other colour are set apart by it (or show no edge where they are
    /// the scene's luma). With stripes two rows deep no row had two
    /// neighbours within two rows, and no front was found at all: a
    /// second renderer's striped shirt at 60 fps was missed in both modes
    /// (+4.8 ms with the bands bridged). A solid shirt under an arm has
    /// one or two long runs.
    ///
    /// On three of its hard sets (322 crossings, both modes; half the
    /// shirts striped or shaded), p95 of |error| 13.7 -> 10.5, 14.7 ->
    /// 9.8 and 5.9 -> 5.3 ms, misses 2 -> 0. On seven plain sets (solid
    /// shirts, 752 crossings) five crossings moved by over 0.3 ms, two
    /// for the better (2.8 -> 1.4 ms) and three for the worse (0.0 -> 1.7
    /// ms and 1.1 -> 2.2 ms the most): solid fronts an arm and noise
    /// break into bands. Four runs, or bands of four rows, took in more
    /// of those: ten moved, seven for the worse.
    private func frontIsBanded(firstRow: Int, lastRow: Int) -> Bool {
        var runs = 0, rows = 0
        for y in firstRow...lastRow where !rowAligned[y].isNaN {
            rows += 1
            if y == firstRow || rowAligned[y - 1].isNaN { runs += 1 }
        }
        return runs >= 5 && rows <= 3 * runs
    }

    /// True when the front rows (`rowAligned`) rise through the two rows
    /// before `y` into `y` (going `step`), and stop there: the next row has
    /// no front and, within three rows, one has an edge that is not the
    /// torso's colour (`rowEdge` set, `rowAligned` cleared: a limb).
    private func risesIntoALimb(_ y: Int, step: Int, firstRow: Int, lastRow: Int) -> Bool {
        let a = y - 2 * step, b = y - step
        guard a >= firstRow && a <= lastRow && b >= firstRow && b <= lastRow,
              !rowAligned[a].isNaN && !rowAligned[b].isNaN,
              rowAligned[a] <= rowAligned[b] && rowAligned[b] <= rowAligned[y] else { return false }
        let next = y + step
        guard next >= firstRow && next <= lastRow, rowAligned[next].isNaN else { return false }
        for k in 1...3 {
            let yy = y + k * step
            guard yy >= firstRow && yy <= lastRow else { break }
            if rowEdge[yy].isFinite && rowAligned[yy].isNaN { return true }
        }
        return false
    }

    /// The torso's silhouette in row `y` going `forward`: from `deep`, a
    /// pixel `radius` inside the opened front, to its `last` pixel; nil when
    /// the deep pixel is not the torso's or the silhouette reaches the
    /// frame's side.
    private func silhouetteRun(row y: Int, opened o: Double, radius: Double, forward: Int,
                               value: UInt8) -> (deep: Int, last: Int)? {
        let line = mask + y * width
        let deep = forward > 0 ? Int((o - radius).rounded(.down)) : Int((o + radius).rounded(.down))
        guard deep >= 1 && deep < width - 1, line[deep] == value else { return nil }
        var last = deep
        while last + forward >= 0 && last + forward < width && line[last + forward] == value { last += forward }
        guard last + forward >= 1 && last + forward < width - 1 else { return nil }
        return (deep, last)
    }

    /// True when the silhouette (ending at `last`) runs on past the opened
    /// torso's front: a limb joins the torso in that row.
    private func limbJoins(last: Int, opened o: Double, radius: Double, forward: Int) -> Bool {
        let silhouetteEdge = forward > 0 ? Double(last + 1) : Double(last)
        return (silhouetteEdge - o) * Double(forward) > max(1.5, 0.25 * radius / settings.torsoCoreFraction)
    }

    /// The torso's edge in row `y` (its silhouette `run`, no limb joining
    /// it: `limbJoins`) to a fraction of a pixel, or nil when the torso is
    /// too close to the background's luma.
    /// From a pixel of the torso just behind its (motion-blurred) edge, each
    /// pixel's coverage is its luma's place between background and torso;
    /// their sum is the edge. Also the torso's luma, and the luma of the
    /// first pixel past the silhouette (the scene beside the edge).
    /// `thirdColours`: the edge may be read against a colour between torso
    /// and scene (`thirdColour`); only where its position is used.
    private func subPixelEdge(row y: Int, run: (deep: Int, last: Int), forward: Int, value: UInt8,
                              blur: Double, thirdColours: Bool = true)
        -> (position: Double, torsoLuma: Double, sceneLuma: Double)? {
        let line = mask + y * width
        let (deep, last) = run
        // The torso's own luma: the first pixel behind the (motion-blurred)
        // edge that the next one in agrees with; none before the deep pixel:
        // an arm across the torso, a seam, no clean edge, no estimate.
        let pixels = current + y * width
        let model = background + y * width
        let g = Double(gain[y]) / 268_435_456
        let tolerance = Double(threshold[y])
        var anchor = last - forward * max(1, Int(blur.rounded(.down)))
        while (anchor - deep) * forward > 0
                && (Double(pixels[anchor - forward]) - Double(pixels[anchor])).magnitude > tolerance {
            anchor -= forward
        }
        guard (anchor - deep) * forward > 0 else { return nil }
        let torso = Double(pixels[anchor])
        let minimumContrast = max(16, 3 * tolerance)
        // A torso pixel unlike its own background (a filled hole is not torso).
        guard (torso - Double(model[anchor]) * g).magnitude >= minimumContrast else { return nil }
        var sum = 0.0
        var x = anchor + forward
        // Through the silhouette's end and one pixel past it (the faint end
        // of a blurred edge), if that one is background.
        let stop = last + forward
        while x >= 0 && x < width {
            let beyond = (x - last) * forward > 0
            if beyond && line[x] != 0 && line[x] != PrecisionDetector.hidden { break }
            let b = Double(model[x]) * g
            let contrast = torso - b
            guard contrast.magnitude >= minimumContrast else {
                if beyond { break }
                return nil
            }
            sum += min(1, max(0, (Double(pixels[x]) - b) / contrast))
            if x == stop { break }
            x += forward
        }
        // Where another colour lies between the torso and the scene, the
        // edge is the torso's against it: each pixel's coverage is its
        // place between that colour and the torso, up to it.
        if thirdColours,
           let third = thirdColour(row: y, anchor: anchor, last: last, forward: forward, torso: torso, blur: blur) {
            var covered = 0.0
            var x = anchor + forward
            while x != third.at {
                covered += min(1, max(0, (Double(pixels[x]) - third.luma) / (torso - third.luma)))
                x += forward
            }
            if sum - covered <= PrecisionDetector.thirdColourMostPixels { sum = covered }
        }
        return (forward > 0 ? Double(anchor) + 1 + sum : Double(anchor) - sum, torso, Double(pixels[last + forward]))
    }

    /// The most a third colour may move an edge back (pixels): a sliver
    /// of a limb short of joining the torso (`limbJoins`: a quarter of a
    /// half depth past the opened front, 2-3 pixels) in a luma between the
    /// torso's and the scene's moves it by about a pixel. More is no
    /// sliver: a striped shirt's band meeting the edge is the torso too,
    /// and its edge is read as before (the second renderer's striped
    /// runner at 60 fps had fronts 4.7 px behind with no bound).
    static let thirdColourMostPixels = 1.5

    /// The first of two neighbouring pixels of the silhouette past the
    /// torso's `anchor` pixel, up to its `last`, whose luma lies between
    /// the torso's and the scene's, clearly unlike both and the same in
    /// both pixels, and that luma; nil when there are none.
    ///
    /// Why: the far arm hangs behind the torso, and as it swings forward a
    /// sliver of it shows past the torso's front, too little to be a limb
    /// joining the torso. Each of its pixels lies between torso and scene
    /// in luma and was taken for one the torso covers in part: the edge
    /// up to a pixel ahead (a second renderer's leaning runner at 240 fps,
    /// bare arms between a dark shirt and the scene: fronts 0.8 px ahead
    /// at the line, 3.3 ms early; 0.3-0.5 ms with this). A blurred edge is
    /// a ramp whose neighbouring pixels differ by about the contrast over
    /// the blur, so two alike are no ramp unless the blur is long (then no
    /// test is made). Unlike the scene by as much as unlike the torso: a
    /// pixel blending the torso, a leg behind it and a post of the scene
    /// (`aSlimRunnerJoinedByTheFeetToADeeperOneIsTimed`) was taken for the
    /// third colour within two noise thresholds of the post, and the slim
    /// runner's last front went.
    ///
    /// Measured on the second renderer's eight sets, both modes: fronts
    /// within 60 ms of the line more than 0.5 px ahead of the truth 8.5%
    /// -> 8.0% (photo-finish), 8.2% -> 7.6% (precision); on the seven plain
    /// sets (762 crossings) within 1 ms 693 -> 697, over the target at
    /// 120 fps 24 -> 21 and at 240 fps 17 -> 15.
    private func thirdColour(row y: Int, anchor: Int, last: Int, forward: Int, torso: Double,
                             blur: Double) -> (luma: Double, at: Int)? {
        let pixels = current + y * width
        let model = background + y * width
        let g = Double(gain[y]) / 268_435_456
        let tolerance = Double(threshold[y])
        // Unlike: beyond twice the noise threshold, and 16 luma at least.
        let unlike = max(2 * tolerance, 16)
        var k = anchor + forward
        while (last - k) * forward > 0 {
            let p0 = Double(pixels[k]), p1 = Double(pixels[k + forward])
            let b0 = Double(model[k]) * g, b1 = Double(model[k + forward]) * g
            // A ramp's steps here would be four noise thresholds or more.
            if (torso - b0).magnitude / max(1, blur) >= 4 * tolerance, (p0 - p1).magnitude <= 2.5 * tolerance,
               (p0 - torso).magnitude > unlike, (p1 - torso).magnitude > unlike,
               (p0 - b0).magnitude > unlike, (p1 - b1).magnitude > unlike,
               (p0 - torso) * (p0 - b0) < 0 {
                return (p0, k)
            }
            k += forward
        }
        return nil
    }

    private func updateState(_ frame: LumaFrame) {
        var pending = false
        for track in tracks where track.active && track.tracker.hasPendingCrossing { pending = true }
        if pending {
            state = .postroll
        } else if lastReportedNanos != Int64.min && frame.timestampNanos - lastReportedNanos < settings.cooldownNanos {
            state = .cooldown
        } else {
            var onLine = false
            let gate = Int(gateX)
            for g in 0..<groupCount where groups[g].minX <= gate && groups[g].maxX >= gate { onLine = true }
            state = onLine && state == .waitingForClear ? .waitingForClear : .armed
        }
    }

    /// The `rank`-th smallest of `count` values (0: the smallest), left in
    /// place: the smallest v with more than `rank` values at or below it.
    /// It is searched for from `guess` outwards, in steps that double, then
    /// by bisection between the last two. Each step is a count without
    /// branches in 16-bit lanes, so a few dozen values cost far less than
    /// `select`'s partitioning, whose branches the values mispredict; a
    /// guess near the value (a row's gain is near the gain of the row
    /// measured before it) leaves few steps. `values` holds whole vectors:
    /// the lanes past `count` are set to 65535 here, which changes no
    /// count below 65535 (and at 65535 every value is counted anyway).
    static func rankValue(_ values: UnsafeMutablePointer<UInt16>, count: Int, rank: Int, near guess: Int) -> UInt16 {
        let needed = UInt16(truncatingIfNeeded: rank &+ 1)
        let vectors = (count &+ 7) >> 3
        for i in count..<(vectors << 3) { values[i] = 65535 }
        let lanes = UnsafeRawPointer(values)
        @inline(__always) func enough(_ v: Int) -> Bool {
            let bound = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: v))
            var atOrBelow = SIMD8<UInt16>()
            var k = 0
            while k < vectors {
                let lane = lanes.loadUnaligned(fromByteOffset: k &<< 4, as: SIMD8<UInt16>.self)
                // A mask's lanes are all ones (-1) where true.
                atOrBelow &-= unsafeBitCast(lane .<= bound, to: SIMD8<UInt16>.self)
                k &+= 1
            }
            return atOrBelow.wrappedSum() >= needed
        }
        // The value lies in low...high: no value is above 65535.
        var low = 0, high = 65535
        var probe = min(max(guess, 0), 65535), step = 16
        if enough(probe) {
            high = probe
            while probe > low {
                probe = max(low, probe &- step)
                if enough(probe) { high = probe; step &*= 2 } else { low = probe &+ 1; break }
            }
        } else {
            low = probe &+ 1
            while probe < high {
                probe = min(high, probe &+ step)
                if enough(probe) { high = probe; break } else { low = probe &+ 1; step &*= 2 }
            }
        }
        while low < high {
            let middle = low &+ (high &- low) >> 1
            if enough(middle) { high = middle } else { low = middle &+ 1 }
        }
        return UInt16(truncatingIfNeeded: low)
    }

    /// The `rank`-th smallest of `count` values. They are reordered so that
    /// none before `rank` is larger and none after it smaller.
    /// Every row's gain each frame calls it: index arithmetic wraps (the
    /// indices stay inside 0..<count), so no overflow checks slow it.
    static func select(_ values: UnsafeMutablePointer<Int32>, count: Int, rank: Int) -> Int32 {
        var low = 0, high = count &- 1
        while low < high {
            let pivot = values[(low &+ high) >> 1]
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i &+= 1 }
                while values[j] > pivot { j &-= 1 }
                if i <= j { let v = values[i]; values[i] = values[j]; values[j] = v; i &+= 1; j &-= 1 }
            }
            if rank <= j { high = j } else if rank >= i { low = i } else { return values[rank] }
        }
        return values[rank]
    }
}

/// What a track learnt of its torso's top from the frames that showed it,
/// for one side's front (nan: not yet), for the frames an arm or the far
/// arm hides it in.
struct LearntTop {
    /// Rows from the torso's first row down to where its straight leaning
    /// front ends, where the outline above showed (`learnLineEnd`).
    var lineEndRows = Double.nan
    /// How far the back edge near the top lies ahead of its straight lean
    /// (`backTopAhead`), averaged over the frames that measured it (weight
    /// 0.3): under 1 px a box's corner.
    var backTopAhead = Double.nan

    /// Takes one frame's `sample` into the average `value` (nan: the
    /// first), weight 0.3: one frame's rows are few.
    static func average(_ sample: Double, into value: inout Double) {
        value = value.isNaN ? sample : value + 0.3 * (sample - value)
    }
}

/// One torso followed from frame to frame, with its own front tracker.
final class PrecisionTrack {
    let tracker: FrontTracker
    private(set) var active = false
    private(set) var centroidX = 0.0
    private(set) var centroidY = 0.0
    /// The centroid's motion per frame, smoothed.
    private(set) var stepX = 0.0
    var missed = 0
    /// This frame's candidate, or -1 (`unassigned` until the tracks are matched).
    var matched = -1
    static let unassigned = -2
    /// Frames it has moved through.
    private(set) var moves = 0
    /// The torso half depth when last seen.
    private(set) var halfDepth = 0.0

    /// Both sides' fronts of the last frames (before this one).
    struct Remembered {
        var right = Double.nan, rightNanos: Int64 = 0
        var left = Double.nan, leftNanos: Int64 = 0
        var frameNanos: Int64 = 0
        var sequence: UInt32 = 0
        var occupancy = 0.0
    }
    /// A ring: the frames are remembered every frame, so none is moved.
    private let backlog: UnsafeMutablePointer<Remembered>
    private let backlogCapacity: Int
    private var oldest = 0
    private(set) var remembered = 0

    /// The crossing from the torso's centre where its fronts give none.
    let centre: CentreCrossing

    init(tracker: FrontTracker) {
        self.tracker = tracker
        centre = CentreCrossing(capacity: PrecisionTrack.centreCapacity, workWidth: tracker.workWidth)
        backlogCapacity = tracker.settings.fitSamples
        backlog = .allocate(capacity: backlogCapacity)
        backlog.initialize(repeating: Remembered(), count: backlogCapacity)
    }

    deinit { backlog.deallocate() }

    /// Frames of centres kept: `CentreCrossing`'s half second at 240 fps and more.
    static let centreCapacity = 160

    /// The `k`-th oldest of the frames remembered.
    func rememberedFrame(_ k: Int) -> Remembered { backlog[(oldest + k) % backlogCapacity] }

    /// Keeps the last `backlogCapacity` frames' fronts (the oldest is overwritten).
    func remember(right: Double, rightNanos: Int64, left: Double, leftNanos: Int64, frame: LumaFrame, occupancy: Double) {
        if remembered == backlogCapacity {
            oldest = (oldest + 1) % backlogCapacity
            remembered -= 1
        }
        backlog[(oldest + remembered) % backlogCapacity] = Remembered(
            right: right, rightNanos: rightNanos, left: left, leftNanos: leftNanos,
            frameNanos: frame.timestampNanos, sequence: frame.sequence, occupancy: occupancy)
        remembered += 1
    }

    /// Where the direction was last settled, and which way it is.
    private var anchorX = 0.0
    private(set) var settled: CrossingDirection?

    /// What the track learnt of its torso's top, for each side's front.
    var topRight = LearntTop()
    var topLeft = LearntTop()

    func start(centroidX: Double, centroidY: Double, rows: ClosedRange<Int>) {
        self.rows = rows
        topRight = LearntTop()
        topLeft = LearntTop()
        tracker.reset()
        centre.reset()
        active = true
        self.centroidX = centroidX
        self.centroidY = centroidY
        anchorX = centroidX
        settled = nil
        remembered = 0
        oldest = 0
        stepX = 0
        missed = 0
        moves = 0
        halfDepth = 0
    }

    /// The rows of the torso when last seen.
    private(set) var rows = 0...0

    /// True when `other` begins within three half depths of where the
    /// torso's last rows began (its top stays: not a leg below it) and
    /// shares at least half of the shorter of them: the same torso, whose
    /// centroid moved because its legs joined or left it, not another one.
    func sharesRows(_ other: ClosedRange<Int>) -> Bool {
        guard Double(abs(other.lowerBound - rows.lowerBound)) <= 3 * halfDepth else { return false }
        let shared = min(other.upperBound, rows.upperBound) - max(other.lowerBound, rows.lowerBound) + 1
        return 2 * shared >= min(other.count, rows.count)
    }

    func move(toX x: Double, y: Double, halfDepth: Double, rows: ClosedRange<Int>) {
        // The torso's top or bottom moved by more than its half depth: legs
        // joined it or left it, and its centroid jumped with its shape, up
        // to its half depth back or forth. That jump is no motion of the
        // runner: the anchor of the direction moves with it, so a slow
        // runner's torso (a standing start at 240 fps moves a pixel a frame)
        // is not taken to turn each time their legs join it, forgetting its
        // fronts at the line. Measured on the second renderer's plain and
        // hard sets (206 crossings, both modes): misses 5 -> 1, within 5 ms
        // 176 -> 179; one runner whose fronts are sparse anyway went from
        // 5 to 19 ms late.
        //
        // So does a jump of the centroid off the track's own steps by more
        // than the half depth, with the same rows: an arm or a camouflaged
        // part of the torso joins it or leaves it. A runner who turns slows
        // down first, step by step, and never jumps. Measured: a leaning
        // runner at 240 fps whose near arm lay along the front for 20 frames
        // at the line; the centroid jumped 18 px ahead and, six frames
        // later, 15 px back, which was taken for a turn: the fronts were
        // forgotten and the runner missed. (Only once the track knows its
        // step: a young track's first steps are its speed.)
        let expectedX = centroidX + Double(missed + 1) * stepX
        let depth = max(halfDepth, self.halfDepth)
        let rowsMoved = Double(max(abs(rows.lowerBound - self.rows.lowerBound), abs(rows.upperBound - self.rows.upperBound)))
        if (moves > 0 && rowsMoved > depth) || (moves >= 2 && (x - expectedX).magnitude > depth) {
            anchorX += x - expectedX
        }
        self.halfDepth = halfDepth
        self.rows = rows
        let step = (x - centroidX) / Double(missed + 1)
        stepX = moves == 0 ? step : 0.5 * stepX + 0.5 * step
        if moves > 0 || step != 0 { moves += 1 }
        centroidX = x
        centroidY = y
        missed = 0
    }

    /// The direction of travel once the torso has moved half its half depth
    /// (a torso's centroid jitters by a pixel or two as limbs cross it); it
    /// turns only after a full half depth the other way.
    func direction(halfDepth: Double) -> CrossingDirection? {
        let moved = centroidX - anchorX
        let needed = settled == nil ? max(2, 0.5 * halfDepth) : max(3, halfDepth)
        if moved >= needed {
            settle(.leftToRight)
            anchorX = centroidX
        } else if moved <= -needed {
            settle(.rightToLeft)
            anchorX = centroidX
        } else if let settled, (settled == .leftToRight ? moved > 0 : moved < 0) {
            // Keep the anchor at the farthest point along the settled direction.
            anchorX = centroidX
        }
        return settled
    }

    /// Settles the direction; a turn forgets the fronts: they were the other
    /// side's edge. A crossing still waiting for its postroll is timed
    /// first, with what it has (`timedOnTurn`, reported by the detector): a
    /// torso leaving the view is cut by its edge, its centre drawn back,
    /// and that looks like a turn. Dropped, the crossing of a flying runner
    /// at 240 fps (GateSim's corpus) who reached the edge within the
    /// postroll's 0.15 s was timed from the centre instead, 3.7 ms late.
    private func settle(_ direction: CrossingDirection) {
        guard settled != direction else { return }
        if settled != nil {
            timedOnTurn = tracker.flushPending()
            tracker.forgetFronts()
        }
        settled = direction
    }

    /// The crossing the last turn timed (`settle`), until the detector takes it.
    var timedOnTurn: DetectedCrossing?

    func end() {
        active = false
        tracker.reset()
        centre.reset()
        timedOnTurn = nil
    }
}

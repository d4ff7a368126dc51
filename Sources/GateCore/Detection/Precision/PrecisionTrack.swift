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

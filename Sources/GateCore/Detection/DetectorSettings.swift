/// Tuning of the detectors. Defaults follow the reference detector
/// (../shared/notes/product.md) where it has one; names say the unit.
public struct DetectorSettings: Equatable {
    /// The gate line as a fraction of the frame width, 0...1.
    public var gatePosition = 0.5
    /// Sensor readout time, top row to bottom row (rolling shutter).
    public var readoutNanos: Int64 = 0
    /// Exposure time of one row.
    public var exposureNanos: Int64 = 0
    /// Photo-finish: frames after the first that refine the background and
    /// give each row's noise before anything is timed.
    public var warmupFrames = 10
    /// A person's silhouette spans at least this fraction of the frame height
    /// (12 torso half depths when legs or head match the background).
    public var minBlobHeightFraction = 0.33
    /// Capacity of a track's history of fronts (the detectors size it from
    /// the samples their fits use).
    public var fitSamples = 6
    /// Slowest torso front a track times, work pixels per second (the
    /// detectors set it from `precisionMinSpeedWidthsPerSecond`).
    public var minVelocityPixelsPerSecond = 60.0
    /// No second crossing within this time of a crossing.
    public var cooldownNanos: Int64 = 300_000_000
    /// After a crossing, the gate rearms once the body is this fraction of the width away, or gone.
    public var rearmDistanceFraction = 0.25

    // MARK: The silhouette and the torso (both modes)

    /// Width of the analysis image: a torso must be many pixels deep to be
    /// told from a head or an arm.
    public var precisionWorkWidth = 320
    /// Frames of the empty scene the background is learnt from (their per-pixel median).
    public var calibrationFrames = 30
    /// ... spread over at least this long, so a runner passing during calibration is outvoted.
    public var calibrationSpanNanos: Int64 = 500_000_000
    /// The background is then computed from them over the frames of about
    /// this long, a share each (tens of milliseconds of work in one frame
    /// would stall the loop).
    public var calibrationFinishNanos: Int64 = 250_000_000
    /// Time constant of the background's slow update where the scene is empty.
    public var backgroundTimeConstantNanos: Int64 = 2_000_000_000
    /// Foreground that stays unchanged this long becomes background (a bag put
    /// down, the scene after the camera moved, where an athlete stood at the start).
    public var absorbStillNanos: Int64 = 500_000_000
    /// ... and is no body from this long on (a torso front moving at the
    /// slowest timed speed changes its pixels far sooner): the scene where a
    /// runner stood while the background was learnt (a ghost of them) does
    /// not join the runner leaving it.
    public var hideStillNanos: Int64 = 120_000_000
    /// The torso is the body's thickest part: the silhouette's inscribed discs
    /// of at least this fraction of the torso's half depth. Above the head's
    /// share (a head is ~0.22 m deep, a torso ~0.3 m) and an arm's. A slim
    /// torso can be shallower than the head: the head is then told by
    /// where it is (see `PrecisionDetector.dropHead`).
    public var torsoCoreFraction = 0.8
    /// ... along a spine at least this many torso half depths long (a torso
    /// is ~0.5 m from hip to shoulder; where a limb joins it makes only a bump).
    public var torsoSpineHalfDepths = 1.2
    /// Front samples before the one at or past the line, and after it, in the sub-frame fit.
    public var precisionSamplesBefore = 4
    public var precisionPostroll = 3
    /// ... and every sample of this long before the line, up to
    /// `precisionMaxSamplesBefore` (150 ms at 240 fps: at 120 and 240 fps
    /// four samples are a few milliseconds, and a limb or a shadow across
    /// the front for a few frames would be most of them) ...
    public var precisionFitSpanNanos: Int64 = 150_000_000
    public var precisionMaxSamplesBefore = 36
    /// ... and as long after it: every sample of this long from the first
    /// at or past the line, up to `precisionMaxPostroll` (150 ms at 240
    /// fps). A limb across the front lasts as long at any frame rate; three
    /// samples past the line, 12 ms at 240 fps, were often all of it.
    public var precisionPostrollNanos: Int64 = 150_000_000
    public var precisionMaxPostroll = 36
    /// Slowest torso front timed, in frame widths per second.
    public var precisionMinSpeedWidthsPerSecond = 0.1

    public init() {}
}

/// One crossing found by a detector, in the detector's time base.
public struct DetectedCrossing: Equatable {
    /// The instant the torso front reached the gate line (mid-exposure, rolling shutter corrected).
    public var timeNanos: Int64
    /// Sequence number of the frame whose timestamp is nearest the crossing
    /// (seed 002's crossing_event: a phone finds the frame from it).
    public var frameIndex: UInt32
    /// timeNanos minus that frame's timestamp, in milliseconds: within half a
    /// frame (negative: the crossing came before the frame's instant).
    public var interpolationOffsetMs: Double
    public var direction: CrossingDirection
    /// Speed of the torso front across the image, work pixels per second (signed: + is left to right).
    public var velocityWorkPixelsPerSecond: Double
    /// Speed in frame widths per second, which a scale turns into metres per second.
    public var velocityWidthsPerSecond: Double
    /// One-sigma timing uncertainty of this crossing.
    public var uncertaintyMs: Double
    /// Fraction of the frame height filled by moving pixels of the body at the trigger.
    public var occupancyAtTrigger: Double
}

extension DetectedCrossing {
    /// Counts `frameIndex` and `interpolationOffsetMs` from the frame nearest
    /// the crossing, given one frame (`sequence` stamped `stampNanos`) and the
    /// frame interval. The detectors find a crossing a postroll after the
    /// frame that showed it (tens of milliseconds); the seed's fields name
    /// the frame of the instant itself. Left as it is without an interval.
    public mutating func referToNearestFrame(sequence: UInt32, stampNanos: Int64, intervalNanos: Int64) {
        guard intervalNanos > 0, stampNanos != Int64.min else { return }
        let frames = Int64((Double(timeNanos - stampNanos) / Double(intervalNanos)).rounded())
        let index = Int64(sequence) + frames
        guard index >= 0 && index <= Int64(UInt32.max) else { return }
        frameIndex = UInt32(index)
        interpolationOffsetMs = Double(timeNanos - stampNanos - frames * intervalNanos) / 1e6
    }
}

/// Photos of every crossing on the box (seed 000 sections 9.8, 12.3-12.4,
/// 17): whether they are taken, how many frames around the crossing frame
/// are kept for scrubbing, and how much of the card they may fill.
public struct PhotoSettings: Equatable, Sendable {
    /// `photos = on|off`.
    public var enabled = true
    /// Scrub frames kept before and after the crossing frame (`photos.frames_before`, `photos.frames_after`).
    public var framesBefore = 2
    public var framesAfter = 2
    /// The most all photos in the data directory may take (`photos.max_mb`):
    /// 512 MB is about a thousand crossings at 640x480, a few percent of a
    /// 16 GB card.
    public var maxMegabytes = 512
    /// Left free on the card whatever the cap: the results need the room.
    public static let reserveBytes: Int64 = 64 << 20
    /// Most scrub frames on either side.
    public static let maximumScrubFrames = 10

    public init() {}

    public var maxBytes: Int64 { Int64(maxMegabytes) << 20 }

    /// The scrub offsets, crossing frame first, then before and after:
    /// 0, -before ... -1, 1 ... after.
    public var offsets: [Int] {
        [0] + Array(-framesBefore..<0) + Array(1..<(framesAfter + 1))
    }

    /// Frames a ring must hold to give the crossing frame and those before
    /// it when the detector reports the crossing, `reportDelayFrames` later.
    public func ringFrames(_ settings: DetectorSettings, fps: Double) -> Int {
        PhotoSettings.reportDelayFrames(settings, fps: fps) + framesBefore + 1
    }

    /// How many frames after the crossing frame the detector may report it.
    /// Both modes run one engine (`PrecisionDetector`, whose `FrontTracker`
    /// fits a crossing from `precisionSamplesBefore` fronts and more before
    /// the line, the first at or past it, and a postroll after it) and
    /// report when the postroll has come in: `precisionPostroll` samples and
    /// those of `precisionPostrollNanos` (at `fps`, up to
    /// `precisionMaxPostroll`). The crossing lies between the last sample
    /// before the line and the first at or past it, in the last postroll +
    /// 2 frames when every frame gives a sample. `precisionSamplesBefore +
    /// 1` more cover a crossing found in the fronts replayed once a track's
    /// direction is clear; 4 more frames cover frames without a sample (a
    /// limb across the torso: a track outlives at least 2 in a row). At 30
    /// fps 14 frames, at 120 fps 27, at 240 fps 45.
    public static func reportDelayFrames(_ settings: DetectorSettings, fps: Double) -> Int {
        let postrollFrames = Int((Double(settings.precisionPostrollNanos) / 1e9 * fps).rounded(.up))
        let postroll = max(settings.precisionPostroll, min(settings.precisionMaxPostroll, postrollFrames))
        return settings.precisionSamplesBefore + 1 + postroll + 4
    }
}

/// The photo-finish detector, the default mode: ready within
/// `warmupFrames` frames of power-on, with no calibration of the empty scene.
///
/// Why it cuts silhouettes rather than timing moving edges: frame
/// differencing sees only the edges that moved, and the slanted front of a
/// leaning torso cannot be told from a forearm raised ahead of it (tens of
/// milliseconds on leaning and accelerating runners). So it times the torso
/// exactly as precision mode does (`PrecisionDetector`: the silhouette, the
/// torso as its thickest part, the front at the shoulder, the sub-frame fit);
/// only the background is learnt differently: the first frame is the
/// background at once, the next frames refine it and give each row's noise,
/// and from then on it learns where the scene is empty and absorbs what
/// stops moving (`SceneLearning.firstFrames`).
///
/// Every buffer is allocated in `init`; `process` allocates nothing.
public final class PhotoFinishDetector {
    private let engine: PrecisionDetector
    public var settings: DetectorSettings { engine.settings }
    public var image: WorkImage { engine.image }
    public var workWidth: Int { engine.workWidth }
    public var workHeight: Int { engine.workHeight }

    public init(width: Int, height: Int, settings: DetectorSettings = DetectorSettings()) {
        engine = PrecisionDetector(width: width, height: height, settings: settings, learning: .firstFrames)
    }

    /// Forgets the scene (after the camera moved): warm-up starts again.
    public func reset() { engine.reset() }

    /// True once the first frames have given the background and the noise.
    public var isWarm: Bool { engine.isCalibrated }

    /// The silhouette threshold of work row `y` (luma), learnt during warm-up.
    public func noiseThreshold(row y: Int) -> Int { Int(engine.threshold[y]) }

    /// The last torso front measured (work columns), its exposure instant and
    /// the torso's half depth, for tests and tuning (see `PrecisionDetector`).
    public var lastFront: Double { engine.lastFront }
    public var lastFrontNanos: Int64 { engine.lastFrontNanos }
    public var lastHalfDepth: Double { engine.lastHalfDepth }

    /// Feeds one frame; returns a crossing when the torso front passed the gate line.
    public func process(_ frame: LumaFrame) -> DetectedCrossing? { engine.process(frame) }

    /// The end of the frames: the crossings the tracks still wait for (`PrecisionDetector.finish`).
    public func finish(_ deliver: (DetectedCrossing) -> Void) { engine.finish(deliver) }
}

/// The planes of the work image that every stage of `PrecisionDetector`
/// reads: this frame and the last, the learnt empty scene with each row's
/// gain and noise threshold, and the silhouette mask that the silhouette
/// stage cuts and the body stage labels. Allocated once; the stages hold
/// this object, not copies, so a swap of frames or gains is seen by all.
final class WorkPlanes {
    let image: WorkImage
    let width: Int
    let height: Int
    let pixelCount: Int
    /// The rolling shutter's readout, for `rowNanos`.
    let readoutNanos: Int64

    /// This frame's work image, and the last frame's (swapped each frame).
    private(set) var current: UnsafeMutablePointer<UInt8>
    private(set) var previous: UnsafeMutablePointer<UInt8>
    /// The empty scene, luma x 65536.
    let background: UnsafeMutablePointer<Int32>
    /// The same as luma x 256 (clamped to 16 bits), for the silhouette
    /// test's 16-bit lanes; written wherever `background` is.
    let background16: UnsafeMutablePointer<UInt16>
    /// Per-row silhouette threshold, luma.
    let threshold: UnsafeMutablePointer<Int32>
    /// This frame's gain of each row against the background, x 4096.
    private(set) var gain: UnsafeMutablePointer<Int32>
    /// The previous frame's, so that whether a pixel changed is asked of
    /// the scene, not of the light (mains flicker changes every pixel).
    private(set) var previousGain: UnsafeMutablePointer<Int32>
    /// 0 background, 1 silhouette, 2 + g the pixels of body g, `hidden`
    /// silhouette unchanged for `hideStillNanos`.
    let mask: UnsafeMutablePointer<UInt8>
    /// Per row, the first and last column of the silhouette `segment` cut
    /// (first > last: none), so that labelling skips what is empty, and
    /// whether it hid any (rows without are skipped by `reclaimHidden`).
    let silhouetteSpans: UnsafeMutablePointer<ColumnSpan>
    /// Working values for one step at a time (medians, gap ends, a neck's
    /// pixels); nothing holds them from one step to the next.
    let scratch: UnsafeMutablePointer<Int32>
    let scratchCapacity: Int

    init(image: WorkImage, readoutNanos: Int64, scratchCapacity: Int) {
        self.image = image
        width = image.width
        height = image.height
        pixelCount = image.pixelCount
        self.readoutNanos = readoutNanos
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
        mask = .allocate(capacity: pixelCount)
        mask.initialize(repeating: 0, count: pixelCount)
        silhouetteSpans = .allocate(capacity: image.height)
        silhouetteSpans.initialize(repeating: ColumnSpan(first: 0, last: Int32(image.width - 1), hidden: true),
                                   count: image.height)
        self.scratchCapacity = scratchCapacity
        scratch = .allocate(capacity: scratchCapacity)
    }

    deinit {
        current.deallocate(); previous.deallocate(); background.deallocate(); background16.deallocate()
        threshold.deallocate(); gain.deallocate(); previousGain.deallocate(); mask.deallocate()
        silhouetteSpans.deallocate(); scratch.deallocate()
    }

    /// This frame becomes the last one (its buffer is the next frame's).
    func swapFrames() { swap(&current, &previous) }

    /// This frame's row gains become the previous frame's.
    func swapGains() { swap(&gain, &previousGain) }

    /// The exposure instant of work row `y` (rolling shutter: source row r is
    /// exposed readout x r / H after the top row).
    @inline(__always)
    func rowNanos(_ y: Int, frame: LumaFrame) -> Int64 {
        let f = image.factor
        let sourceRow = Double(y * f) + Double(f - 1) / 2
        return frame.timestampNanos + Int64((Double(readoutNanos) * sourceRow / Double(image.sourceHeight)).rounded())
    }
}

/// A stage that reads the work planes: their names, as the stage's code
/// uses them, without a copy of each pointer in every stage.
protocol ReadsWorkPlanes: AnyObject {
    var planes: WorkPlanes { get }
}

extension ReadsWorkPlanes {
    var width: Int { planes.width }
    var height: Int { planes.height }
    var pixelCount: Int { planes.pixelCount }
    var current: UnsafeMutablePointer<UInt8> { planes.current }
    var previous: UnsafeMutablePointer<UInt8> { planes.previous }
    var background: UnsafeMutablePointer<Int32> { planes.background }
    var background16: UnsafeMutablePointer<UInt16> { planes.background16 }
    var threshold: UnsafeMutablePointer<Int32> { planes.threshold }
    var gain: UnsafeMutablePointer<Int32> { planes.gain }
    var previousGain: UnsafeMutablePointer<Int32> { planes.previousGain }
    var mask: UnsafeMutablePointer<UInt8> { planes.mask }
    var silhouetteSpans: UnsafeMutablePointer<ColumnSpan> { planes.silhouetteSpans }
    var scratch: UnsafeMutablePointer<Int32> { planes.scratch }
    var scratchCapacity: Int { planes.scratchCapacity }
    @inline(__always)
    func rowNanos(_ y: Int, frame: LumaFrame) -> Int64 { planes.rowNanos(y, frame: frame) }
}

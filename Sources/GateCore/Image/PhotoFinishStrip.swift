/// Photo-finish strips, as a line-scan camera at the gate would show them:
/// the gate column of each frame side by side, time running left to right,
/// one column per frame, around each crossing.
///
/// The gate columns of recent frames wait in a ring preallocated for one
/// window, so memory stays bounded however long the clip; `record` copies
/// one column and allocates nothing. A strip is drawn once the frames after
/// its crossing have arrived (or the clip has ended).
public final class PhotoFinishStrip {
    public let frameHeight: Int
    public let gateColumn: Int
    public let frameRate: FrameRate
    /// Frames each side of the frame nearest the crossing.
    public let halfWindowFrames: Int
    /// Each frame's column is drawn this many pixels wide, each row this many tall.
    public let columnScale: Int
    public let rowScale: Int

    private let capacity: Int
    private let columns: UnsafeMutablePointer<UInt8>
    /// The frame index held in each slot, -1 for none.
    private let slotFrames: UnsafeMutablePointer<Int>
    private var lastFrame = -1
    private var pending: [(label: Int, crossingNanos: Int64, centreFrame: Int)] = []

    /// Longest half window, in frames, whatever the frame rate: bounds the ring.
    public static let maximumHalfWindowFrames = 1000

    public init(width: Int, height: Int, gatePosition: Double, frameRate: FrameRate,
                halfWindowNanos: Int64 = 250_000_000) {
        frameHeight = height
        gateColumn = CrossingPictures.gateColumn(width: width, gatePosition: gatePosition)
        self.frameRate = frameRate
        let half = Int((Double(halfWindowNanos) / frameRate.frameNanos).rounded())
        halfWindowFrames = max(1, min(PhotoFinishStrip.maximumHalfWindowFrames, half))
        capacity = 2 * halfWindowFrames + 1
        // As tall as the frame picture and about as wide, so the two read as a pair.
        rowScale = CrossingPictures.scale(forWidth: width)
        columnScale = max(1, width * rowScale / capacity)
        columns = .allocate(capacity: capacity * height)
        columns.initialize(repeating: 0, count: capacity * height)
        slotFrames = .allocate(capacity: capacity)
        slotFrames.initialize(repeating: -1, count: capacity)
        pending.reserveCapacity(4)
    }

    deinit {
        columns.deallocate()
        slotFrames.deallocate()
    }

    /// Keeps the gate column of frame `index` (frames come in order).
    public func record(_ frame: LumaFrame, index: Int) {
        precondition(frame.height == frameHeight, "frame size changed")
        let slot = index % capacity
        let target = columns + slot * frameHeight
        for y in 0..<frameHeight { target[y] = frame.luma(x: gateColumn, y: y) }
        slotFrames[slot] = index
        lastFrame = index
    }

    /// Asks for a strip around `crossingNanos`; `label` comes back with it.
    public func schedule(crossingNanos: Int64, label: Int) {
        pending.append((label: label, crossingNanos: crossingNanos,
                        centreFrame: frameRate.nearestFrame(atNanos: crossingNanos)))
    }

    /// A strip whose frames have all been recorded, if one is waiting.
    public func nextCompleteStrip() -> (label: Int, image: GreyImage)? {
        guard let i = pending.firstIndex(where: { $0.centreFrame + halfWindowFrames <= lastFrame }) else { return nil }
        let strip = pending.remove(at: i)
        return (strip.label, render(crossingNanos: strip.crossingNanos, centreFrame: strip.centreFrame))
    }

    /// After the last frame: a strip still waiting, its missing frames black.
    public func nextUnfinishedStrip() -> (label: Int, image: GreyImage)? {
        guard !pending.isEmpty else { return nil }
        let strip = pending.removeFirst()
        return (strip.label, render(crossingNanos: strip.crossingNanos, centreFrame: strip.centreFrame))
    }

    private func render(crossingNanos: Int64, centreFrame: Int) -> GreyImage {
        let count = capacity
        let first = centreFrame - halfWindowFrames
        var image = GreyImage(width: count * columnScale, height: frameHeight * rowScale)
        for k in 0..<count {
            let frame = first + k
            guard frame >= 0, slotFrames[frame % capacity] == frame else { continue }
            let column = columns + (frame % capacity) * frameHeight
            for y in 0..<image.height {
                let value = column[y / rowScale]
                let row = y * image.width + k * columnScale
                for dx in 0..<columnScale { image.pixels[row + dx] = value }
            }
        }
        // Column k is centred on its frame's stamp: the crossing falls between columns.
        let centreNanos = frameRate.timestampNanos(frame: centreFrame)
        let position = Double(halfWindowFrames) + Double(crossingNanos - centreNanos) / frameRate.frameNanos
        func x(_ framePosition: Double) -> Int { Int(((framePosition + 0.5) * Double(columnScale)).rounded(.down)) }
        let tick = max(6, image.height / 16)
        image.drawTick(x: x(position), rows: 0..<tick)
        image.drawTick(x: x(position), rows: (image.height - tick)..<image.height)
        // Shorter ticks every 0.1 s from the crossing, along the bottom.
        let tenth = 100_000_000 / frameRate.frameNanos
        for k in [-2.0, -1.0, 1.0, 2.0] {
            let at = x(position + k * tenth)
            if at > 0 && at < image.width - 1 { image.drawTick(x: at, rows: (image.height - tick / 2)..<image.height) }
        }
        return image
    }
}

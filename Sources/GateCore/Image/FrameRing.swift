/// The luma of the last `capacity` frames, copied out of the camera's
/// buffers so that those go back to the camera at once: the pictures of a
/// crossing are taken from here after the detector reports it, frames
/// after the torso reached the line.
///
/// All memory is allocated in `init`; `record` copies one frame over the
/// oldest and allocates nothing.
public final class FrameRing {
    public let width: Int
    public let height: Int
    public let capacity: Int
    /// `capacity` luma planes, `width` x `height` each, tightly packed.
    private let planes: UnsafeMutablePointer<UInt8>
    /// The frame index held in each slot (-1 for none), and its stamp.
    private let slotFrames: UnsafeMutablePointer<Int>
    private let slotNanos: UnsafeMutablePointer<Int64>
    /// The index of the last frame recorded, -1 before the first.
    public private(set) var lastFrame = -1

    public init(width: Int, height: Int, capacity: Int) {
        precondition(width > 0 && height > 0 && capacity > 0, "ring size")
        self.width = width
        self.height = height
        self.capacity = capacity
        planes = .allocate(capacity: capacity * width * height)
        planes.initialize(repeating: 0, count: capacity * width * height)
        slotFrames = .allocate(capacity: capacity)
        slotFrames.initialize(repeating: -1, count: capacity)
        slotNanos = .allocate(capacity: capacity)
        slotNanos.initialize(repeating: 0, count: capacity)
    }

    deinit {
        planes.deallocate()
        slotFrames.deallocate()
        slotNanos.deallocate()
    }

    public var bytes: Int { capacity * width * height }

    /// Keeps frame `index` (indices increase) over the oldest one.
    public func record(_ frame: LumaFrame, index: Int) {
        precondition(frame.width == width && frame.height == height, "frame size changed")
        let slot = index % capacity
        let target = planes + slot * width * height
        for y in 0..<height {
            let row = target + y * width
            let source = frame.pixels + y * frame.rowStride
            if frame.pixelStride == 1 {
                // Raw bytes, so that Embedded -Osize makes it one memcpy
                // (a typed `update` was copied byte by byte there).
                UnsafeMutableRawPointer(row).copyMemory(from: source, byteCount: width)
            } else {
                for x in 0..<width { row[x] = source[x &* frame.pixelStride] }
            }
        }
        slotFrames[slot] = index
        slotNanos[slot] = frame.timestampNanos
        lastFrame = index
    }

    /// Whether frame `index` is still held.
    public func holds(_ index: Int) -> Bool {
        index >= 0 && slotFrames[index % capacity] == index
    }

    /// Frame `index`'s luma, tightly packed; it must be held.
    public func plane(_ index: Int) -> UnsafePointer<UInt8> {
        precondition(holds(index), "frame no longer in the ring")
        return UnsafePointer(planes + (index % capacity) * width * height)
    }

    public func stampNanos(_ index: Int) -> Int64 {
        precondition(holds(index), "frame no longer in the ring")
        return slotNanos[index % capacity]
    }

    /// The held frame whose stamp is nearest `nanos` (the later of two as
    /// near); the oldest held for an instant before it. nil when empty.
    public func nearestFrame(toNanos nanos: Int64) -> Int? {
        guard lastFrame >= 0 else { return nil }
        var best: Int?
        var bestDistance = UInt64.max
        for index in max(0, lastFrame - capacity + 1)...lastFrame where holds(index) {
            let distance = (slotNanos[index % capacity] - nanos).magnitude
            if distance <= bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}

import GateCore
import GateDevices

/// A camera at a fixed frame rate on the virtual clock. Like a V4L2 mmap
/// queue it cycles a few buffers allocated once; a frame is rendered into the
/// next buffer when its last row has been read out, and stamped in the
/// detector's time base (mid-exposure of the top row).
public struct SimulatedCamera: FrameSource {
    public let format: FrameFormat
    public private(set) var droppedFrames = 0
    private let renderer: SceneRenderer
    private let clock: VirtualClock
    private let buffers: UnsafeMutablePointer<UInt8>
    private let bufferCount = 4
    private var nextFrame: UInt64 = 0
    private var lastBuffer = -1
    private let firstTopRowNanos: Int64

    public init(renderer: SceneRenderer, fps: Int, clock: VirtualClock) {
        let camera = renderer.camera
        format = FrameFormat(width: camera.width, height: camera.height, fps: fps,
                             readoutNanos: camera.readoutNanos, exposureNanos: camera.exposureNanos)
        self.renderer = renderer
        self.clock = clock
        buffers = .allocate(capacity: bufferCount * camera.width * camera.height)
        firstTopRowNanos = clock.nowNanos + camera.exposureNanos / 2
    }

    /// Frees the buffers (the loop owns the camera and calls this when it stops).
    public func release() { buffers.deallocate() }

    func topRowNanos(_ frame: UInt64) -> Int64 {
        firstTopRowNanos + Int64(frame) * 1_000_000_000 / Int64(format.fps)
    }

    /// When the next frame can be dequeued: its bottom row is read out and exposed.
    public var nextReadyNanos: Int64 {
        topRowNanos(nextFrame) + format.readoutNanos + format.exposureNanos / 2
    }

    public mutating func dequeue() throws(GateError) -> LumaFrame? {
        guard clock.nowNanos >= nextReadyNanos else { return nil }
        let index = Int(nextFrame % UInt64(bufferCount))
        let pixels = buffers + index * format.width * format.height
        let stamp = topRowNanos(nextFrame)
        renderer.render(topRowNanos: stamp, frameIndex: nextFrame, into: pixels)
        let frame = LumaFrame(pixels: pixels, width: format.width, height: format.height, rowStride: format.width,
                              pixelStride: 1, timestampNanos: stamp, sequence: UInt32(truncatingIfNeeded: nextFrame))
        lastBuffer = index
        nextFrame += 1
        return frame
    }

    public mutating func requeue() throws(GateError) {
        lastBuffer = -1
    }
}

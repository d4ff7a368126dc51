import GateCore

/// Room for one crossing's photos while they wait to be written: the frames
/// around the crossing frame, copied out of the ring (so the ring can move
/// on) into memory allocated once, before the loop; then the strip.
final class PhotoSlot {
    enum FrameState: Equatable {
        /// Not come yet (a frame after the crossing frame).
        case waiting
        case staged
        /// Gone from the ring before the crossing was reported, or never came.
        case missing
    }

    let offsets: [Int]
    let framesBefore: Int
    let planeBytes: Int
    /// One plane per offset, in `offsets`' order.
    private let planes: UnsafeMutablePointer<UInt8>
    private(set) var states: [FrameState]
    private(set) var busy = false
    private(set) var runId = ""
    private(set) var lap = 0
    /// The crossing frame's index in the ring.
    private(set) var crossingFrame = 0
    /// Which crossing this is (the strip's label).
    private(set) var sequence = 0
    var strip: GreyImage?
    /// The next picture to write: an index into `offsets`, then the strip.
    var next = 0

    init(settings: PhotoSettings, planeBytes: Int) {
        offsets = settings.offsets
        framesBefore = settings.framesBefore
        self.planeBytes = planeBytes
        planes = .allocate(capacity: offsets.count * planeBytes)
        planes.initialize(repeating: 0, count: offsets.count * planeBytes)
        states = [FrameState](repeating: .missing, count: offsets.count)
    }

    deinit { planes.deallocate() }

    /// Takes crossing `sequence`, at ring frame `crossingFrame`, and copies
    /// from `ring` what it holds of the frames around it.
    func start(runId: String, lap: Int, crossingFrame: Int, sequence: Int, ring: FrameRing) {
        busy = true
        self.runId = runId
        self.lap = lap
        self.crossingFrame = crossingFrame
        self.sequence = sequence
        strip = nil
        next = 0
        for i in 0..<offsets.count {
            let index = crossingFrame + offsets[i]
            states[i] = index > ring.lastFrame ? .waiting : .missing
            if ring.holds(index) { stage(i, from: ring, index: index) }
        }
    }

    /// Frame `index` has just been recorded in `ring`: kept if this crossing wants it.
    func frameRecorded(_ index: Int, ring: FrameRing) {
        let offset = index - crossingFrame
        guard busy, offset != 0, offset >= -framesBefore, offset <= offsets.count - 1 - framesBefore else { return }
        let i = offset < 0 ? framesBefore + offset + 1 : framesBefore + offset
        if states[i] == .waiting { stage(i, from: ring, index: index) }
    }

    /// The session ends: frames not come yet never will.
    func giveUpWaiting() {
        for i in 0..<states.count where states[i] == .waiting { states[i] = .missing }
    }

    func plane(_ i: Int) -> UnsafePointer<UInt8> { UnsafePointer(planes + i * planeBytes) }

    func release() {
        busy = false
        strip = nil
    }

    private func stage(_ i: Int, from ring: FrameRing, index: Int) {
        UnsafeMutableRawPointer(planes + i * planeBytes).copyMemory(from: ring.plane(index), byteCount: planeBytes)
        states[i] = .staged
    }
}

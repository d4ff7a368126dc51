import GateCore
import GateDevices

/// Photos of every crossing, a source of the loop of its own: the loop
/// hands it each frame (kept in the ring, its gate column in the strip),
/// each crossing, and a slice of time between frames, in which it encodes
/// and writes a bounded number of picture rows. A 640x480 PNG takes
/// milliseconds, so it is never made in one go on the frame path.
///
/// Memory is all taken in `init`: the ring, the strip's columns, two
/// crossings' staged frames, the encoder's row and chunk. After that the
/// frame path allocates nothing; a crossing costs its strip picture and
/// its file names.
final class PhotoWriter {
    /// What the loop should say.
    enum Notice: Equatable {
        /// Photos stopped for the session (the cap, a full card, a write that failed): said once, as a warning.
        case stopped(String)
        /// This crossing gets no photos: both slots still busy with earlier ones.
        case skipped(String)
    }

    /// What the writer did, for the simulator's report and the benchmark.
    struct Stats: Equatable {
        var crossings = 0
        var files = 0
        var bytes: Int64 = 0
        var slices = 0
        var sliceNanos: Int64 = 0
        var longestSliceNanos: Int64 = 0
        /// Written when the session closed, in one go.
        var closingNanos: Int64 = 0
    }

    let settings: PhotoSettings
    /// The camera's format the ring was made for.
    let format: FrameFormat
    let directory: String
    let gatePosition: Double
    let ring: FrameRing
    let strips: PhotoFinishStrip
    let frameRate: FrameRate
    /// Rows encoded per slice: about `slicePixels` pixels, whatever the width.
    let rowsPerSlice: Int
    private let encoder: PNGStream
    private let slots: [PhotoSlot]
    private(set) var budget: PhotoBudget
    private(set) var stats = Stats()
    private(set) var stopped = false
    private var frames = 0
    private var sequence = 0
    private var picture: Picture?
    private var directoryMade = false
    /// Slices put off in a row because the frame path was behind.
    private var deferred = 0

    /// Pixels encoded per slice: at zlib level 1 about 0.4 ms on the x86_64
    /// build machine, so a few times that on a Raspberry Pi 4: inside the
    /// 8.3 ms between frames at 120 fps with the frame's detection.
    static let slicePixels = 48 * 1024

    /// A picture being written, its rows made on demand.
    enum Picture {
        case frame(FramePicture)
        case strip(GreyImage)

        var width: Int {
            switch self {
            case .frame(let f): return f.width
            case .strip(let image): return image.width
            }
        }

        var height: Int {
            switch self {
            case .frame(let f): return f.height
            case .strip(let image): return image.height
            }
        }

        func row(_ y: Int, into out: UnsafeMutablePointer<UInt8>) {
            switch self {
            case .frame(let f): f.row(y, into: out)
            case .strip(let image):
                image.pixels.withUnsafeBufferPointer {
                    UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress! + y * image.width, byteCount: image.width)
                }
            }
        }
    }

    /// nil when zlib cannot set up (out of memory): the box times without photos.
    init?(settings: PhotoSettings, format: FrameFormat, detector: DetectorSettings, sessionDirectory: String,
          usedBytes: Int64) {
        self.settings = settings
        self.format = format
        directory = sessionDirectory + "/" + PhotoNames.directory
        gatePosition = detector.gatePosition
        ring = FrameRing(width: format.width, height: format.height,
                         capacity: settings.ringFrames(detector, fps: Double(format.fps)))
        frameRate = FrameRate(numerator: UInt32(format.fps), denominator: 1)
        strips = PhotoFinishStrip(width: format.width, height: format.height, gatePosition: detector.gatePosition,
                                  frameRate: frameRate)
        let scale = CrossingPictures.scale(forWidth: format.width)
        let widest = max(format.width * scale, (2 * strips.halfWindowFrames + 1) * strips.columnScale)
        guard let encoder = PNGStream(maxWidth: widest) else { return nil }
        self.encoder = encoder
        rowsPerSlice = max(1, PhotoWriter.slicePixels / widest)
        slots = [PhotoSlot(settings: settings, planeBytes: format.width * format.height),
                 PhotoSlot(settings: settings, planeBytes: format.width * format.height)]
        budget = PhotoBudget(capBytes: settings.maxBytes, usedBytes: usedBytes)
    }

    /// Bytes set aside before the loop: the ring and the staged frames.
    var memoryBytes: Int { ring.bytes + slots.count * settings.offsets.count * ring.width * ring.height }

    /// Whether anything is waiting to be written.
    var isBusy: Bool { picture != nil || slots.contains { $0.busy } }

    /// A frame, before its buffer goes back to the camera. Allocates nothing.
    func frame(_ frame: LumaFrame) {
        guard !stopped else { return }
        let index = frames
        frames += 1
        ring.record(frame, index: index)
        strips.record(frame, index: index)
        for slot in slots where slot.busy { slot.frameRecorded(index, ring: ring) }
    }

    /// A crossing recorded at `crossingNanos`: its frames are staged now
    /// (those after it as they come), its strip scheduled.
    func crossing(runId: String, lap: Int, crossingNanos: Int64) -> Notice? {
        guard !stopped, let centre = ring.nearestFrame(toNanos: crossingNanos) else { return nil }
        guard let slot = slots.first(where: { !$0.busy }) else {
            return .skipped("photos: " + runId + " lap " + String(lap)
                + " gets none: the photos of the two crossings before it are still being written")
        }
        sequence += 1
        slot.start(runId: runId, lap: lap, crossingFrame: centre, sequence: sequence, ring: ring)
        // The strip counts frames at the camera's rate: the crossing is put
        // at its offset from the crossing frame's stamp.
        let offset = crossingNanos - ring.stampNanos(centre)
        strips.schedule(crossingNanos: max(0, frameRate.timestampNanos(frame: centre) + offset), label: sequence)
        return nil
    }

    /// A turn of the loop after a frame: a slice, unless the frame came
    /// more than a frame period after it was due (the loop is behind, the
    /// next frame may be waiting). Put off a quarter of a second at most,
    /// so photos still get written on a box that is always a little late.
    func betweenFrames(behind: Bool, nowNanos: () -> Int64) -> Notice? {
        guard !stopped, isBusy else { return nil }
        if behind && deferred < max(1, format.fps / 4) {
            deferred += 1
            return nil
        }
        deferred = 0
        return slice(nowNanos: nowNanos)
    }

    /// One slice of work between frames: up to `rowsPerSlice` rows encoded
    /// and written, a picture begun or ended. `nowNanos` reads the clock
    /// (the wall's, to measure the slice).
    func slice(nowNanos: () -> Int64) -> Notice? {
        guard !stopped, isBusy else { return nil }
        let started = nowNanos()
        let notice = timedWork(rows: rowsPerSlice)
        let spent = nowNanos() - started
        stats.slices += 1
        stats.sliceNanos += spent
        stats.longestSliceNanos = max(stats.longestSliceNanos, spent)
        return notice
    }

    /// The session ends: what is waiting is written now, in one go (no
    /// frame follows), strips with what they have.
    func finish(nowNanos: () -> Int64) -> Notice? {
        for slot in slots where slot.busy { slot.giveUpWaiting() }
        while let strip = strips.nextUnfinishedStrip() { give(strip) }
        let started = nowNanos()
        defer { stats.closingNanos += nowNanos() - started }
        while isBusy && !stopped {
            if let notice = timedWork(rows: Int.max) { return notice }
        }
        return nil
    }

    private func timedWork(rows: Int) -> Notice? {
        do {
            try work(rows: rows)
        } catch {
            return stop(error.message + "; photos stop for this session, timing and results go on")
        }
        if budget.refusal != nil, let message = budget.message { return stop(message) }
        return nil
    }

    private func work(rows: Int) throws(GateError) {
        var left = rows
        while left > 0 {
            if let picture {
                let n = min(left, encoder.rowsLeft)
                for _ in 0..<n {
                    picture.row(encoder.rowsWritten, into: encoder.rowPixels)
                    try encoder.commitRow()
                }
                left -= n
                if encoder.rowsLeft == 0 { try pictureDone() }
                continue
            }
            guard let found = nextPicture() else { return }
            let next = found.picture
            let largest = PhotoBudget.largestPNG(width: next.width, height: next.height)
            if !directoryMade {
                do { try Directory.create(directory) } catch {
                    throw GateError(directory, error, doing: "creating the photos directory")
                }
                directoryMade = true
            }
            guard budget.admit(bytes: largest, freeBytes: PhotoStorage.freeBytes(directory)) else { return }
            try encoder.begin(path: directory + "/" + found.name, width: next.width, height: next.height)
            picture = next
        }
    }

    private func pictureDone() throws(GateError) {
        try encoder.end()
        picture = nil
        budget.wrote(Int64(encoder.fileBytes))
        stats.files += 1
        stats.bytes += Int64(encoder.fileBytes)
        guard let slot = oldestBusySlot() else { return }
        slot.next += 1
        if slot.next > slot.offsets.count {
            slot.release()
            stats.crossings += 1
        }
    }

    /// The oldest crossing's next picture, once what it needs has come.
    private func nextPicture() -> (picture: Picture, name: String)? {
        while let strip = strips.nextCompleteStrip() { give(strip) }
        guard let slot = oldestBusySlot() else { return nil }
        while slot.next < slot.offsets.count {
            switch slot.states[slot.next] {
            case .waiting: return nil
            case .missing: slot.next += 1
            case .staged:
                let frame = FramePicture(pixels: slot.plane(slot.next), width: ring.width, height: ring.height,
                                         gatePosition: gatePosition)
                return (picture: .frame(frame), name: PhotoNames.scrub(runId: slot.runId, lap: slot.lap, offset: slot.offsets[slot.next]))
            }
        }
        guard let strip = slot.strip else { return nil }
        return (picture: .strip(strip), name: PhotoNames.strip(runId: slot.runId, lap: slot.lap))
    }

    private func give(_ strip: (label: Int, image: GreyImage)) {
        slots.first { $0.busy && $0.sequence == strip.label }?.strip = strip.image
    }

    private func oldestBusySlot() -> PhotoSlot? {
        var oldest: PhotoSlot?
        for slot in slots where slot.busy && slot.sequence < (oldest?.sequence ?? Int.max) { oldest = slot }
        return oldest
    }

    private func stop(_ message: String) -> Notice {
        stopped = true
        encoder.abandon()
        picture = nil
        for slot in slots { slot.release() }
        return .stopped(message)
    }
}

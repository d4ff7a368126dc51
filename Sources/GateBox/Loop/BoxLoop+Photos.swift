import GateCore
import GateDevices

/// The photo writer's place in the loop: made before the loop, handed each
/// frame before its buffer goes back, each crossing once recorded, and a
/// slice of time after each frame's turn; what is left is written when the
/// session closes.
extension BoxLoop {
    static func photoWriter(_ configuration: BoxConfiguration, format: FrameFormat, log: SessionLog) -> PhotoWriter? {
        guard let settings = configuration.photos, settings.enabled, configuration.race == nil else { return nil }
        return PhotoWriter(settings: settings, format: format, detector: configuration.detector,
                           sessionDirectory: log.directory,
                           usedBytes: PhotoStorage.photoBytes(dataDirectory: log.dataDirectory))
    }

    /// At the session's start: what the photos take and where they go.
    func sayPhotos() {
        guard let photos else {
            if configuration.photos?.enabled == true && configuration.race == nil {
                warn("photos: zlib could not set up its compressor (out of memory?): no photos this session")
            }
            return
        }
        let settings = photos.settings
        say("photos: ring of " + String(photos.ring.capacity) + " frames, " + String(settings.framesBefore) + " before and "
            + String(settings.framesAfter) + " after each crossing frame (" + String(photos.memoryBytes >> 20)
            + " MB set aside), into " + photos.directory + "; cap " + String(settings.maxMegabytes) + " MB, "
            + String(photos.budget.usedBytes >> 20) + " MB used")
    }

    mutating func photosCrossing(_ record: CrossingRecord) {
        guard let photos else { return }
        say(photos.crossing(runId: record.runId, lap: record.lap, crossingNanos: record.crossingTimeNanos))
    }

    /// After a frame's turn: a slice of the photos' work, unless the frame
    /// was dequeued more than a frame period after it was due.
    mutating func photosBetweenFrames(after frame: LumaFrame) {
        guard let photos else { return }
        let format = platform.camera.format
        let due = frame.timestampNanos + format.readoutNanos + format.exposureNanos / 2
        let behind = platform.nowNanos - due > format.framePeriodNanos
        say(photos.betweenFrames(behind: behind, nowNanos: MonotonicClock.nowNanos))
    }

    /// The session closes: what waits is written now.
    mutating func finishPhotos() {
        guard let photos else { return }
        say(photos.finish(nowNanos: MonotonicClock.nowNanos))
    }

    /// The camera streams again, maybe in another format: a ring of its size.
    mutating func photosCameraReturned(_ format: FrameFormat) {
        guard let old = photos, old.format != format else { return }
        say(old.finish(nowNanos: MonotonicClock.nowNanos))
        photos = BoxLoop.photoWriter(configuration, format: format, log: log)
    }

    private func say(_ notice: PhotoWriter.Notice?) {
        switch notice {
        case .stopped(let line)?: warn(line)
        case .skipped(let line)?: say(line)
        case nil: break
        }
    }
}

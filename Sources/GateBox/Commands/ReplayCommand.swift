import GateCore
import GateDevices

/// `ts-gate replay FILE`: runs a detector over every frame of a YUV4MPEG2
/// clip, an MJPEG AVI or a raw MJPEG stream (VideoFileReader: told apart by
/// content, JPEGs decoded by libv4lconvert as the box decodes its camera's),
/// in the clip's own time base (frame i at i x den / num s), and prints each
/// crossing as it is found, as a table or as JSON lines. The clip is
/// streamed: one frame in memory (a dozen with `--images`), whatever its length.
enum ReplayCommand {
    static func run(_ options: ReplayOptions, console: Console) -> Int32 {
        let path = options.file
        func fail(_ message: String) -> Int32 {
            console.problem("ts-gate: " + message)
            return 1
        }

        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly)
        } catch {
            return fail(path + ": cannot open: " + error.description)
        }
        defer { descriptor.close() }
        let reader: VideoFileReader
        do {
            reader = try VideoFileReader(path: path, descriptor: descriptor, frameRate: options.frameRate)
        } catch {
            return fail(error.message)
        }
        let header = reader.header
        let size = String(header.width) + "x" + String(header.height)
        guard header.width >= minimumSide && header.height >= minimumSide else {
            return fail(path + ": frames of " + size + " are too small to detect a runner in (at least "
                + String(minimumSide) + "x" + String(minimumSide) + ")")
        }

        var settings = DetectorSettings()
        settings.gatePosition = options.gatePosition
        settings.exposureNanos = options.exposureNanos
        settings.readoutNanos = options.readoutNanos
        let detector = CrossingDetector(mode: options.mode, width: header.width, height: header.height, settings: settings)

        var pictures: ReplayPictures?
        if let directory = options.imagesDirectory {
            do {
                try Directory.create(directory)
            } catch {
                return fail(directory + ": cannot create the pictures directory: " + error.description)
            }
            pictures = ReplayPictures(directory: directory, header: header, gatePosition: options.gatePosition,
                                      settings: settings)
        }

        if !options.json {
            console.line("replay " + path + ": " + size + " C" + header.colourSpace.tag + ", "
                + header.frameRate.text + " fps (F" + String(header.frameRate.numerator) + ":"
                + String(header.frameRate.denominator) + "), gate at " + DecimalText.fixed(options.gatePosition, places: 3)
                + " of the width, " + options.mode.name)
            console.line(tableHeader)
        }

        var crossings = 0
        var failure: String?
        var picturesFailure: String?
        func show(_ crossing: DetectedCrossing) {
            crossings += 1
            let speed = crossing.velocityWidthsPerSecond * Double(header.width)
            // The frame the picture shows, picked once for the picture and the JSON line.
            let shown = pictures?.frameImageIndex(crossingNanos: crossing.timeNanos)
            if options.json {
                console.line(jsonLine(crossing, number: crossings, speedPixelsPerSecond: speed, pictures: pictures,
                                      frameImageIndex: shown))
            } else {
                console.line(tableRow(crossing, number: crossings, speedPixelsPerSecond: speed))
            }
            do {
                if let pictures, let shown {
                    try pictures.crossing(crossings, frameIndex: shown, crossingNanos: crossing.timeNanos)
                }
            } catch {
                picturesFailure = picturesFailure ?? error.message
            }
        }
        while true {
            let next: LumaFrame?
            do {
                next = try reader.nextFrame()
            } catch {
                failure = error.message
                break
            }
            guard let frame = next else { break }
            let index = reader.lastIndex
            pictures?.record(frame, index: index)
            if let crossing = detector.process(frame) { show(crossing) }
            if let picturesFailure { return fail(picturesFailure) }
            do {
                try pictures?.writeCompleteStrips()
            } catch {
                return fail(error.message)
            }
        }
        // The crossings still waited for when the frames end (a runner
        // still in view past the line), timed with what there is.
        detector.finish { show($0) }
        if let picturesFailure { return fail(picturesFailure) }
        // A clip that ends (or breaks off) soon after a crossing still gets its strip.
        do {
            try pictures?.writeUnfinishedStrips()
        } catch {
            return fail(error.message)
        }
        if let failure { return fail(failure) }
        if let first = reader.firstUndecodable {
            let skipped = reader.undecodableFrames
            guard reader.frameCount > 0 else { return fail(path + ": no frame could be decoded (" + first + ")") }
            console.problem("ts-gate: " + path + ": " + String(skipped) + (skipped == 1 ? " frame" : " frames")
                + " skipped, as the box skips a frame it cannot decode (the first: " + first + ")")
        }

        // An AVI's frames dropped by the recorder count: they took their time.
        let frames = reader.timeBaseFrames
        let durationNanos = header.frameRate.timestampNanos(frame: frames)
        if options.json {
            var w = JSONLineWriter()
            w.string("type", "replay_end")
            w.string("file", path)
            w.int("width", header.width)
            w.int("height", header.height)
            w.int("fpsNumerator", Int64(header.frameRate.numerator))
            w.int("fpsDenominator", Int64(header.frameRate.denominator))
            w.string("colourSpace", "C" + header.colourSpace.tag)
            w.string("mode", options.mode.name)
            w.number("gatePosition", options.gatePosition, places: 4)
            w.number("exposureMs", Double(options.exposureNanos) / 1e6, places: 3)
            w.number("readoutMs", Double(options.readoutNanos) / 1e6, places: 3)
            w.int("frames", frames)
            if reader.undecodableFrames > 0 { w.int("skippedFrames", Int64(reader.undecodableFrames)) }
            w.int("durationNanos", durationNanos)
            w.int("crossings", crossings)
            if let pictures { w.string("imagesDirectory", pictures.directory) }
            console.line(w.finish())
        } else {
            let duration = DecimalText.fixed(Double(durationNanos) / 1e9, places: 3) + " s"
            if crossings == 0 {
                console.line("no crossing in " + String(frames) + " frames (" + duration + ")")
            } else {
                console.line(String(crossings) + (crossings == 1 ? " crossing" : " crossings") + " in "
                    + String(frames) + " frames (" + duration + ")")
            }
            if let pictures {
                for n in 0..<crossings {
                    console.line("pictures: " + pictures.stripPath(n + 1) + " " + pictures.framePath(n + 1))
                }
            }
        }
        return 0
    }

    /// The detector's own lower bound on a frame side.
    static let minimumSide = 16

    static let tableHeader = "crossing   frame       time s  dir   speed px/s      ±ms"

    static func tableRow(_ crossing: DetectedCrossing, number: Int, speedPixelsPerSecond: Double) -> String {
        DecimalText.padLeft(String(number), 8)
            + DecimalText.padLeft(String(crossing.frameIndex), 8)
            + DecimalText.padLeft(DecimalText.fixed(Double(crossing.timeNanos) / 1e9, places: 6), 13)
            + "  " + crossing.direction.code
            + DecimalText.padLeft(DecimalText.fixed(speedPixelsPerSecond.magnitude, places: 1), 13)
            + DecimalText.padLeft(DecimalText.fixed(crossing.uncertaintyMs, places: 3), 9)
    }

    /// One crossing as a JSON object; only these lines carry crossingTimeNanos.
    /// With pictures, `frameImageIndex` is the frame the frame picture shows.
    static func jsonLine(_ crossing: DetectedCrossing, number: Int, speedPixelsPerSecond: Double,
                         pictures: ReplayPictures?, frameImageIndex: Int?) -> String {
        var w = JSONLineWriter()
        w.string("type", "crossing")
        w.int("crossing", number)
        w.int("frameIndex", Int64(crossing.frameIndex))
        w.int("crossingTimeNanos", crossing.timeNanos)
        w.number("interpolationOffsetMs", crossing.interpolationOffsetMs, places: 3)
        w.number("uncertaintyMs", crossing.uncertaintyMs, places: 3)
        w.string("direction", crossing.direction.code)
        w.number("occupancyAtTrigger", crossing.occupancyAtTrigger, places: 3)
        w.number("speedPixelsPerSecond", speedPixelsPerSecond.magnitude, places: 1)
        if let pictures {
            w.string("stripImage", pictures.stripPath(number))
            w.string("frameImage", pictures.framePath(number))
            // Not `frameIndex` (the first frame with the torso past the line).
            if let frameImageIndex { w.int("frameImageIndex", Int64(frameImageIndex)) }
        }
        return w.finish()
    }
}

/// The PNG pictures of a replay's crossings, in one directory: for crossing
/// n, crossing-NN-frame.png (the recorded frame whose stamp is nearest the
/// crossing instant, gate line drawn; its index is the JSON line's
/// `frameImageIndex`) and crossing-NN-strip.png (the photo-finish strip
/// around it).
///
/// Why a ring of recent frames: the detector reports a crossing only once
/// its fit has samples past the line, several frames after the torso
/// reached it; the frame it reports in shows the runner well past the gate.
/// So `record` copies each frame's luma into a `FrameRing` allocated here, once,
/// and the frame picture is taken from the ring, never from a frame after
/// the report (that one has not been read yet).
final class ReplayPictures {
    let directory: String
    let gatePosition: Double
    let strips: PhotoFinishStrip
    /// The last `capacity` frames' luma (see `ringFrames`).
    let ring: FrameRing
    var capacity: Int { ring.capacity }

    /// Frames kept for the frame picture: as many as the detector may
    /// report a crossing after its frame (`PhotoSettings.reportDelayFrames`).
    /// At 240 fps 45, of 1920x1080 (the largest clip replay takes) 93 MB.
    static func ringFrames(_ settings: DetectorSettings, fps: Double) -> Int {
        PhotoSettings.reportDelayFrames(settings, fps: fps)
    }

    init(directory: String, header: Y4MHeader, gatePosition: Double, settings: DetectorSettings) {
        self.directory = directory
        self.gatePosition = gatePosition
        strips = PhotoFinishStrip(width: header.width, height: header.height, gatePosition: gatePosition,
                                  frameRate: header.frameRate)
        ring = FrameRing(width: header.width, height: header.height,
                         capacity: max(1, ReplayPictures.ringFrames(settings, fps: header.frameRate.framesPerSecond)))
    }

    func framePath(_ number: Int) -> String { path(number, "frame") }
    func stripPath(_ number: Int) -> String { path(number, "strip") }

    private func path(_ number: Int, _ kind: String) -> String {
        directory + "/crossing-" + DecimalText.zeroPadded(number, width: 2) + "-" + kind + ".png"
    }

    /// Keeps frame `index` (frames come in order): its gate column for the
    /// strip, its luma in the ring over the oldest frame's. Allocates nothing.
    func record(_ frame: LumaFrame, index: Int) {
        strips.record(frame, index: index)
        ring.record(frame, index: index)
    }

    /// The index of the recorded frame whose stamp is nearest `crossingNanos`
    /// (the later of two as near, as `FrameRate.nearestFrame` rounds). A
    /// crossing before the oldest frame kept gets the oldest: the nearest
    /// there is. At least one frame must have been recorded.
    func frameImageIndex(crossingNanos: Int64) -> Int {
        guard let index = ring.nearestFrame(toNanos: crossingNanos) else { preconditionFailure("no frame recorded") }
        return index
    }

    /// Writes crossing `number`'s frame picture, of recorded frame `index`
    /// (`frameImageIndex`), and schedules its strip.
    func crossing(_ number: Int, frameIndex index: Int, crossingNanos: Int64) throws(GateError) {
        let frame = LumaFrame(pixels: ring.plane(index), width: ring.width, height: ring.height,
                              rowStride: ring.width, pixelStride: 1, timestampNanos: ring.stampNanos(index),
                              sequence: UInt32(truncatingIfNeeded: index))
        try PNGFile.write(CrossingPictures.frame(frame, gatePosition: gatePosition), to: framePath(number))
        strips.schedule(crossingNanos: crossingNanos, label: number)
    }

    func writeCompleteStrips() throws(GateError) {
        while let strip = strips.nextCompleteStrip() {
            try PNGFile.write(strip.image, to: stripPath(strip.label))
        }
    }

    func writeUnfinishedStrips() throws(GateError) {
        while let strip = strips.nextUnfinishedStrip() {
            try PNGFile.write(strip.image, to: stripPath(strip.label))
        }
    }
}

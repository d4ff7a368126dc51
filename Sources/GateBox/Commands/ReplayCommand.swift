import GateCore
import GateDevices

/// `ts-gate replay FILE.y4m`: runs a detector over every frame of a
/// YUV4MPEG2 clip, in the clip's own time base (frame i at i x den / num s),
/// and prints each crossing as it is found, as a table or as JSON lines.
/// The clip is streamed: one frame in memory, whatever its length.
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
        let reader: Y4MFileReader
        do {
            reader = try Y4MFileReader(source: FileByteSource(descriptor))
        } catch {
            return fail(path + ": " + error.message)
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
            pictures = ReplayPictures(directory: directory, header: header, gatePosition: options.gatePosition)
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
        while true {
            let next: LumaFrame?
            do {
                next = try reader.nextFrame()
            } catch {
                failure = path + ": " + error.message
                break
            }
            guard let frame = next else { break }
            let index = reader.frameCount - 1
            pictures?.record(frame, index: index)
            if let crossing = detector.process(frame) {
                crossings += 1
                let speed = crossing.velocityWidthsPerSecond * Double(header.width)
                if options.json {
                    console.line(jsonLine(crossing, number: crossings, speedPixelsPerSecond: speed, pictures: pictures))
                } else {
                    console.line(tableRow(crossing, number: crossings, speedPixelsPerSecond: speed))
                }
                do {
                    try pictures?.crossing(crossings, frame: frame, crossingNanos: crossing.timeNanos)
                } catch {
                    return fail(error.message)
                }
            }
            do {
                try pictures?.writeCompleteStrips()
            } catch {
                return fail(error.message)
            }
        }
        // A clip that ends (or breaks off) soon after a crossing still gets its strip.
        do {
            try pictures?.writeUnfinishedStrips()
        } catch {
            return fail(error.message)
        }
        if let failure { return fail(failure) }

        let frames = reader.frameCount
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
    static func jsonLine(_ crossing: DetectedCrossing, number: Int, speedPixelsPerSecond: Double,
                         pictures: ReplayPictures?) -> String {
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
        }
        return w.finish()
    }
}

/// The PNG pictures of a replay's crossings, in one directory: for crossing
/// n, crossing-NN-frame.png (the frame the crossing was found in, gate line
/// drawn) and crossing-NN-strip.png (the photo-finish strip around it).
struct ReplayPictures {
    let directory: String
    let gatePosition: Double
    let strips: PhotoFinishStrip

    init(directory: String, header: Y4MHeader, gatePosition: Double) {
        self.directory = directory
        self.gatePosition = gatePosition
        strips = PhotoFinishStrip(width: header.width, height: header.height, gatePosition: gatePosition,
                                  frameRate: header.frameRate)
    }

    func framePath(_ number: Int) -> String { path(number, "frame") }
    func stripPath(_ number: Int) -> String { path(number, "strip") }

    private func path(_ number: Int, _ kind: String) -> String {
        directory + "/crossing-" + DecimalText.zeroPadded(number, width: 2) + "-" + kind + ".png"
    }

    func record(_ frame: LumaFrame, index: Int) {
        strips.record(frame, index: index)
    }

    func crossing(_ number: Int, frame: LumaFrame, crossingNanos: Int64) throws(GateError) {
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

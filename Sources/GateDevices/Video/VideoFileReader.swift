import GateCore

/// A video file replay takes, of whichever kind its first bytes say
/// (VideoContainer): a YUV4MPEG2 clip, read as it is, or an MJPEG AVI or
/// raw MJPEG stream, each JPEG decoded through libv4lconvert
/// (MJPEGDecoder) into planes allocated when the file is opened.
///
/// `header` describes the frames as a Y4M header would: size, frame rate
/// and, for MJPEG, the JPEGs' chroma sampling (C422 for a webcam's 4:2:2);
/// only luma is used. Errors are the file's path and what is wrong where.
public final class VideoFileReader {
    public let path: String
    public let container: VideoContainer
    public let header: Y4MHeader
    /// Frames returned so far.
    public private(set) var frameCount = 0
    /// The index of the last frame returned in the time base: frameCount - 1
    /// but for an AVI's dropped frames, which take an index each.
    public private(set) var lastIndex = -1
    /// JPEGs libv4lconvert could not decode: skipped, as the box skips a
    /// camera frame it cannot decode (libv4l2 answers EAGAIN), so one bad
    /// frame does not lose a coach's recording. The first one's problem.
    public private(set) var undecodableFrames = 0
    public private(set) var firstUndecodable: String?
    private let frames: Frames
    /// Set when the caller's frame rate overrides a Y4M's own.
    private let restamp: FrameRate?

    private enum Frames {
        case y4m(Y4MReader<PrefixedSource<FileByteSource>>)
        case avi(AVIReader<PrefixedSource<FileByteSource>>, MJPEGDecoder)
        case mjpeg(MJPEGStreamReader<PrefixedSource<FileByteSource>>, MJPEGDecoder)
    }

    /// Reads `descriptor` (owned by the caller) from its start. `frameRate`
    /// overrides the file's; a raw MJPEG stream has none of its own.
    public init(path: String, descriptor: FileDescriptor, frameRate: FrameRate? = nil) throws(GateError) {
        self.path = path
        let sniffed: (kind: VideoContainer?, start: [UInt8], source: PrefixedSource<FileByteSource>)
        do {
            sniffed = try VideoContainer.sniff(FileByteSource(descriptor))
        } catch {
            throw GateError(path, "read failed: " + error.reason)
        }
        guard let kind = sniffed.kind else {
            throw GateError(path, VideoContainer.unknown(start: sniffed.start))
        }
        container = kind
        switch kind {
        case .y4m:
            let reader: Y4MReader<PrefixedSource<FileByteSource>>
            do { reader = try Y4MReader(source: sniffed.source) } catch { throw GateError(path, error.message) }
            var header = reader.header
            if let frameRate { header.frameRate = frameRate }
            self.header = header
            restamp = frameRate
            frames = .y4m(reader)
        case .avi:
            let reader: AVIReader<PrefixedSource<FileByteSource>>
            do { reader = try AVIReader(source: sniffed.source, frameRate: frameRate) } catch { throw GateError(path, error.message) }
            header = Y4MHeader(width: reader.width, height: reader.height, frameRate: reader.frameRate,
                               colourSpace: reader.colourSpace)
            restamp = nil
            frames = .avi(reader, try VideoFileReader.decoder(reader, path: path))
        case .mjpeg:
            guard let frameRate else {
                throw GateError(path, "a raw MJPEG stream states no frame rate: give it with --fps N or --fps N/D "
                    + "(e.g. --fps 120 or --fps 120000/1001)")
            }
            let reader: MJPEGStreamReader<PrefixedSource<FileByteSource>>
            do { reader = try MJPEGStreamReader(source: sniffed.source, frameRate: frameRate) } catch {
                throw GateError(path, error.message)
            }
            header = Y4MHeader(width: reader.width, height: reader.height, frameRate: frameRate,
                               colourSpace: reader.colourSpace)
            restamp = nil
            frames = .mjpeg(reader, try VideoFileReader.decoder(reader, path: path))
        }
    }

    private static func decoder(_ reader: some JPEGFrameSource, path: String) throws(GateError) -> MJPEGDecoder {
        do {
            return try MJPEGDecoder(width: reader.width, height: reader.height)
        } catch {
            throw GateError(path, error.message)
        }
    }

    /// Frames of the time base so far: the duration is this many frame times.
    public var timeBaseFrames: Int { lastIndex + 1 }

    /// The next frame's luma, or nil at the end. Its pixels live in the
    /// reader and are overwritten by the next call.
    public func nextFrame() throws(GateError) -> LumaFrame? {
        let frame: LumaFrame?
        switch frames {
        case .y4m(let reader):
            do { frame = try reader.nextFrame() } catch { throw GateError(path, error.message) }
            if let restamp, let original = frame {
                let index = reader.frameCount - 1
                frameCount += 1
                lastIndex = index
                return LumaFrame(pixels: original.pixels, width: original.width, height: original.height,
                                 rowStride: original.rowStride, pixelStride: original.pixelStride,
                                 timestampNanos: restamp.timestampNanos(frame: index), sequence: original.sequence)
            }
        case .avi(let reader, let decoder):
            frame = try decoded(reader, decoder)
        case .mjpeg(let reader, let decoder):
            frame = try decoded(reader, decoder)
        }
        if let frame {
            frameCount += 1
            lastIndex = Int(frame.sequence)
        }
        return frame
    }

    private func decoded(_ reader: some JPEGFrameSource, _ decoder: MJPEGDecoder) throws(GateError) -> LumaFrame? {
        while true {
            let next: JPEGFrame?
            do { next = try reader.nextJPEG() } catch { throw GateError(path, error.message) }
            guard let jpeg = next else { return nil }
            let luma: UnsafePointer<UInt8>
            do {
                luma = try decoder.decode(jpeg.bytes)
            } catch {
                undecodableFrames += 1
                lastIndex = jpeg.index
                if firstUndecodable == nil {
                    firstUndecodable = "frame " + String(jpeg.index) + " (byte " + String(jpeg.offset)
                        + "): libv4lconvert cannot decode its JPEG: " + error.problem
                }
                continue
            }
            return frame(jpeg, luma)
        }
    }

    private func frame(_ jpeg: JPEGFrame, _ luma: UnsafePointer<UInt8>) -> LumaFrame {
        LumaFrame(pixels: luma, width: header.width, height: header.height, rowStride: header.width,
                  pixelStride: 1, timestampNanos: header.frameRate.timestampNanos(frame: jpeg.index),
                  sequence: UInt32(truncatingIfNeeded: jpeg.index))
    }
}

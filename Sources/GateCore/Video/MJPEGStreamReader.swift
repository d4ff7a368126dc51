/// Reads a raw MJPEG stream, JPEG after JPEG with nothing between them, as
/// a webcam's frames are saved one after another (`v4l2-ctl --stream-to`,
/// `ffmpeg -c copy -f mjpeg`). The stream states no frame rate: the caller
/// gives it, and frame i is stamped i x den / num seconds as in a Y4M.
///
/// Zero bytes between images are skipped: a recorder that writes each
/// frame into a fixed-size buffer pads it so (and JPEG decoders stop at the
/// EOI marker). Anything else between images is refused.
///
/// Memory is one 64 KiB read buffer and one frame buffer of
/// `maximumFrameBytes`, both allocated here; reading allocates nothing.
public final class MJPEGStreamReader<Source: ByteSource>: JPEGFrameSource {
    public let frameRate: FrameRate
    public private(set) var colourSpace = Y4MColourSpace.c422
    public var width: Int { size.width }
    public var height: Int { size.height }
    /// Frames returned so far, which is the index of the next one.
    public private(set) var frameCount = 0
    private var input: BufferedInput<Source>
    private var scanner = JPEGScanner()
    private var size = JPEGFrameSize()
    private let frameStorage: UnsafeMutableRawBufferPointer
    /// The first frame, read by init to learn the size, not yet returned.
    private var pending: JPEGFrame?

    /// The largest JPEG taken: a 1920x1080 frame of noise at quality 100
    /// is about 3 bytes a pixel.
    public static var maximumFrameBytes: Int { 8 << 20 }
    static var bufferCapacity: Int { 65536 }

    /// Reads the first frame, whose size every frame must keep.
    public init(source: Source, frameRate: FrameRate) throws(MJPEGError) {
        self.frameRate = frameRate
        input = BufferedInput(source: source, capacity: MJPEGStreamReader.bufferCapacity)
        frameStorage = .allocate(byteCount: MJPEGStreamReader.maximumFrameBytes, alignment: 16)
        guard let first = try readFrame() else {
            throw MJPEGError("byte 0", "the file is empty (expected a JPEG: FF D8)")
        }
        pending = first
        colourSpace = scanner.colourSpace
    }

    deinit {
        input.release()
        frameStorage.deallocate()
    }

    public var offset: Int { input.offset }

    public func nextJPEG() throws(MJPEGError) -> JPEGFrame? {
        if let first = pending {
            pending = nil
            frameCount = 1
            return first
        }
        guard let frame = try readFrame() else { return nil }
        frameCount += 1
        return frame
    }

    /// Copies the next JPEG into the frame buffer, scanning it for its end.
    private func readFrame() throws(MJPEGError) -> JPEGFrame? {
        let index = frameCount
        func readFailed(_ error: ByteSourceError) -> MJPEGError {
            MJPEGError(MJPEGError.frame(index, byte: input.offset), "read failed: " + error.reason)
        }
        // Padding after the previous image.
        while true {
            let available: Int
            do { available = try input.ensure(1) } catch { throw readFailed(error) }
            if available == 0 { return nil }
            guard input.byte(at: 0) == 0 else { break }
            do { _ = try input.skip(1) } catch { throw readFailed(error) }
        }
        let start = input.offset
        if index > 0 {
            // Said apart from a broken JPEG: what follows one is not another.
            do { _ = try input.ensure(2) } catch { throw readFailed(error) }
            if input.buffered < 2 || input.byte(at: 0) != 0xFF || input.byte(at: 1) != 0xD8 {
                throw MJPEGError(MJPEGError.frame(index, byte: start), "expected the next JPEG (FF D8) after the end "
                    + "(FF D9) of frame " + String(index - 1) + ", found '" + Y4MError.quoted(input.peek(8)) + "'")
            }
        }
        scanner.reset()
        var length = 0
        while true {
            let available: Int
            do { available = try input.ensure(1) } catch { throw readFailed(error) }
            guard available > 0 else {
                throw MJPEGError(MJPEGError.frame(index, byte: start), "truncated: the file ends "
                    + String(length) + " bytes into the JPEG, before its end (FF D9)")
            }
            let window = input.unread
            let taken: Int
            let ended: Bool
            do {
                if let end = try scanner.scan(window) { taken = end; ended = true } else { taken = window.count; ended = false }
            } catch {
                throw MJPEGError.inFrame(index, start: start, error)
            }
            guard length + taken <= frameStorage.count else {
                throw MJPEGError(MJPEGError.frame(index, byte: start), "no end of the JPEG (FF D9) within "
                    + String(frameStorage.count) + " bytes")
            }
            (frameStorage.baseAddress! + length).copyMemory(from: window.baseAddress!, byteCount: taken)
            length += taken
            do { _ = try input.skip(taken) } catch { throw readFailed(error) }
            if ended { break }
        }
        try size.check(scanner, frame: index, byte: start)
        return JPEGFrame(bytes: UnsafeRawBufferPointer(rebasing: frameStorage[0..<length]), index: index, offset: start)
    }
}

/// Reads a YUV4MPEG2 stream frame by frame: the header, then for each frame
/// its `FRAME[ params]` line, its luma plane into one reused buffer, and its
/// chroma planes skipped. The file is streamed, never held whole: memory is
/// one luma plane plus a 64 KiB read buffer, whatever the file's length.
///
/// Frame i is stamped t_i = i x den / num seconds (FrameRate), the time base
/// of issue 3: the mid-exposure instant of the frame's top row.
public final class Y4MReader<Source: ByteSource> {
    public let header: Y4MHeader
    /// Frames returned so far, which is the index of the next one.
    public private(set) var frameCount = 0
    private var input: BufferedInput<Source>
    private let luma: UnsafeMutablePointer<UInt8>

    /// Longest header or FRAME line accepted (the format's lines are a few dozen bytes).
    public static var lineLimit: Int { 4096 }
    static var bufferCapacity: Int { 65536 }

    /// Reads and checks the stream header.
    public init(source: Source) throws(Y4MError) {
        var input = BufferedInput(source: source, capacity: Y4MReader.bufferCapacity)
        do {
            header = try Y4MReader.readHeader(&input)
        } catch {
            input.release()
            throw error
        }
        self.input = input
        luma = .allocate(capacity: header.lumaBytes)
    }

    deinit {
        input.release()
        luma.deallocate()
    }

    /// Bytes of the input consumed so far.
    public var offset: Int { input.offset }

    /// The next frame's luma, or nil at the end of the stream. The frame's
    /// pixels live in the reader and are overwritten by the next call.
    public func nextFrame() throws(Y4MError) -> LumaFrame? {
        let index = frameCount
        let frameStart = input.offset
        // Built only on failure: the frame path allocates nothing.
        func here() -> String { Y4MError.frame(index, byte: frameStart) }
        func readFailed(_ error: ByteSourceError) -> Y4MError { Y4MError(here(), "read failed: " + error.reason) }

        func notAFrame() -> Y4MError {
            _ = try? input.ensure(8) // show the same bytes however the input was chunked
            return Y4MError(here(), "expected 'FRAME', found '" + Y4MError.quoted(input.peek(8)) + "'")
        }

        let marker = frameMarker
        let available: Int
        do { available = try input.ensure(marker.count + 1) } catch { throw readFailed(error) }
        if available == 0 { return nil }
        for i in 0..<min(available, marker.count) where input.byte(at: i) != marker[i] {
            throw notAFrame()
        }
        if available <= marker.count {
            throw Y4MError(here(), "truncated: the file ends inside its FRAME line")
        }
        let separator = input.byte(at: marker.count)
        guard separator == 0x0A || separator == 0x20 else {
            throw notAFrame()
        }
        let line: BufferedInput<Source>.Line
        do { line = try input.line(limit: Y4MReader.lineLimit) } catch { throw readFailed(error) }
        switch line {
        case .line: break // frame parameters (per-frame interlacing and the like) do not change luma
        case .endOfInput:
            throw Y4MError(here(), "truncated: the file ends inside its FRAME line")
        case .tooLong:
            throw Y4MError(here(), "no end of its FRAME line within " + String(Y4MReader.lineLimit) + " bytes")
        }

        let planes = header.frameBytes
        var got: Int
        do {
            got = try input.read(into: UnsafeMutableRawPointer(luma), count: header.lumaBytes)
            if got == header.lumaBytes { got += try input.skip(header.chromaBytes) }
        } catch {
            throw readFailed(error)
        }
        guard got == planes else {
            throw Y4MError(here(), "truncated: the file ends " + String(got) + " bytes into the frame's "
                + String(planes) + " bytes of planes (" + String(header.width) + "x" + String(header.height)
                + " C" + header.colourSpace.tag + ")")
        }
        frameCount += 1
        return LumaFrame(pixels: UnsafePointer(luma), width: header.width, height: header.height,
                         rowStride: header.width, pixelStride: 1,
                         timestampNanos: header.frameRate.timestampNanos(frame: index),
                         sequence: UInt32(truncatingIfNeeded: index))
    }

    private static func readHeader(_ input: inout BufferedInput<Source>) throws(Y4MError) -> Y4MHeader {
        let here = Y4MError.header(byte: 0)
        // The signature first, so a file of another kind is named as such
        // rather than as a header without an end of line.
        let signature = Array(Y4MHeader.signature.utf8)
        let available: Int
        do { available = try input.ensure(signature.count) } catch { throw Y4MError(here, "read failed: " + error.reason) }
        if available == 0 { throw Y4MError(here, "the file is empty (expected a YUV4MPEG2 header)") }
        let start = input.peek(signature.count)
        if start != signature {
            throw Y4MError(here, "expected the signature 'YUV4MPEG2 ', found '" + Y4MError.quoted(start) + "'")
        }
        let line: BufferedInput<Source>.Line
        do { line = try input.line(limit: lineLimit) } catch { throw Y4MError(here, "read failed: " + error.reason) }
        switch line {
        case .line(let bytes): return try Y4MHeader.parse(bytes)
        case .endOfInput(let count):
            throw Y4MError(here, "truncated: the file ends inside the header, after " + String(count) + " bytes without a newline")
        case .tooLong:
            throw Y4MError(here, "no end of the header line within " + String(lineLimit) + " bytes")
        }
    }
}

/// What starts every frame.
private let frameMarker: [UInt8] = [0x46, 0x52, 0x41, 0x4D, 0x45] // "FRAME"

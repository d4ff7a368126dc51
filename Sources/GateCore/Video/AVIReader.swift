/// Reads the MJPEG video stream of an AVI file, as webcam recorders write
/// it (ffmpeg, guvcview, OBS, VLC): RIFF 'AVI ', a 'hdrl' list with the
/// main header ('avih') and one 'strl' list per stream, then the frames as
/// 'NNdc' (or 'NNdb') chunks of stream NN in a 'movi' list. Files past
/// 1 GB go on in further RIFF 'AVIX' parts (OpenDML), each with its own
/// 'movi'; those are read too.
///
/// The frame rate is the stream header's dwRate / dwScale, else the main
/// header's dwMicroSecPerFrame; frame i is stamped i x dwScale / dwRate
/// seconds as in a Y4M. A video chunk of no bytes is a frame the recorder
/// dropped: it takes its place in the time base, and no frame is returned.
///
/// The file is walked in order, never sought: the index ('idx1', 'indx')
/// is not needed to find the frames, and a recording cut off before its
/// index was written is read as far as it goes. Memory is one 64 KiB read
/// buffer and one frame buffer, allocated here; reading allocates nothing.
public final class AVIReader<Source: ByteSource>: JPEGFrameSource {
    public let frameRate: FrameRate
    public private(set) var colourSpace = Y4MColourSpace.c422
    public var width: Int { size.width }
    public var height: Int { size.height }
    /// The video stream's number: the NN of its chunks' 'NNdc'.
    public let streamNumber: Int
    /// Video chunks read so far, empty ones included: the index of the next frame.
    public private(set) var frameCount = 0
    private var input: BufferedInput<Source>
    private var scanner = JPEGScanner()
    private var size = JPEGFrameSize()
    private let frameStorage: UnsafeMutableRawBufferPointer
    /// The chunk ids of the video stream's frames: 'NNdc' and 'NNdb'.
    private let compressedID: UInt32
    private let uncompressedID: UInt32
    /// The first frame, read by init to learn the size, not yet returned.
    private var pending: JPEGFrame?

    public static var maximumFrameBytes: Int { MJPEGStreamReader<Source>.maximumFrameBytes }
    static var bufferCapacity: Int { 65536 }

    /// Reads the headers up to the first frame, and that frame. `frameRate`
    /// overrides the file's own.
    public init(source: Source, frameRate override: FrameRate? = nil) throws(MJPEGError) {
        var input = BufferedInput(source: source, capacity: AVIReader.bufferCapacity)
        let headers: AVIHeaders
        do {
            headers = try AVIHeaders.read(&input)
        } catch {
            input.release()
            throw error
        }
        guard let rate = override ?? headers.frameRate else {
            input.release()
            throw MJPEGError("AVI stream header (byte " + String(headers.streamHeaderByte) + ")",
                             "no frame rate: dwRate/dwScale and dwMicroSecPerFrame are 0 (give it: --fps N or N/D)")
        }
        self.input = input
        frameRate = rate
        streamNumber = headers.streamNumber
        let tens = UInt32(0x30 + streamNumber / 10), ones = UInt32(0x30 + streamNumber % 10)
        compressedID = tens | ones << 8 | 0x6364 << 16      // "NNdc"
        uncompressedID = tens | ones << 8 | 0x6264 << 16    // "NNdb"
        frameStorage = .allocate(byteCount: AVIReader.maximumFrameBytes, alignment: 16)
        guard let first = try readFrame() else {
            throw MJPEGError("AVI 'movi' list", "no frames: the video stream " + String(streamNumber)
                + " has no chunk with a JPEG in it")
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
            return first
        }
        return try readFrame()
    }

    /// Walks chunks to the next non-empty video chunk and copies its JPEG.
    private func readFrame() throws(MJPEGError) -> JPEGFrame? {
        while true {
            guard let chunk = try AVIHeaders.chunkHeader(&input) else { return nil }
            // Into an 'AVIX' part (OpenDML), its 'movi' or a 'rec ' group,
            // whose chunks follow; any other list (an 'INFO', 'odml') is
            // skipped whole, like the index and 'JUNK'.
            let type = chunk.listType(in: input)
            if chunk.id == AVIHeaders.riff || type == AVIHeaders.movi || type == AVIHeaders.rec {
                try AVIHeaders.skip(&input, 12, of: chunk)
                continue
            }
            guard chunk.id == compressedID || chunk.id == uncompressedID else {
                try AVIHeaders.skip(&input, chunk.paddedLength, of: chunk)
                continue
            }
            let index = frameCount
            frameCount += 1
            try AVIHeaders.skip(&input, 8, of: chunk)
            if chunk.size == 0 { continue } // dropped by the recorder
            let start = input.offset
            guard chunk.size <= frameStorage.count else {
                throw MJPEGError(MJPEGError.frame(index, byte: start), "a chunk of " + String(chunk.size)
                    + " bytes, more than the " + String(frameStorage.count) + " a frame may have")
            }
            let got: Int
            do {
                got = try input.read(into: frameStorage.baseAddress!, count: chunk.size)
                if chunk.size % 2 == 1 { _ = try input.skip(1) }
            } catch {
                throw MJPEGError(MJPEGError.frame(index, byte: start), "read failed: " + error.reason)
            }
            guard got == chunk.size else {
                throw MJPEGError(MJPEGError.frame(index, byte: start), "truncated: the file ends " + String(got)
                    + " bytes into the frame's chunk of " + String(chunk.size) + " bytes")
            }
            scanner.reset()
            let end: Int?
            do {
                end = try scanner.scan(UnsafeRawBufferPointer(rebasing: frameStorage[0..<got]))
            } catch {
                throw MJPEGError.inFrame(index, start: start, error)
            }
            guard let end else {
                throw MJPEGError(MJPEGError.frame(index, byte: start), "not a whole JPEG: its chunk of "
                    + String(got) + " bytes ends before the JPEG's end (FF D9)")
            }
            try size.check(scanner, frame: index, byte: start)
            // Bytes after EOI in the chunk are a recorder's padding.
            return JPEGFrame(bytes: UnsafeRawBufferPointer(rebasing: frameStorage[0..<end]), index: index, offset: start)
        }
    }
}

/// A chunk's header: its id, its data's size, and where it starts.
struct AVIChunk {
    var id: UInt32
    var size: Int
    var start: Int

    /// Header, data and the pad byte that keeps chunks at even offsets.
    var paddedLength: Int { 8 + size + size % 2 }

    var name: String { AVIHeaders.name(id) }

    /// A list's type (the 4 bytes after its header, buffered by
    /// `chunkHeader`), 0 for a chunk that is no list.
    func listType(in input: BufferedInput<some ByteSource>) -> UInt32 {
        guard (id == AVIHeaders.list || id == AVIHeaders.riff) && size >= 4 && input.buffered >= 12 else { return 0 }
        return AVIHeaders.le32(input, at: 8)
    }
}

/// What an AVI's header list says about its video stream, read once.
struct AVIHeaders {
    var streamNumber = -1
    var frameRate: FrameRate?
    /// Where the video stream's 'strh' is, for an error about it.
    var streamHeaderByte = 0

    // Four-character codes as little-endian words.
    static let riff: UInt32 = 0x4646_4952  // "RIFF"
    static let avi: UInt32 = 0x2049_5641   // "AVI "
    static let list: UInt32 = 0x5453_494C  // "LIST"
    static let hdrl: UInt32 = 0x6C72_6468  // "hdrl"
    static let avih: UInt32 = 0x6869_7661  // "avih"
    static let strl: UInt32 = 0x6C72_7473  // "strl"
    static let strh: UInt32 = 0x6872_7473  // "strh"
    static let strf: UInt32 = 0x6672_7473  // "strf"
    static let movi: UInt32 = 0x6976_6F6D  // "movi"
    static let rec: UInt32 = 0x2063_6572   // "rec "
    static let vids: UInt32 = 0x7364_6976  // "vids"

    /// Compressions that are Motion JPEG under another name.
    static func isMJPEG(_ code: UInt32) -> Bool {
        switch code {
        case 0x4750_4A4D, 0x6770_6A6D,   // MJPG, mjpg
             0x4745_504A, 0x6765_706A,   // JPEG, jpeg
             0x3162_6D64, 0x6E52_5641:   // dmb1 (Matrox), AVRn (Avid)
            return true
        default:
            return false
        }
    }

    static func le32(_ input: BufferedInput<some ByteSource>, at i: Int) -> UInt32 {
        UInt32(input.byte(at: i)) | UInt32(input.byte(at: i + 1)) << 8
            | UInt32(input.byte(at: i + 2)) << 16 | UInt32(input.byte(at: i + 3)) << 24
    }

    static func name(_ code: UInt32) -> String {
        let bytes = [UInt8(code & 0xFF), UInt8(code >> 8 & 0xFF), UInt8(code >> 16 & 0xFF), UInt8(code >> 24)]
        return "'" + Y4MError.quoted(bytes) + "'"
    }

    static func here(_ chunk: AVIChunk) -> String { "AVI chunk " + chunk.name + " (byte " + String(chunk.start) + ")" }

    /// The next chunk's header, with a list's type buffered behind it; nil
    /// at the end of the file.
    static func chunkHeader(_ input: inout BufferedInput<some ByteSource>) throws(MJPEGError) -> AVIChunk? {
        let start = input.offset
        let available: Int
        do { available = try input.ensure(12) } catch {
            throw MJPEGError("AVI (byte " + String(start) + ")", "read failed: " + error.reason)
        }
        if available == 0 { return nil }
        guard available >= 8 else {
            throw MJPEGError("AVI (byte " + String(start) + ")", "truncated: the file ends " + String(available)
                + " bytes into a chunk's 8-byte header")
        }
        return AVIChunk(id: le32(input, at: 0), size: Int(le32(input, at: 4)), start: start)
    }

    /// Skips `count` bytes of `chunk` (from its start).
    static func skip(_ input: inout BufferedInput<some ByteSource>, _ count: Int, of chunk: AVIChunk) throws(MJPEGError) {
        let skipped: Int
        do { skipped = try input.skip(count) } catch {
            throw MJPEGError(here(chunk), "read failed: " + error.reason)
        }
        // A last chunk cut short is the end of a recording cut off, not an
        // error; only a frame cut short is (readFrame says so).
        _ = skipped
    }

    /// The RIFF header and the chunks up to the 'movi' list, whose header
    /// is consumed.
    static func read(_ input: inout BufferedInput<some ByteSource>) throws(MJPEGError) -> AVIHeaders {
        let top = "AVI header (byte 0)"
        let available: Int
        do { available = try input.ensure(12) } catch { throw MJPEGError(top, "read failed: " + error.reason) }
        guard available >= 12, le32(input, at: 0) == riff else {
            throw MJPEGError(top, "expected 'RIFF' <size> 'AVI ', found '" + Y4MError.quoted(input.peek(12)) + "'")
        }
        guard le32(input, at: 8) == avi else {
            throw MJPEGError(top, "a RIFF file of type " + name(le32(input, at: 8)) + ", not an AVI ('AVI ')")
        }
        do { _ = try input.skip(12) } catch { throw MJPEGError(top, "read failed: " + error.reason) }

        var headers = AVIHeaders()
        var microsecondsPerFrame: UInt32 = 0
        var sawHeaderList = false
        var streams = 0
        var video: (handler: UInt32, compression: UInt32, scale: UInt32, rate: UInt32)?
        var listEnds: [(type: UInt32, end: Int)] = [] // hdrl and strl lists being read
        while true {
            while let last = listEnds.last, input.offset >= last.end { listEnds.removeLast() }
            guard let chunk = try chunkHeader(&input) else {
                throw MJPEGError("AVI (byte " + String(input.offset) + ")", sawHeaderList
                    ? "the file ends before its frames (no 'movi' list)"
                    : "the file ends before its header list ('hdrl')")
            }
            let type = chunk.listType(in: input)
            let inHeaderList = listEnds.contains { $0.type == hdrl }
            if chunk.id == list && (type == hdrl || (type == strl && inHeaderList)) {
                if type == hdrl { sawHeaderList = true }
                if type == strl { streams += 1 }
                listEnds.append((type, chunk.start + 8 + chunk.size))
                try skip(&input, 12, of: chunk)
                continue
            }
            if chunk.id == list && type == movi {
                guard sawHeaderList else {
                    throw MJPEGError(here(chunk), "the frames come before any header list ('hdrl')")
                }
                try skip(&input, 12, of: chunk)
                break
            }
            // Fields of avih, strh and strf, at most 64 bytes in.
            let fields = min(chunk.size, 56)
            do { _ = try input.ensure(8 + fields) } catch { throw MJPEGError(here(chunk), "read failed: " + error.reason) }
            let inStreamList = listEnds.last?.type == strl
            if chunk.id == avih && inHeaderList && fields >= 4 && input.buffered >= 12 {
                microsecondsPerFrame = le32(input, at: 8)
            } else if chunk.id == strh && inStreamList && fields >= 28 && input.buffered >= 8 + 28 {
                if le32(input, at: 8) == vids && video == nil {
                    headers.streamNumber = streams - 1
                    headers.streamHeaderByte = chunk.start
                    video = (le32(input, at: 12), 0, le32(input, at: 8 + 20), le32(input, at: 8 + 24))
                }
            } else if chunk.id == strf && inStreamList && headers.streamNumber == streams - 1 && video != nil
                        && video!.compression == 0 && fields >= 20 && input.buffered >= 8 + 20 {
                video!.compression = le32(input, at: 8 + 16)
            }
            try skip(&input, chunk.paddedLength, of: chunk)
        }
        guard let video else {
            throw MJPEGError("AVI header list ('hdrl')", "no video stream (no 'strl' with a 'vids' stream header)")
        }
        guard headers.streamNumber < 100 else {
            throw MJPEGError("AVI header list ('hdrl')", "the video stream is stream " + String(headers.streamNumber)
                + " (chunk ids hold streams 0 to 99)")
        }
        let compression = video.compression != 0 ? video.compression : video.handler
        guard isMJPEG(compression) else {
            throw MJPEGError("AVI stream header (byte " + String(headers.streamHeaderByte) + ")",
                             "the video stream is " + name(compression) + ", not Motion JPEG ('MJPG')")
        }
        if video.rate > 0 && video.scale > 0 {
            headers.frameRate = reduced(video.rate, video.scale)
        } else if microsecondsPerFrame > 0 {
            headers.frameRate = reduced(1_000_000, microsecondsPerFrame)
        }
        return headers
    }

    /// num/den in lowest terms (ffmpeg writes 1000000/33333 as often as 30/1).
    static func reduced(_ num: UInt32, _ den: UInt32) -> FrameRate {
        var a = num, b = den
        while b != 0 { (a, b) = (b, a % b) }
        return FrameRate(numerator: num / a, denominator: den / a)
    }
}

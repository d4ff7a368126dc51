/// The kinds of video file replay takes, told apart by their first bytes
/// (never by the name: a webcam's recording is often called .mjpg, .mjpeg,
/// .avi or nothing at all).
public enum VideoContainer: Equatable, Sendable {
    /// YUV4MPEG2: "YUV4MPEG2 " and a header line.
    case y4m
    /// RIFF 'AVI ' with a Motion JPEG video stream.
    case avi
    /// JPEGs one after another, as a webcam sends them: FF D8 FF.
    case mjpeg

    /// Bytes `detect` needs to see.
    public static var signatureBytes: Int { 12 }

    public static let expected = "a YUV4MPEG2 clip ('YUV4MPEG2 '), an MJPEG AVI ('RIFF' <size> 'AVI ') "
        + "or a raw MJPEG stream (JPEGs, from FF D8 FF)"

    /// The kind of file that starts with `start`, nil for none of them.
    /// A RIFF of another type counts as an AVI, so that its reader names
    /// the type it found.
    public static func detect(_ start: some Collection<UInt8>) -> VideoContainer? {
        let bytes = Array(start.prefix(signatureBytes))
        if bytes.starts(with: Array(Y4MHeader.signature.utf8).prefix(9)) { return .y4m }
        if bytes.starts(with: [0x52, 0x49, 0x46, 0x46]) { return .avi } // "RIFF"
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .mjpeg }
        return nil
    }

    /// What to say of a file that starts with none of the signatures.
    public static func unknown(start: [UInt8]) -> String {
        start.isEmpty ? "the file is empty (expected " + expected + ")"
            : "expected " + expected + ", found '" + Y4MError.quoted(start) + "'"
    }

    /// How replay names it: "MJPEG AVI".
    public var name: String {
        switch self {
        case .y4m: return "YUV4MPEG2"
        case .avi: return "MJPEG AVI"
        case .mjpeg: return "raw MJPEG stream"
        }
    }

    /// Reads up to `signatureBytes` from `source` and tells its kind; the
    /// returned source gives those bytes again, then the rest.
    public static func sniff<Source: ByteSource>(_ source: Source)
        throws(ByteSourceError) -> (kind: VideoContainer?, start: [UInt8], source: PrefixedSource<Source>) {
        var source = source
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: signatureBytes, alignment: 1)
        defer { buffer.deallocate() }
        var count = 0
        while count < signatureBytes {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            if n == 0 { break }
            count += n
        }
        let start = Array(buffer[0..<count])
        return (detect(start), start, PrefixedSource(prefix: start, source: source))
    }
}

/// A source whose first bytes were read ahead (to tell its kind), handed
/// out again before the rest: pipes cannot seek back.
public struct PrefixedSource<Source: ByteSource>: ByteSource {
    private let prefix: [UInt8]
    private var position = 0
    private var source: Source

    public init(prefix: [UInt8], source: Source) {
        self.prefix = prefix
        self.source = source
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        guard position < prefix.count else { return try source.read(into: buffer) }
        let n = min(buffer.count, prefix.count - position)
        for i in 0..<n { buffer[i] = prefix[position + i] }
        position += n
        return n
    }
}

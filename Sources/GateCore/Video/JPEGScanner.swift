/// Finds where one JPEG image ends, and reads its size and chroma sampling
/// from the frame header (SOF), without decoding it. Fed any number of
/// bytes at a time, so a raw MJPEG stream can be split as it streams in:
/// a webcam's stream has no lengths, only the markers between images.
///
/// The image is walked marker by marker (ITU T.81 B.1): SOI, then segments
/// each with a two-byte length, then after each SOS the entropy-coded data,
/// in which 0xFF is followed by 0x00 (a stuffed byte) or RST0-7 and any
/// other byte is the next marker. EOI ends the image. Scanning for FF D9
/// alone would be wrong: the same two bytes can sit inside an APP segment
/// (an embedded thumbnail ends with them).
public struct JPEGScanner {
    /// What the frame header said; zero until it was read.
    public private(set) var width = 0
    public private(set) var height = 0
    public private(set) var components = 0
    /// The first component's (luma's) sampling factors over the second's.
    private var lumaSampling: UInt8 = 0
    private var chromaSampling: UInt8 = 0

    private enum State {
        case soi0, soi1
        /// Between segments: a marker's 0xFF (fill bytes 0xFF allowed).
        case markerPrefix
        case markerCode
        case lengthHigh, lengthLow
        case segment
        case entropy, entropyFF
        case done
    }

    private var state = State.soi0
    /// The marker whose segment is being read.
    private var marker: UInt8 = 0
    private var length = 0
    /// Bytes of the segment read so far (its length field excluded).
    private var segmentOffset = 0
    private var sawFrameHeader = false
    /// Bytes of the image scanned so far.
    public private(set) var scanned = 0

    public init() {}

    /// Starts on a new image.
    public mutating func reset() { self = JPEGScanner() }

    /// Whether EOI was reached.
    public var isComplete: Bool { state == .done }

    /// The chroma sampling as a Y4M colour space: how a 4:2:2 webcam JPEG
    /// differs from a 4:2:0 one (only luma is used either way).
    public var colourSpace: Y4MColourSpace {
        guard components >= 3 else { return .mono }
        let h = (lumaSampling >> 4, chromaSampling >> 4), v = (lumaSampling & 0xF, chromaSampling & 0xF)
        if h.0 == 2 * h.1 && v.0 == 2 * v.1 { return .c420jpeg }
        if h.0 == 2 * h.1 && v.0 == v.1 { return .c422 }
        if h.0 == h.1 && v.0 == v.1 { return .c444 }
        return .c420jpeg
    }

    /// Scans `bytes`, which follow those scanned before. Returns how many of
    /// them belong to the image when its EOI is among them (the rest belong
    /// to what follows), nil when the image goes on past them.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer) throws(JPEGProblem) -> Int? {
        var i = 0
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            let at = scanned + i
            i += 1
            switch state {
            case .soi0:
                guard b == 0xFF else { throw JPEGProblem(at, "expected a JPEG's start (FF D8), found " + hexByte(b)) }
                state = .soi1
            case .soi1:
                guard b == 0xD8 else { throw JPEGProblem(at - 1, "expected a JPEG's start (FF D8), found FF " + hexByte(b)) }
                state = .markerPrefix
            case .markerPrefix:
                guard b == 0xFF else { throw JPEGProblem(at, "expected a marker (FF xx), found " + hexByte(b)) }
                state = .markerCode
            case .markerCode:
                try marker(b, at: at)
            case .lengthHigh:
                length = Int(b) << 8
                state = .lengthLow
            case .lengthLow:
                length |= Int(b)
                guard length >= 2 else {
                    throw JPEGProblem(at - 1, "segment " + hexByte(marker) + " has a length of " + String(length) + " (at least 2)")
                }
                segmentOffset = 0
                state = try length == 2 ? segmentEnded(at: at) : .segment
            case .segment:
                if isFrameHeader(marker) { frameHeaderByte(b, index: segmentOffset) }
                segmentOffset += 1
                if segmentOffset == length - 2 { state = try segmentEnded(at: at) }
            case .entropy:
                if b == 0xFF { state = .entropyFF }
            case .entropyFF:
                if b == 0x00 || (b >= 0xD0 && b <= 0xD7) {
                    state = .entropy
                } else if b != 0xFF {
                    try marker(b, at: at)
                }
            case .done:
                break // returned below when reached
            }
            if state == .done {
                scanned += i
                return i
            }
        }
        scanned += count
        return nil
    }

    /// What a marker code (after its 0xFF) starts.
    private mutating func marker(_ code: UInt8, at: Int) throws(JPEGProblem) {
        switch code {
        case 0xFF: state = .markerCode                   // fill byte
        case 0xD9:
            guard sawFrameHeader else { throw JPEGProblem(at - 1, "the image ends (FF D9) before any frame header (SOF)") }
            state = .done
        case 0xD8: throw JPEGProblem(at - 1, "a second start of image (FF D8) before the end (FF D9) of this one")
        case 0x01, 0xD0...0xD7: state = .markerPrefix    // no segment follows
        case 0x00: throw JPEGProblem(at - 1, "expected a marker, found FF 00")
        default:
            if code == 0xDA && !sawFrameHeader {
                throw JPEGProblem(at - 1, "a scan (SOS) before any frame header (SOF)")
            }
            marker = code
            state = .lengthHigh
        }
    }

    private mutating func segmentEnded(at: Int) throws(JPEGProblem) -> State {
        if isFrameHeader(marker) {
            guard segmentOffset >= 6 + 3 * components && components > 0 else {
                throw JPEGProblem(at, "frame header (SOF) of " + String(length) + " bytes is too short")
            }
            guard width > 0 && height > 0 else {
                throw JPEGProblem(at, "frame header (SOF) gives a size of " + String(width) + "x" + String(height))
            }
            guard !sawFrameHeader else { throw JPEGProblem(at, "a second frame header (SOF)") }
            sawFrameHeader = true
        }
        return marker == 0xDA ? .entropy : .markerPrefix
    }

    /// SOF0-3, 5-7, 9-11, 13-15 (not DHT C4, JPG C8, DAC CC).
    private func isFrameHeader(_ code: UInt8) -> Bool {
        code >= 0xC0 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    /// SOF: precision, height (2), width (2), component count, then per
    /// component its id, sampling factors (H << 4 | V) and table.
    private mutating func frameHeaderByte(_ b: UInt8, index: Int) {
        switch index {
        case 0: width = 0; height = 0; components = 0
        case 1: height = Int(b) << 8
        case 2: height |= Int(b)
        case 3: width = Int(b) << 8
        case 4: width |= Int(b)
        case 5: components = Int(b)
        case 7: lumaSampling = b
        case 10: chromaSampling = b
        default: break
        }
    }
}

/// What is wrong inside one JPEG image, at which byte of it.
public struct JPEGProblem: Error, Equatable {
    public var offset: Int
    public var problem: String
    public init(_ offset: Int, _ problem: String) {
        self.offset = offset
        self.problem = problem
    }
}

func hexByte(_ b: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
    return String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
}

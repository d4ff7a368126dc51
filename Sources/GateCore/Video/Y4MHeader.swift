/// The colour spaces (C tag) of a YUV4MPEG2 file this reader accepts: 8-bit
/// planar, luma first. Only luma is used; chroma is skipped by its size.
public enum Y4MColourSpace: Equatable, CaseIterable, Sendable {
    case c420jpeg, c420paldv, c420mpeg2, c420, c422, c444, mono

    /// The spelling after 'C' in the header.
    public var tag: String {
        switch self {
        case .c420jpeg: return "420jpeg"
        case .c420paldv: return "420paldv"
        case .c420mpeg2: return "420mpeg2"
        case .c420: return "420"
        case .c422: return "422"
        case .c444: return "444"
        case .mono: return "mono"
        }
    }

    public init?(tag: String) {
        for space in Y4MColourSpace.allCases where space.tag == tag {
            self = space
            return
        }
        return nil
    }

    public static let accepted = "C420jpeg, C420paldv, C420mpeg2, C420, C422, C444, Cmono"

    /// Bytes of both chroma planes of a width x height frame (odd sizes round up).
    public func chromaBytes(width: Int, height: Int) -> Int {
        let halfWidth = (width + 1) / 2, halfHeight = (height + 1) / 2
        switch self {
        case .c420jpeg, .c420paldv, .c420mpeg2, .c420: return 2 * halfWidth * halfHeight
        case .c422: return 2 * halfWidth * height
        case .c444: return 2 * width * height
        case .mono: return 0
        }
    }
}

/// The stream header of a YUV4MPEG2 file:
/// `YUV4MPEG2 W<w> H<h> F<num>:<den> [I<i>] [A<n>:<d>] [C<colour>] [X<any>]`.
public struct Y4MHeader: Equatable {
    public var width: Int
    public var height: Int
    public var frameRate: FrameRate
    /// C420 when the header has no C field (the format's default).
    public var colourSpace: Y4MColourSpace
    /// The I field's letter (p, t, b, m or ?); "p" when absent.
    public var interlacing: Character

    public static let signature = "YUV4MPEG2 "
    /// The largest frame the box replays; buffers are sized from the header.
    public static let maximumWidth = 1920
    public static let maximumHeight = 1080

    public init(width: Int, height: Int, frameRate: FrameRate, colourSpace: Y4MColourSpace = .c420,
                interlacing: Character = "p") {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.colourSpace = colourSpace
        self.interlacing = interlacing
    }

    public var lumaBytes: Int { width * height }
    public var chromaBytes: Int { colourSpace.chromaBytes(width: width, height: height) }
    /// Planes of one frame, after its FRAME line.
    public var frameBytes: Int { lumaBytes + chromaBytes }

    /// The header line, newline included, as a writer of this format puts it.
    public var text: String {
        "YUV4MPEG2 W" + String(width) + " H" + String(height) + " F" + String(frameRate.numerator) + ":"
            + String(frameRate.denominator) + " I" + String(interlacing) + " A1:1 C" + colourSpace.tag + "\n"
    }

    /// Parses the header line (without its newline), which starts at byte 0 of the file.
    public static func parse(_ line: some Collection<UInt8>) throws(Y4MError) -> Y4MHeader {
        let bytes = Array(line)
        let signatureBytes = Array(signature.utf8)
        guard bytes.count >= signatureBytes.count, bytes[0..<signatureBytes.count].elementsEqual(signatureBytes) else {
            throw Y4MError(Y4MError.header(byte: 0), "expected the signature 'YUV4MPEG2 ', found '"
                + Y4MError.quoted(bytes.prefix(signatureBytes.count)) + "'")
        }
        var width: Int?
        var height: Int?
        var rate: FrameRate?
        var colourSpace: Y4MColourSpace?
        var interlacing: Character?
        var seen: [UInt8] = []

        var index = signatureBytes.count
        while index < bytes.count {
            if bytes[index] == 0x20 { index += 1; continue }
            let fieldStart = index
            while index < bytes.count && bytes[index] != 0x20 { index += 1 }
            let letter = bytes[fieldStart]
            let value = bytes[(fieldStart + 1)..<index]
            let field = Y4MError.field(letter, byte: fieldStart)
            let got = ", got '" + Y4MError.quoted(bytes[fieldStart..<index]) + "'"
            if letter != UInt8(ascii: "X") {
                if seen.contains(letter) { throw Y4MError(field, "appears twice") }
                seen.append(letter)
            }
            switch letter {
            case UInt8(ascii: "W"):
                guard let w = decimal(value), w >= 1 && w <= maximumWidth else {
                    throw Y4MError(field, "expected a width from 1 to " + String(maximumWidth) + " pixels" + got)
                }
                width = w
            case UInt8(ascii: "H"):
                guard let h = decimal(value), h >= 1 && h <= maximumHeight else {
                    throw Y4MError(field, "expected a height from 1 to " + String(maximumHeight) + " pixels" + got)
                }
                height = h
            case UInt8(ascii: "F"):
                guard let (num, den) = ratio(value), num >= 1 && num <= Int(UInt32.max), den >= 1 && den <= Int(UInt32.max) else {
                    throw Y4MError(field, "expected a frame rate <num>:<den> of integers from 1 to 4294967295" + got)
                }
                rate = FrameRate(numerator: UInt32(num), denominator: UInt32(den))
            case UInt8(ascii: "I"):
                guard value.count == 1, let mode = value.first, "ptbm?".utf8.contains(mode) else {
                    throw Y4MError(field, "expected an interlacing of p, t, b, m or ?" + got)
                }
                interlacing = Character(Unicode.Scalar(mode))
            case UInt8(ascii: "A"):
                // The pixel aspect ratio does not matter to a timing gate; checked for form only.
                guard ratio(value) != nil else { throw Y4MError(field, "expected a pixel aspect <num>:<den>" + got) }
            case UInt8(ascii: "C"):
                guard let space = Y4MColourSpace(tag: String(decoding: value, as: UTF8.self)) else {
                    throw Y4MError(field, "unsupported colour space '" + Y4MError.quoted(bytes[fieldStart..<index])
                        + "' (supported: " + Y4MColourSpace.accepted + ")")
                }
                colourSpace = space
            case UInt8(ascii: "X"):
                break // application-specific
            default:
                throw Y4MError(field, "unknown field '" + Y4MError.quoted(bytes[fieldStart..<index]) + "' (known: W, H, F, I, A, C, X)")
            }
        }
        let end = Y4MError.header(byte: 0)
        guard let width else { throw Y4MError(end, "missing field W (the frame width)") }
        guard let height else { throw Y4MError(end, "missing field H (the frame height)") }
        guard let rate else { throw Y4MError(end, "missing field F (the frame rate <num>:<den>, which stamps every frame)") }
        return Y4MHeader(width: width, height: height, frameRate: rate, colourSpace: colourSpace ?? .c420,
                         interlacing: interlacing ?? "p")
    }

    /// A plain unsigned decimal of at most 10 digits.
    static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty && digits.count <= 10 else { return nil }
        var value = 0
        for d in digits {
            guard d >= 0x30 && d <= 0x39 else { return nil }
            value = value * 10 + Int(d - 0x30)
        }
        return value
    }

    /// "<n>:<d>", two plain decimals.
    static func ratio(_ text: ArraySlice<UInt8>) -> (Int, Int)? {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")),
              let n = decimal(text[text.startIndex..<colon]),
              let d = decimal(text[(colon + 1)..<text.endIndex])
        else { return nil }
        return (n, d)
    }
}

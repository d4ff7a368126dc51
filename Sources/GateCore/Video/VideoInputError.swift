/// What is wrong with a video input (a YUV4MPEG2 clip, an MJPEG AVI or a
/// raw stream of JPEGs) and where: "header field 'W' (byte 10)", "frame 12
/// (byte 1382412)", "AVI chunk 'strh' (byte 88)". Frames count from 0,
/// like frameIndex.
public struct VideoInputError: Error, Equatable {
    public var location: String
    public var problem: String

    public init(_ location: String, _ problem: String) {
        self.location = location
        self.problem = problem
    }

    public var message: String { location + ": " + problem }

    static func frame(_ index: Int, byte: Int) -> String {
        "frame " + String(index) + " (byte " + String(byte) + ")"
    }
}

/// A Y4M clip's problems: the one error type of video inputs.
public typealias Y4MError = VideoInputError

extension VideoInputError {
    static func header(byte: Int) -> String { "header (byte " + String(byte) + ")" }

    static func field(_ letter: UInt8, byte: Int) -> String {
        "header field '" + quoted([letter]) + "' (byte " + String(byte) + ")"
    }

    /// Bytes as text a terminal can show: printable ASCII as is, others as \xNN.
    static func quoted(_ bytes: some Sequence<UInt8>) -> String {
        let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        var text = ""
        for b in bytes {
            if b >= 0x20 && b < 0x7F && b != 0x5C {
                text.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                text += "\\x"
                text.append(hex[Int(b >> 4)])
                text.append(hex[Int(b & 0xF)])
            }
        }
        return text
    }
}

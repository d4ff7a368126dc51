/// What is wrong with an MJPEG input (an AVI or a raw stream of JPEGs) and
/// where: "frame 12 (byte 1382412)", "AVI chunk 'strh' (byte 88)". Frames
/// count from 0, like frameIndex.
public struct MJPEGError: Error, Equatable {
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

    /// A problem inside a frame's JPEG, at its byte in the file.
    static func inFrame(_ index: Int, start: Int, _ problem: JPEGProblem) -> MJPEGError {
        MJPEGError(frame(index, byte: start + problem.offset), "not a whole JPEG: " + problem.problem)
    }
}

/// One compressed frame of an MJPEG input: its JPEG, in the reader's own
/// buffer until the next call, and its place in the file's time base.
public struct JPEGFrame {
    public let bytes: UnsafeRawBufferPointer
    /// The frame's index in the time base (an AVI's empty chunks, frames
    /// the recorder dropped, take an index too).
    public let index: Int
    /// Where its JPEG starts in the file.
    public let offset: Int
}

/// An MJPEG input read frame by frame. Classes, because each owns one
/// frame buffer allocated once.
public protocol JPEGFrameSource: AnyObject {
    /// The first frame's size and chroma sampling; every frame must keep them.
    var width: Int { get }
    var height: Int { get }
    var colourSpace: Y4MColourSpace { get }
    var frameRate: FrameRate { get }
    /// Bytes of the input consumed so far.
    var offset: Int { get }
    /// The next frame, nil at the end of the input.
    func nextJPEG() throws(MJPEGError) -> JPEGFrame?
}

/// The size every JPEG of one input must keep, checked as a frame is found.
struct JPEGFrameSize {
    var width = 0
    var height = 0

    static var maximumWidth: Int { Y4MHeader.maximumWidth }
    static var maximumHeight: Int { Y4MHeader.maximumHeight }

    /// The first frame sets the size; a later one must match it.
    mutating func check(_ scanner: JPEGScanner, frame index: Int, byte: Int) throws(MJPEGError) {
        let size = String(scanner.width) + "x" + String(scanner.height)
        if width == 0 {
            guard scanner.width <= JPEGFrameSize.maximumWidth && scanner.height <= JPEGFrameSize.maximumHeight else {
                throw MJPEGError(MJPEGError.frame(index, byte: byte), "frames of " + size + " are larger than the "
                    + String(JPEGFrameSize.maximumWidth) + "x" + String(JPEGFrameSize.maximumHeight) + " replay takes")
            }
            width = scanner.width
            height = scanner.height
        } else if scanner.width != width || scanner.height != height {
            throw MJPEGError(MJPEGError.frame(index, byte: byte), "the frame size changed from " + String(width) + "x"
                + String(height) + " to " + size + " (every frame must keep the first one's)")
        }
    }
}

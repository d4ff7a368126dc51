/// An MJPEG input's problems (an AVI or a raw stream of JPEGs): the one
/// error type of video inputs (`VideoInputError`).
public typealias MJPEGError = VideoInputError

extension VideoInputError {
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

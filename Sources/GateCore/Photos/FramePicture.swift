/// A crossing's frame as `CrossingPictures.frame` draws it (enlarged to be
/// readable, the gate line dashed over it), made one row at a time into a
/// caller's buffer: the box encodes it in slices and never holds the
/// enlarged picture.
public struct FramePicture {
    /// The frame's luma, `frameWidth` x `frameHeight`, tightly packed.
    public let pixels: UnsafePointer<UInt8>
    public let frameWidth: Int
    public let frameHeight: Int
    public let scale: Int
    /// The picture's column holding the gate line.
    public let gateX: Int

    public init(pixels: UnsafePointer<UInt8>, width: Int, height: Int, gatePosition: Double) {
        self.pixels = pixels
        frameWidth = width
        frameHeight = height
        scale = CrossingPictures.scale(forWidth: width)
        gateX = min(width * scale - 1, max(0, Int((gatePosition * Double(width * scale)).rounded(.down))))
    }

    public var width: Int { frameWidth * scale }
    public var height: Int { frameHeight * scale }

    /// Picture row `y` into `out` (`width` bytes).
    public func row(_ y: Int, into out: UnsafeMutablePointer<UInt8>) {
        let source = pixels + (y / scale) * frameWidth
        if scale == 1 {
            UnsafeMutableRawPointer(out).copyMemory(from: source, byteCount: frameWidth)
        } else {
            for x in 0..<width { out[x] = source[x / scale] }
        }
        // Dashes of 6 rows, as `drawDashedVerticalLine` draws them.
        out[gateX] = (y / 6) % 2 == 0 ? 255 : 0
    }
}

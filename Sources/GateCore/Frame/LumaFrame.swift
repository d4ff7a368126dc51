/// A read-only view of a frame's luma plane, in place: a V4L2 mmap buffer,
/// a simulator buffer or a Y4M frame. Nothing is copied to make one.
///
/// The time base (issue 3): `timestampNanos` is the mid-exposure instant of
/// the top row; row r was exposed around timestampNanos + r / height x readout.
public struct LumaFrame {
    public let pixels: UnsafePointer<UInt8>
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let rowStride: Int
    /// Bytes from one luma sample to the next: 1 for GREY and planar YUV, 2 for YUYV.
    public let pixelStride: Int
    public let timestampNanos: Int64
    /// The capture sequence number (V4L2 `sequence`, or the frame index).
    public let sequence: UInt32

    public init(pixels: UnsafePointer<UInt8>, width: Int, height: Int, rowStride: Int, pixelStride: Int = 1,
                timestampNanos: Int64, sequence: UInt32) {
        precondition(width > 0 && height > 0 && pixelStride > 0 && rowStride >= width * pixelStride,
                     "frame geometry")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.pixelStride = pixelStride
        self.timestampNanos = timestampNanos
        self.sequence = sequence
    }

    @inline(__always)
    public func luma(x: Int, y: Int) -> UInt8 {
        pixels[y &* rowStride &+ x &* pixelStride]
    }
}

/// Which way the athlete crossed, as seen by the camera.
public enum CrossingDirection: Equatable, Sendable {
    case leftToRight
    case rightToLeft

    /// The protocol's spelling ("ltr" / "rtl").
    public var code: String { self == .leftToRight ? "ltr" : "rtl" }

    public init?(code: String) {
        switch code {
        case "ltr": self = .leftToRight
        case "rtl": self = .rightToLeft
        default: return nil
        }
    }
}

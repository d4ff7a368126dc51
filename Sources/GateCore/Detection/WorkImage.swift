/// The analysis image: the frame's luma box-averaged down to about
/// `workWidth` columns. Detection works here; the frame is only read.
public struct WorkImage {
    public let factor: Int
    public let width: Int
    public let height: Int
    public let sourceWidth: Int
    public let sourceHeight: Int

    public init(sourceWidth: Int, sourceHeight: Int, workWidth: Int) {
        precondition(sourceWidth >= 16 && sourceHeight >= 16, "frame too small for detection")
        factor = max(1, sourceWidth / max(16, workWidth))
        width = sourceWidth / factor
        height = sourceHeight / factor
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }

    public var pixelCount: Int { width * height }

    /// The gate line in work-image columns.
    public func gateColumn(_ gatePosition: Double) -> Double {
        gatePosition * Double(sourceWidth) / Double(factor)
    }

    public func downsample(_ frame: LumaFrame, into target: UnsafeMutablePointer<UInt8>) {
        precondition(frame.width == sourceWidth && frame.height == sourceHeight, "frame size changed")
        let f = factor
        let area = f * f
        for wy in 0..<height {
            let out = target + wy * width
            for wx in 0..<width {
                var sum = 0
                for dy in 0..<f {
                    let row = frame.pixels + (wy * f + dy) * frame.rowStride + wx * f * frame.pixelStride
                    for dx in 0..<f { sum &+= Int(row[dx &* frame.pixelStride]) }
                }
                out[wx] = UInt8(truncatingIfNeeded: (sum + area / 2) / area)
            }
        }
    }
}

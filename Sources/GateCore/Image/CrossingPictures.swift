/// The two pictures of a crossing that coaches look at, and how big they
/// are drawn: small frames are enlarged so a person can read them.
public enum CrossingPictures {
    /// Pictures are enlarged by a whole factor until about this wide.
    public static let readableWidth = 640
    public static let maximumScale = 4

    /// The whole-number enlargement of a frame `width` pixels wide.
    public static func scale(forWidth width: Int) -> Int {
        max(1, min(maximumScale, readableWidth / max(1, width)))
    }

    /// The pixel column of a frame holding the gate line (`gatePosition` x width).
    public static func gateColumn(width: Int, gatePosition: Double) -> Int {
        max(0, min(width - 1, Int((gatePosition * Double(width)).rounded(.down))))
    }

    /// The frame at the crossing, enlarged, with the gate line dashed over it.
    public static func frame(_ frame: LumaFrame, gatePosition: Double) -> GreyImage {
        let scale = scale(forWidth: frame.width)
        var image = GreyImage(frame).scaled(columns: scale, rows: scale)
        let x = Int((gatePosition * Double(image.width)).rounded(.down))
        image.drawDashedVerticalLine(x: min(image.width - 1, max(0, x)))
        return image
    }
}

/// An 8-bit grey picture, rows top to bottom, tightly packed: what the box
/// writes as PNG for coaches. Made only when there is a crossing to show,
/// never on the frame path.
public struct GreyImage: Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, value: UInt8 = 0) {
        precondition(width > 0 && height > 0, "image size")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: value, count: width * height)
    }

    /// A copy of a frame's luma.
    public init(_ frame: LumaFrame) {
        self.init(width: frame.width, height: frame.height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = frame.luma(x: x, y: y) }
        }
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Each pixel repeated `columns` times across and `rows` times down.
    public func scaled(columns: Int, rows: Int) -> GreyImage {
        precondition(columns >= 1 && rows >= 1, "scale")
        if columns == 1 && rows == 1 { return self }
        var out = GreyImage(width: width * columns, height: height * rows)
        for y in 0..<out.height {
            let source = (y / rows) * width
            let target = y * out.width
            for x in 0..<out.width { out.pixels[target + x] = pixels[source + x / columns] }
        }
        return out
    }
}

/// Marks drawn over pictures. Black and white in turn, so a mark shows on a
/// bright sky and on a dark shirt alike.
extension GreyImage {
    /// A dashed vertical line at column `x`, over the whole height.
    public mutating func drawDashedVerticalLine(x: Int, dash: Int = 6) {
        guard x >= 0 && x < width else { return }
        for y in 0..<height { self[x, y] = (y / dash) % 2 == 0 ? 255 : 0 }
    }

    /// A vertical tick at column `x`, rows `rows`: white, edged in black
    /// on both sides.
    public mutating func drawTick(x: Int, rows: Range<Int>) {
        let rows = max(0, rows.lowerBound)..<min(height, rows.upperBound)
        for y in rows {
            if x - 1 >= 0 && x - 1 < width { self[x - 1, y] = 0 }
            if x >= 0 && x < width { self[x, y] = 255 }
            if x + 1 >= 0 && x + 1 < width { self[x + 1, y] = 0 }
        }
    }
}

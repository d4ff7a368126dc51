/// A frame rate as the exact fraction a file states (F30000:1001), and the
/// time base of a file: frame i is stamped t_i = i x den / num seconds.
/// Integer arithmetic throughout, so 29.97 fps does not drift.
public struct FrameRate: Equatable {
    public let numerator: UInt32
    public let denominator: UInt32

    public init(numerator: UInt32, denominator: UInt32) {
        precondition(numerator > 0 && denominator > 0, "frame rate")
        self.numerator = numerator
        self.denominator = denominator
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    /// Nanoseconds per frame, for display and windows (not for stamping).
    public var frameNanos: Double { 1e9 * Double(denominator) / Double(numerator) }

    /// t_i = floor(i x 1e9 x den / num) nanoseconds; Int64.max beyond ~292 years.
    public func timestampNanos(frame: Int) -> Int64 {
        precondition(frame >= 0, "negative frame index")
        // 1e9 x den < 2^63: the product is exact in 128 bits.
        let scaled = UInt64(frame).multipliedFullWidth(by: 1_000_000_000 * UInt64(denominator))
        let divisor = UInt64(numerator)
        guard scaled.high < divisor else { return Int64.max }
        let quotient = divisor.dividingFullWidth(scaled).quotient
        return quotient > UInt64(Int64.max) ? Int64.max : Int64(quotient)
    }

    /// The index of the frame whose stamp is nearest `nanos` (0 before the first).
    public func nearestFrame(atNanos nanos: Int64) -> Int {
        guard nanos > 0 else { return 0 }
        // i = round(nanos x num / (1e9 x den)), exactly.
        let divisor = 1_000_000_000 * UInt64(denominator)
        var scaled = UInt64(nanos).multipliedFullWidth(by: UInt64(numerator))
        let (low, carry) = scaled.low.addingReportingOverflow(divisor / 2)
        scaled = (scaled.high + (carry ? 1 : 0), low)
        guard scaled.high < divisor else { return Int.max }
        let quotient = divisor.dividingFullWidth(scaled).quotient
        return quotient > UInt64(Int.max) ? Int.max : Int(quotient)
    }

    /// "120", or "29.970" when the rate is not a whole number.
    public var text: String {
        numerator % denominator == 0 ? String(numerator / denominator) : DecimalText.fixed(framesPerSecond, places: 3)
    }
}

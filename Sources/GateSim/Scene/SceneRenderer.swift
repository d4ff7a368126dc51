import GateCore

/// What the simulated camera looks at and how its sensor behaves.
public struct CameraModel: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Metres of lane across the full width of the image.
    public var viewWidthMetres: Double
    /// Image row of the ground line, as a fraction of the height.
    public var groundRow: Double
    public var readoutNanos: Int64
    public var exposureNanos: Int64
    /// Sensor noise, one sigma, in luma steps.
    public var noiseSigma: Double

    public init(width: Int, height: Int, viewWidthMetres: Double, groundRow: Double = 0.92,
                readoutNanos: Int64, exposureNanos: Int64, noiseSigma: Double) {
        self.width = width; self.height = height; self.viewWidthMetres = viewWidthMetres
        self.groundRow = groundRow; self.readoutNanos = readoutNanos; self.exposureNanos = exposureNanos
        self.noiseSigma = noiseSigma
    }

    public var pixelsPerMetre: Double { Double(width) / viewWidthMetres }
}

/// Renders a scene over a static background, one row at a time, each row at
/// its own exposure instant (rolling shutter), averaged over the exposure
/// (motion blur), with anti-aliased edges, the scene's light (flicker,
/// cloud) and sensor noise. All storage is allocated in init; `render`
/// allocates nothing.
public final class SceneRenderer {
    public let camera: CameraModel
    public var scene: Scene
    private let seed: UInt64
    private let background: UnsafeMutablePointer<Float>
    private let rowAccumulator: UnsafeMutablePointer<Float>
    private let rowLayer: UnsafeMutablePointer<Float>
    /// One row's noise draws (width rounded up to eight).
    private let noiseSums: UnsafeMutablePointer<UInt32>
    private var parts: [(Capsule, Double)] = []
    /// The runners and figures that may show in the frame being drawn: a
    /// soak's hundreds of runners are otherwise each looked at in every
    /// row of every exposure sample.
    private var frameRunners: [Int] = []
    private var frameFigures: [Int] = []
    /// Off only in the test that proves the cull changes no pixel.
    var cullsRunners = true
    /// The exposure sub-sample being drawn: whether rowLayer holds it yet,
    /// and the background row and shift it starts from.
    private var layerPainted = false
    private var layerShiftDx = 0
    private var currentBackgroundRow: UnsafeMutablePointer<Float>
    /// Sub-samples across the exposure: two per millisecond, 1...16.
    private let exposureSamples: Int

    public convenience init(camera: CameraModel, runners: [Runner], seed: UInt64) {
        self.init(camera: camera, scene: Scene(runners: runners), seed: seed)
    }

    public init(camera: CameraModel, scene: Scene, seed: UInt64) {
        self.camera = camera
        self.scene = scene
        self.seed = seed
        background = .allocate(capacity: camera.width * camera.height)
        rowAccumulator = .allocate(capacity: camera.width)
        rowLayer = .allocate(capacity: camera.width)
        currentBackgroundRow = background
        noiseSums = .allocate(capacity: (camera.width + 7) & ~7)
        parts.reserveCapacity(16)
        exposureSamples = max(1, min(16, Int(camera.exposureNanos / 500_000)))
        paintBackground()
    }

    deinit {
        background.deallocate(); rowAccumulator.deallocate(); rowLayer.deallocate(); noiseSums.deallocate()
    }

    /// Sensor noise: per pixel, the sum of the four bytes of a 32-bit
    /// xorshift draw (Irwin-Hall of four uniform bytes, close to a normal;
    /// one sigma is 147.8), eight independent generators side by side so the
    /// draws run in vector lanes. Each row seeds its lanes from the frame's
    /// SplitMix64, so every pixel's noise is fresh in every frame. (A 64-bit
    /// SplitMix draw per pixel was three quarters of a simulated race's time.)
    @inline(__always)
    private func drawNoise(_ random: inout SplitMix64) {
        let w = camera.width
        var lanes = SIMD8<UInt32>(truncatingIfNeeded: SIMD8<UInt64>(
            random.next(), random.next(), random.next(), random.next(),
            random.next(), random.next(), random.next(), random.next())) | SIMD8<UInt32>(repeating: 1)
        let byte = SIMD8<UInt32>(repeating: 0xFF)
        var x = 0
        let sums = UnsafeMutableRawPointer(noiseSums)
        while x < w {
            lanes ^= lanes &<< 13
            lanes ^= lanes &>> 17
            lanes ^= lanes &<< 5
            let sum = (lanes & byte) &+ ((lanes &>> 8) & byte) &+ ((lanes &>> 16) & byte) &+ (lanes &>> 24)
            sums.storeBytes(of: sum, toByteOffset: 4 &* x, as: SIMD8<UInt32>.self)
            x &+= 8
        }
    }

    /// A track scene: bright sky, a darker fence band, lane lines on the ground.
    private func paintBackground() {
        var random = SplitMix64(seed: seed ^ 0xB4C6_0000_0000_0001)
        let w = camera.width, h = camera.height
        let ground = Int(camera.groundRow * Double(h))
        let postSpacing = max(4, Int(camera.pixelsPerMetre / 2))
        let postWidth = max(2, Int(camera.pixelsPerMetre / 40))
        let block = max(2, Int(camera.pixelsPerMetre / 16))
        let blocksAcross = (w + block - 1) / block
        for y in 0..<h {
            let v = Double(y) / Double(h)
            var base: Double
            if y < h / 5 { base = 175 - 20 * v }               // sky
            else if y < ground - h / 6 { base = 132 + 10 * v } // stands and fence
            else if y < ground { base = 120 }                  // track surface behind
            else { base = 105 }                                // lane in front
            for x in 0..<w {
                var value = base
                if y >= h / 5 && y < ground - h / 6 && x % postSpacing < postWidth { value -= 25 }
                value += 3 * (random.unit() - 0.5)
                background[y * w + x] = Float(value)
            }
        }
        guard scene.backgroundTexture > 0 else { return }
        var texture = SplitMix64(seed: seed ^ 0x7E78_7475_7265)
        var offsets = [Double](repeating: 0, count: blocksAcross)
        for y in 0..<h {
            if y % block == 0 { for i in 0..<blocksAcross { offsets[i] = scene.backgroundTexture * (2 * texture.unit() - 1) } }
            for x in 0..<w { background[y * w + x] += Float(offsets[x / block]) }
        }
    }

    /// Renders the frame whose top row is exposed (mid-exposure) at
    /// `topRowNanos` into `target` (width x height luma, tightly packed).
    public func render(topRowNanos: Int64, frameIndex: UInt64, into target: UnsafeMutablePointer<UInt8>) {
        let w = camera.width, h = camera.height
        let metresPerPixel = camera.viewWidthMetres / Double(w)
        let groundPixel = camera.groundRow * Double(h)
        var noise = SplitMix64(seed: seed &+ frameIndex &* 0x9E37_79B9_7F4A_7C15)
        let noiseScale = Float(camera.noiseSigma / 147.800_541)   // one sigma of four uniform bytes: sqrt(4 (256^2 - 1) / 12)
        let samples = exposureSamples
        let scale = 1 / Float(samples)
        let from = topRowNanos - camera.exposureNanos, until = topRowNanos + camera.readoutNanos + camera.exposureNanos
        SceneRenderer.cull(scene.runners, from: from, until: until, viewMetres: camera.viewWidthMetres, culls: cullsRunners, into: &frameRunners)
        SceneRenderer.cull(scene.figures, from: from, until: until, viewMetres: camera.viewWidthMetres, culls: cullsRunners, into: &frameFigures)
        for row in 0..<h {
            let rowNanos = topRowNanos + camera.readoutNanos * Int64(row) / Int64(h)
            let shift = scene.shift(atNanos: rowNanos)
            let sceneRow = min(h - 1, max(0, row + shift.dy))
            let worldY = (groundPixel - (Double(sceneRow) + 0.5)) * metresPerPixel
            let backgroundRow = background + sceneRow * w
            for i in 0..<w { rowAccumulator[i] = 0 }
            for k in 0..<samples {
                let offset = camera.exposureNanos * Int64(2 * k + 1) / Int64(2 * samples) - camera.exposureNanos / 2
                let t = rowNanos + offset
                // The layer is copied from the background only when something
                // is drawn on it: most rows of most frames show nobody, and
                // adding the background straight in gives the same sums.
                layerPainted = false
                layerShiftDx = shift.dx
                currentBackgroundRow = backgroundRow
                let dxMetres = Double(shift.dx) * metresPerPixel
                if worldY > -0.1 && worldY < Runner.height + 0.2 {
                    drawRunners(scene.figures, frameFigures, at: t, worldY: worldY, metresPerPixel: metresPerPixel, dx: dxMetres)
                    drawRunners(scene.runners, frameRunners, at: t, worldY: worldY, metresPerPixel: metresPerPixel, dx: dxMetres)
                }
                for disc in scene.discs {
                    let c = disc.centre(atNanos: t)
                    guard let span = Capsule(c, c, radius: disc.radius).slice(atY: worldY) else { continue }
                    blend(low: (span.low - dxMetres) / metresPerPixel, high: (span.high - dxMetres) / metresPerPixel,
                          luma: Float(disc.luma))
                }
                let light = Float(scene.light(atNanos: t))
                if layerPainted {
                    for i in 0..<w { rowAccumulator[i] += rowLayer[i] * light }
                } else if shift.dx == 0 {
                    for i in 0..<w { rowAccumulator[i] += backgroundRow[i] * light }
                } else {
                    for i in 0..<w { rowAccumulator[i] += backgroundRow[min(w - 1, max(0, i + shift.dx))] * light }
                }
            }
            let out = target + row * w
            drawNoise(&noise)
            // Clamped, then rounded by adding 1.5 * 2^23: the float's low
            // mantissa bits are then the nearest integer. No conversion with
            // range checks, so the compiler vectorises the loop.
            for x in 0..<w {
                var value = rowAccumulator[x] * scale + (Float(noiseSums[x]) - 510) * noiseScale
                value = value < 0 ? 0 : value
                value = value > 255 ? 255 : value
                out[x] = UInt8(truncatingIfNeeded: (value + 12_582_912).bitPattern)
            }
        }
    }

    /// Those of `runners` whose extent may meet the view (widened by a
    /// knock's few pixels and more) at any instant from `from` to `until`:
    /// each runner moves one way, so its extents at the two ends bound it.
    /// Only runners that `drawRunners` would skip in every row are left
    /// out, so the frame is the same to the bit. No allocation once the
    /// index buffer has grown to the scene's size.
    static func cull(_ runners: [Runner], from: Int64, until: Int64, viewMetres: Double, culls: Bool = true, into visible: inout [Int]) {
        visible.removeAll(keepingCapacity: true)
        visible.reserveCapacity(runners.count)
        let margin = 1.0
        for (i, runner) in runners.enumerated() {
            guard culls else { visible.append(i); continue }
            let a = max(from, runner.visibleFromNanos), b = min(until, runner.visibleUntilNanos - 1)
            guard a <= b else { continue }
            let first = runner.extent(atNanos: a), last = runner.extent(atNanos: b)
            let low = min(first.low, last.low), high = max(first.high, last.high)
            if high < -margin || low > viewMetres + margin { continue }
            visible.append(i)
        }
    }

    private func drawRunners(_ all: [Runner], _ indices: [Int], at t: Int64, worldY: Double, metresPerPixel: Double, dx: Double) {
        for i in indices {
            let runner = all[i]
            let extent = runner.extent(atNanos: t)
            if extent.high < dx || extent.low > camera.viewWidthMetres + dx { continue }
            if worldY < runner.baseY - 0.1 || worldY > runner.baseY + (Runner.height + 0.2) * runner.scale { continue }
            runner.parts(atNanos: t, into: &parts)
            for (shape, luma) in parts {
                guard let span = shape.slice(atY: worldY) else { continue }
                blend(low: (span.low - dx) / metresPerPixel, high: (span.high - dx) / metresPerPixel, luma: Float(luma))
            }
        }
    }

    /// Paints [low, high) (pixel units) over rowLayer with area coverage.
    @inline(__always)
    private func blend(low: Double, high: Double, luma: Float) {
        let w = camera.width
        guard high > 0, low < Double(w) else { return }
        let first = max(0, Int(low.rounded(.down)))
        let last = min(w - 1, Int(high.rounded(.down)))
        if first > last { return }
        if !layerPainted {
            let backgroundRow = currentBackgroundRow
            for i in 0..<w { rowLayer[i] = backgroundRow[min(w - 1, max(0, i + layerShiftDx))] }
            layerPainted = true
        }
        for x in first...last {
            let cover = min(high, Double(x + 1)) - max(low, Double(x))
            if cover <= 0 { continue }
            let c = Float(min(1, cover))
            rowLayer[x] = rowLayer[x] * (1 - c) + luma * c
        }
    }
}

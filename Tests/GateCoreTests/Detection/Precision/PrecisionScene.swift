import Testing
@testable import GateCore

/// A side-view figure drawn without the simulator, for precision mode's
/// tests: a torso (a capsule that may lean), a head, two legs and an
/// optional forearm held ahead, over a background with posts, each pixel
/// its area coverage (four sub-rows, exact spans across), a little noise.
/// Units are pixels of a 320 x 240 frame at 80 pixels per metre; the
/// runner moves left to right at `speed` and its torso front reaches
/// `gateX` at `crossing` seconds.
struct PrecisionScene {
    var width = 320
    var height = 240
    var fps = 120.0
    /// Sensor readout, top row to bottom row (rolling shutter), seconds.
    var readout = 0.0
    var background = 140.0
    var post = 112.0
    var torsoLuma = 40.0
    var skinLuma = 175.0
    var legLuma = 80.0
    var noise = 1.5
    /// Runners: crossing instant (s), speed (px/s), lean (rad), forearm reach ahead of the torso front (px).
    struct Runner {
        var crossing = 0.9
        var speed = 640.0
        var lean = 0.0
        var armReach = 0.0
        /// A standing start: with an acceleration (px/s^2), the runner stands
        /// still in view until `start` (s), then accelerates from rest so that
        /// the torso front reaches the gate at `crossing`; `speed` is unused.
        var acceleration = 0.0
        var start = 0.0
        /// This runner's torso half depth, metres (nil: the scene's `torsoDepth`).
        var torsoDepth: Double? = nil
    }
    var runners = [Runner()]
    var gateX = 160.0
    /// From `lightStepAt` seconds every luma is multiplied by `lightFactor` (a cloud).
    var lightStepAt = Double.infinity
    var lightFactor = 1.0
    /// Mains flicker: every luma times 1 + flicker x sin(2 pi 100 Hz t), t the row's exposure instant.
    var flicker = 0.0
    /// From `shiftAt` seconds the whole view is shifted by `shift` pixels (a bumped camera).
    var shiftAt = Double.infinity
    var shift = 0
    /// A ball rolling low from the left edge at 0.6 s: radius px, speed px/s (0: none).
    var ballRadius = 0.0
    var ballSpeed = 0.0

    static let scale = 80.0          // pixels per metre
    static let ground = 230.0        // image row of the ground
    /// The torso's half depth and the head's radius, metres.
    var torsoDepth = 0.15
    var headRadius = 0.11
    /// A neck of this radius (metres, 0: none) holds the head above the
    /// torso's top along its lean, instead of the head resting on it.
    var neckRadius = 0.0
    /// On odd frames the neck has this radius instead (0: no change): thick
    /// enough, it joins the head's core to the torso's in those frames only.
    var oddFramesNeckRadius = 0.0
    var torsoRadius: Double { torsoDepth * PrecisionScene.scale }
    /// A raised arm (0: none): the upper arm forwards from the chest, the
    /// forearm upright this many pixels ahead of the head, the scene
    /// between hand and head.
    var raisedHandGap = 0.0
    /// In every other run of this many frames (0: never) a trailing leg as
    /// deep as the torso and in its luma (tights of the shirt's colour, both
    /// thighs as one) joins the torso: the torso found runs on down to the
    /// foot in those frames only.
    var deepLegsRun = 0
    /// An arm hanging down the torso near its front, past the hips (nil:
    /// none), in this luma: as close to the scene's, it cuts the torso's
    /// silhouette in two, a sliver in front.
    var hangingArmLuma: Double? = nil
    /// A bare arm (skin) lying along the torso's back from the shoulder to
    /// past the hips, its outer edge a pixel behind the torso's back: the
    /// back edge is skin over the torso's whole length (false: none).
    var bareArmAlongTheBack = false
    /// An upper arm (0.3 m, in the skin's luma) hanging from the shoulder,
    /// 0.05 m below the torso's top on its axis, swung forward by this angle
    /// from straight down (radians; nil: none): drawn over the torso, it
    /// covers the torso's front near its top.
    var shoulderArmAngle: Double? = nil
    /// That upper arm's luma (nil: the skin's; the torso's: a sleeve).
    var shoulderArmLuma: Double? = nil
    /// In every other run of this many frames (0: in every frame) that
    /// upper arm is drawn: a swinging arm covers the top for a while, then
    /// leaves it open.
    var shoulderArmRun = 0
    /// The far arm (nil: none): behind the torso, along its front from the
    /// top's centre to the hips, its outer edge this many pixels ahead of
    /// the torso's front, in `farArmLuma`. Less than a limb's reach past
    /// the opened torso, it is part of the front's silhouette.
    var farArmAhead: Double? = nil
    var farArmLuma = 100.0
    /// The torso a box instead of a capsule: its front straight up to the
    /// top corner, the corner its most forward point when it leans.
    var boxTorso = false
    /// That box's corners rounded to this fraction of its half depth.
    var boxCornerFraction = 0.0
    /// A striped shirt (nil: solid): image rows in bands this many rows
    /// deep, every other band in `luma` instead of the torso's.
    var torsoStripes: (rows: Int, luma: Double)? = nil

    struct Capsule {
        var ax: Double, ay: Double, bx: Double, by: Double, r: Double
        /// Cut square at both ends: a box (a torso's straight front and sharp corners).
        var squareEnds = false
        /// With `squareEnds`, the corners rounded to this radius (0: sharp).
        var cornerRadius = 0.0
        /// Drawn in the scene's `torsoStripes` (the torso).
        var striped = false
        /// The x interval inside the capsule on the horizontal line at y.
        func span(atY y: Double) -> (Double, Double)? {
            var low = Double.infinity, high = -Double.infinity
            func disc(_ cx: Double, _ cy: Double) {
                let d = r * r - (y - cy) * (y - cy)
                if d >= 0 { let h = d.squareRoot(); low = min(low, cx - h); high = max(high, cx + h) }
            }
            if !squareEnds { disc(ax, ay); disc(bx, by) }
            let dx = bx - ax, dy = by - ay
            let length = (dx * dx + dy * dy).squareRoot()
            if squareEnds && cornerRadius > 0 && length > 1e-9 {
                // A rounded box: the box narrowed by the radius, the box
                // shortened by it, and a disc at each corner between.
                let rc = min(cornerRadius, r), ux = dx / length, uy = dy / length
                var narrow = self
                narrow.cornerRadius = 0
                narrow.r = r - rc
                var short = narrow
                short.r = r
                short.ax = ax + ux * rc; short.ay = ay + uy * rc
                short.bx = bx - ux * rc; short.by = by - uy * rc
                for part in [narrow, short] {
                    if let (l, h) = part.span(atY: y) { low = min(low, l); high = max(high, h) }
                }
                let nx = -uy * (r - rc), ny = ux * (r - rc)
                for (ex, ey) in [(short.ax, short.ay), (short.bx, short.by)] {
                    for side in [-1.0, 1.0] {
                        let cx = ex + side * nx, cy = ey + side * ny, d = rc * rc - (y - cy) * (y - cy)
                        if d >= 0 { let h = d.squareRoot(); low = min(low, cx - h); high = max(high, cx + h) }
                    }
                }
                return low <= high ? (low, high) : nil
            }
            if length > 1e-9 {
                let nx = -dy / length * r, ny = dx / length * r
                let corners = [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]
                for k in 0..<4 {
                    let p = corners[k], q = corners[(k + 1) % 4]
                    guard (p.1 <= y && q.1 >= y) || (q.1 <= y && p.1 >= y), p.1 != q.1 else { continue }
                    let x = p.0 + (y - p.1) / (q.1 - p.1) * (q.0 - p.0)
                    low = min(low, x); high = max(high, x)
                }
            }
            return low <= high ? (low, high) : nil
        }
    }

    /// Torso front at time t (pixels): it reaches gateX at the crossing.
    func front(_ runner: Runner, at t: Double) -> Double {
        guard runner.acceleration > 0 else { return gateX + runner.speed * (t - runner.crossing) }
        let run = runner.crossing - runner.start, moving = max(0, t - runner.start)
        return gateX - 0.5 * runner.acceleration * (run * run - moving * moving)
    }

    /// The parts of a runner at time t, back to front, with their luma (image rows grow downwards).
    func parts(_ runner: Runner, at t: Double, frame: Int = 0) -> [(Capsule, Double)] {
        let s = PrecisionScene.scale, g = PrecisionScene.ground, r = runner.torsoDepth.map { $0 * s } ?? torsoRadius
        let neckRadius = frame % 2 == 1 && oddFramesNeckRadius > 0 ? oddFramesNeckRadius : neckRadius
        let sin = PortableMath.sin(runner.lean), cos = PortableMath.cos(runner.lean)
        // A box's most forward point is its top front corner; rounded, the
        // corner's disc (its centre rc in from both sides) reaches rc past its centre.
        let rc = boxTorso ? min(boxCornerFraction, 1) * r : 0
        let reach = 0.5 * s * sin + (boxTorso ? (r - rc) * cos - rc * sin + rc : r)
        let hipX = front(runner, at: t) - reach, hipY = g - 0.95 * s
        let topX = hipX + 0.5 * s * sin, topY = hipY - 0.5 * s * cos
        // On a neck the head's centre is a neck and a head's radius past the torso's end.
        let headAxis = neckRadius > 0 ? 0.5 + torsoDepth + 0.06 + headRadius : 0.7
        let headX = hipX + headAxis * s * sin + 0.07 * s, headY = hipY - headAxis * s * cos
        var parts: [(Capsule, Double)] = [
            (Capsule(ax: hipX - 0.1 * s, ay: hipY, bx: hipX - 0.2 * s, by: g - 0.05 * s, r: 0.07 * s), legLuma),
            (Capsule(ax: hipX, ay: hipY, bx: topX, by: topY, r: r, squareEnds: boxTorso,
                     cornerRadius: boxCornerFraction * r, striped: true), torsoLuma),
        ]
        if let ahead = farArmAhead {
            let armRadius = 0.05 * s, out = r + ahead - armRadius
            parts.insert((Capsule(ax: topX + out * cos, ay: topY + out * sin, bx: hipX + out * cos, by: hipY + out * sin,
                                  r: armRadius), farArmLuma), at: 1)
        }
        if deepLegsRun > 0 && (frame / deepLegsRun) % 2 == 1 {
            parts.append((Capsule(ax: hipX, ay: hipY, bx: hipX - 0.4 * s, by: g - r, r: r), torsoLuma))
        }
        if neckRadius > 0 { parts.append((Capsule(ax: topX, ay: topY, bx: headX, by: headY, r: neckRadius * s), skinLuma)) }
        parts += [
            (Capsule(ax: headX, ay: headY, bx: headX, by: headY, r: headRadius * s), skinLuma),
            (Capsule(ax: hipX + 0.1 * s, ay: hipY, bx: hipX + 0.15 * s, by: g - 0.05 * s, r: 0.07 * s), legLuma),
        ]
        if raisedHandGap > 0 {
            let r = 0.045 * s
            let handX = headX + headRadius * s + raisedHandGap + r, elbowY = headY + 0.3 * s
            parts.append((Capsule(ax: topX, ay: topY + 0.15 * s, bx: handX, by: elbowY, r: r), skinLuma))
            parts.append((Capsule(ax: handX, ay: elbowY, bx: handX, by: headY - 0.08 * s, r: r), skinLuma))
        }
        if let luma = hangingArmLuma {
            // Along the torso's axis, 3 px towards its front: the arm's front
            // edge 7 px from the axis, the torso's 12.
            let ox = 3 * cos, oy = 3 * sin
            parts.append((Capsule(ax: topX + ox, ay: topY + oy, bx: hipX + ox - 0.1 * s * sin, by: hipY + oy + 0.25 * s,
                                  r: 0.05 * s), luma))
        }
        if bareArmAlongTheBack {
            let ox = -(r - 3) * cos, oy = -(r - 3) * sin
            parts.append((Capsule(ax: topX + ox, ay: topY + oy, bx: hipX + ox - 0.1 * s * sin, by: hipY + oy + 0.2 * s,
                                  r: 0.05 * s), skinLuma))
        }
        if let angle = shoulderArmAngle, shoulderArmRun == 0 || (frame / shoulderArmRun) % 2 == 1 {
            // On the axis 0.05 m below the top: a capsule's top is r past the axis's end, a box's at it.
            let below = (boxTorso ? 0 : r) - 0.05 * s
            let shoulderX = topX + below * sin, shoulderY = topY - below * cos
            let elbowX = shoulderX + 0.3 * s * PortableMath.sin(angle), elbowY = shoulderY + 0.3 * s * PortableMath.cos(angle)
            parts.append((Capsule(ax: shoulderX, ay: shoulderY, bx: elbowX, by: elbowY, r: 0.045 * s),
                          shoulderArmLuma ?? skinLuma))
        }
        if runner.armReach > 0 {
            // A forearm held level at chest height, from inside the torso to ahead of it.
            let y = hipY - 0.35 * s
            let frontX = front(runner, at: t)
            parts.append((Capsule(ax: frontX - r, ay: y, bx: frontX + runner.armReach, by: y, r: 0.045 * s), skinLuma))
        }
        return parts
    }

    func backgroundLuma(x: Int, y: Int) -> Double {
        var v = y < 60 ? 170.0 : (Double(y) < PrecisionScene.ground ? background : 105)
        if y >= 60 && Double(y) < PrecisionScene.ground - 40 && x % 40 < 3 { v = post }
        return v
    }

    func render(frame index: Int, into pixels: UnsafeMutablePointer<UInt8>) {
        var random = UInt64(truncatingIfNeeded: index &* 0x9E37_79B9 &+ 12345)
        let t0 = Double(index) / fps
        var row = [Double](repeating: 0, count: width)
        for y in 0..<height {
            let t = t0 + readout * Double(y) / Double(height)
            let dx = t >= shiftAt ? shift : 0
            for x in 0..<width { row[x] = backgroundLuma(x: x + dx + 8, y: y) }
            var layer = row
            var cover = [Double](repeating: 0, count: width)
            // Four sub-rows: coverage of each part, painted back to front.
            for runner in runners {
                for (capsule, luma) in parts(runner, at: t, frame: index) {
                    for x in 0..<width { cover[x] = 0 }
                    for k in 0..<4 {
                        let yy = Double(y) + (Double(k) + 0.5) / 4
                        guard let (low, high) = capsule.span(atY: yy) else { continue }
                        let first = max(0, Int(low.rounded(.down))), last = min(width - 1, Int(high.rounded(.down)))
                        if first > last { continue }
                        for x in first...last { cover[x] += max(0, min(high, Double(x + 1)) - max(low, Double(x))) / 4 }
                    }
                    var luma = luma
                    if capsule.striped, let stripes = torsoStripes, (y / stripes.rows) % 2 == 1 { luma = stripes.luma }
                    for x in 0..<width where cover[x] > 0 { layer[x] = layer[x] * (1 - cover[x]) + luma * cover[x] }
                }
            }
            if ballRadius > 0 {
                let bx = ballSpeed * (t - 0.6) - ballRadius, by = PrecisionScene.ground - ballRadius
                let ball = Capsule(ax: bx, ay: by, bx: bx, by: by, r: ballRadius)
                for x in 0..<width { cover[x] = 0 }
                for k in 0..<4 {
                    let yy = Double(y) + (Double(k) + 0.5) / 4
                    guard let (low, high) = ball.span(atY: yy) else { continue }
                    let first = max(0, Int(low.rounded(.down))), last = min(width - 1, Int(high.rounded(.down)))
                    if first > last { continue }
                    for x in first...last { cover[x] += max(0, min(high, Double(x + 1)) - max(low, Double(x))) / 4 }
                }
                for x in 0..<width where cover[x] > 0 { layer[x] = layer[x] * (1 - cover[x]) + 60 * cover[x] }
            }
            var light = t >= lightStepAt ? lightFactor : 1
            if flicker > 0 { light *= 1 + flicker * PortableMath.sin(PortableMath.twoPi * 100 * t) }
            for x in 0..<width {
                random = random &* 6364136223846793005 &+ 1442695040888963407
                let n = (Double(random >> 40) / Double(1 << 24) - 0.5) * 2 * noise * 1.73
                pixels[y * width + x] = UInt8(max(0, min(255, (layer[x] * light + n).rounded())))
            }
        }
    }

    /// When runner k's torso front reaches the gate (seconds).
    func truth(_ k: Int = 0) -> Double { runners[k].crossing }

    /// Runs precision mode (or, learning from the first frames, photo-finish
    /// mode's detector) over `seconds` of frames; returns its crossings.
    func detect(seconds: Double, settings: DetectorSettings = DetectorSettings(), learning: SceneLearning = .calibration,
                inspect: ((PrecisionDetector, Int) -> Void)? = nil) -> [DetectedCrossing] {
        var s = settings
        s.gatePosition = gateX / Double(width)
        s.readoutNanos = Int64((readout * 1e9).rounded())
        let detector = PrecisionDetector(width: width, height: height, settings: s, learning: learning)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        defer { pixels.deallocate() }
        var found: [DetectedCrossing] = []
        for i in 0..<Int(seconds * fps) {
            render(frame: i, into: pixels)
            let frame = LumaFrame(pixels: pixels, width: width, height: height, rowStride: width,
                                  timestampNanos: Int64((Double(i) / fps * 1e9).rounded()), sequence: UInt32(i))
            if let c = detector.process(frame) { found.append(c) }
            inspect?(detector, i)
        }
        // The frames end: what the tracks still wait for is timed, as at a clip's end.
        detector.finish { found.append($0) }
        return found
    }
}

/// Timing a scene's crossings against its truth.
enum PrecisionTiming {
    static func errorMs(_ crossing: DetectedCrossing, _ truth: Double) -> Double {
        (Double(crossing.timeNanos) / 1e9 - truth) * 1000
    }

    /// Runs `scene` for 1.2 s: exactly one crossing, within `ms` of the
    /// truth (`label` names the case in the message); returns it.
    @discardableResult
    static func timedOnce(_ scene: PrecisionScene, within ms: Double, _ label: String = "",
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> DetectedCrossing {
        let found = scene.detect(seconds: 1.2)
        try #require(found.count == 1, sourceLocation: sourceLocation)
        let error = errorMs(found[0], scene.truth())
        #expect(abs(error) < ms, "\(label)error \(error) ms", sourceLocation: sourceLocation)
        return found[0]
    }
}

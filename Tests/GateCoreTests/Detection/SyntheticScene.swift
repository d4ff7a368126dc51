@testable import GateCore

/// A tiny hand-made scene for detector tests: a flat background, a
/// rectangular "torso" moving at constant speed, optional extras. Each
/// pixel's value is its area coverage, so edges are sub-pixel exact.
struct SyntheticScene {
    var width = 320
    var height = 240
    var fps = 120.0
    var background: UInt8 = 150
    var torsoLuma: UInt8 = 40
    /// Torso rectangle, pixels: front edge at `frontAtZero + speed * t`.
    var frontAtZero = -40.0
    var speedPixelsPerSecond = 400.0
    var torsoDepth = 24.0
    var bodyTop = 40.0, bodyBottom = 220.0
    /// An arm held ahead of the torso: rows and how far it reaches.
    var armReach = 0.0
    var armRows = 96.0...104.0
    /// Extra global brightness added from `brightnessStepFrame` on.
    var brightnessStep = 0
    var brightnessStepFrame = Int.max
    /// Rolling shutter: row y is exposed `readoutSeconds * y / height` after the top row.
    var readoutSeconds = 0.0

    func front(at seconds: Double) -> Double { frontAtZero + speedPixelsPerSecond * seconds }

    /// The instant the torso front reaches x.
    func truth(reaching x: Double) -> Double { (x - frontAtZero) / speedPixelsPerSecond }

    func render(frame index: Int, into pixels: UnsafeMutablePointer<UInt8>) {
        let t = Double(index) / fps
        let extra = index >= brightnessStepFrame ? brightnessStep : 0
        for y in 0..<height {
            let f = front(at: t + readoutSeconds * Double(y) / Double(height))
            let cy = Double(y) + 0.5
            // Head and legs continue the torso's outline above and below it
            // (bodyTop...bodyBottom), so the moving edges form one tall blob,
            // as a real silhouette does; the torso spans torsoTop...torsoBottom.
            var low = 0.0, high = 0.0
            if cy >= bodyTop && cy < bodyBottom { low = f - torsoDepth; high = f }
            if armReach > 0 && armRows.contains(cy) { high = max(high, f + armReach); if low == high { low = f } }
            for x in 0..<width {
                let cover = max(0, min(high, Double(x + 1)) - max(low, Double(x)))
                let value = Double(background) * (1 - min(1, cover)) + Double(torsoLuma) * min(1, cover) + Double(extra)
                pixels[y * width + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
    }

    /// Runs a detector over `frames` frames; returns its crossings.
    func detect(frames: Int, settings: DetectorSettings = DetectorSettings()) -> [DetectedCrossing] {
        let detector = PhotoFinishDetector(width: width, height: height, settings: settings)
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        defer { pixels.deallocate() }
        var found: [DetectedCrossing] = []
        for i in 0..<frames {
            render(frame: i, into: pixels)
            let frame = LumaFrame(pixels: pixels, width: width, height: height, rowStride: width,
                                  timestampNanos: Int64((Double(i) / fps * 1e9).rounded()), sequence: UInt32(i))
            if let c = detector.process(frame) { found.append(c) }
        }
        return found
    }
}

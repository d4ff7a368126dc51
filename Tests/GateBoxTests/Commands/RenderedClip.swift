import Foundation
import GateCore
import GateSim

/// A YUV4MPEG2 clip rendered by the simulator, with its ground truth: what
/// a camera at the gate would have recorded, in the replay time base (frame
/// i's top row exposed, mid-exposure, at i x den / num seconds).
struct RenderedClip {
    var path: String
    var header: Y4MHeader
    var frames: Int
    /// When each runner's torso front reached the gate line.
    var truthNanos: [Int64]

    static let camera = CameraModel(width: 320, height: 240, viewWidthMetres: 4, readoutNanos: 8_000_000,
                                    exposureNanos: 1_000_000, noiseSigma: 2)

    /// One runner whose torso front reaches the gate (at `gatePosition` of the
    /// width) at `crossingNanos`.
    static func oneRunner(path: String, fps: Int = 120, seconds: Double = 1.3, crossingNanos: Int64 = 900_000_000,
                          speed: Double = 8, direction: CrossingDirection = .leftToRight, darkShirt: Bool = true,
                          gatePosition: Double = 0.5, colourSpace: Y4MColourSpace = .c420jpeg) throws -> RenderedClip {
        let gateX = gatePosition * camera.viewWidthMetres
        let runner = Runner(crossingNanos: crossingNanos, lineX: gateX, speedAtLine: speed, direction: direction,
                            shirtLuma: darkShirt ? 45 : 215, skinLuma: 120, legLuma: 70, stridePhase: 0.7)
        let header = Y4MHeader(width: camera.width, height: camera.height,
                               frameRate: FrameRate(numerator: UInt32(fps), denominator: 1), colourSpace: colourSpace)
        let frames = Int(seconds * Double(fps))
        try write(path: path, header: header, frames: frames, renderer: SceneRenderer(camera: camera, runners: [runner], seed: 11))
        return RenderedClip(path: path, header: header, frames: frames,
                            truthNanos: [runner.torsoFrontNanos(reaching: gateX)])
    }

    static func write(path: String, header: Y4MHeader, frames: Int, renderer: SceneRenderer) throws {
        // Whether it could be made, opening it for writing next says.
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.write(contentsOf: Data(header.text.utf8))
        var luma = [UInt8](repeating: 0, count: header.lumaBytes)
        let chroma = Data(repeating: 128, count: header.chromaBytes)
        for i in 0..<frames {
            let stamp = header.frameRate.timestampNanos(frame: i)
            luma.withUnsafeMutableBufferPointer { renderer.render(topRowNanos: stamp, frameIndex: UInt64(i), into: $0.baseAddress!) }
            var frame = Data("FRAME\n".utf8)
            frame.append(contentsOf: luma)
            frame.append(chroma)
            try file.write(contentsOf: frame)
        }
    }
}

/// Checks a PNG file the way a viewer reads it: signature, IHDR, every
/// chunk's CRC (zlib's crc32), IDAT inflated by zlib, filters undone.
enum PNGCheck {
    struct Picture { var width: Int; var height: Int; var pixels: [UInt8] }
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func u32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    static func read(_ path: String) throws -> Picture {
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        guard file.count > 8, Array(file[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure(description: path + ": no PNG signature")
        }
        var at = 8
        var chunks: [(type: String, data: [UInt8])] = []
        while at + 12 <= file.count {
            let length = u32(file, at)
            guard at + 12 + length <= file.count else { throw Failure(description: "chunk past the end") }
            let typeAndData = Array(file[(at + 4)..<(at + 8 + length)])
            guard ZlibForTests.crc32(typeAndData) == UInt32(u32(file, at + 8 + length)) else {
                throw Failure(description: "bad CRC")
            }
            chunks.append((String(decoding: typeAndData[0..<4], as: UTF8.self), Array(typeAndData[4...])))
            at += 12 + length
        }
        guard at == file.count, chunks.map(\.type) == ["IHDR", "IDAT", "IEND"] else {
            throw Failure(description: "chunks \(chunks.map(\.type))")
        }
        let ihdr = chunks[0].data
        guard ihdr.count == 13, Array(ihdr[8..<13]) == [8, 0, 0, 0, 0] else { throw Failure(description: "IHDR \(ihdr)") }
        let width = u32(ihdr, 0), height = u32(ihdr, 4)
        guard let raw = ZlibForTests.inflate(chunks[1].data, size: (width + 1) * height) else {
            throw Failure(description: "IDAT does not inflate to \((width + 1) * height) bytes")
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let filter = raw[y * (width + 1)]
            guard filter <= 1 else { throw Failure(description: "filter \(filter)") }
            for x in 0..<width {
                let v = raw[y * (width + 1) + 1 + x]
                pixels[y * width + x] = filter == 1 && x > 0 ? v &+ pixels[y * width + x - 1] : v
            }
        }
        return Picture(width: width, height: height, pixels: pixels)
    }
}

@testable import GateCore

/// Bytes in memory as a ByteSource, handed out `chunk` bytes at a time at
/// most (to exercise short reads), failing once `failAt` bytes were read.
struct MemorySource: ByteSource {
    var bytes: [UInt8]
    var chunk = Int.max
    var failAt: Int?
    private(set) var position = 0

    init(_ bytes: [UInt8], chunk: Int = Int.max, failAt: Int? = nil) {
        self.bytes = bytes
        self.chunk = chunk
        self.failAt = failAt
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        if let failAt, position >= failAt { throw ByteSourceError("Input/output error") }
        var n = min(buffer.count, chunk, bytes.count - position)
        if let failAt { n = min(n, failAt - position) }
        for i in 0..<n { buffer[i] = bytes[position + i] }
        position += n
        return n
    }
}

/// A YUV4MPEG2 stream made by hand: luma of frame f at (x, y) is
/// (f * 31 + x * 7 + y * 3) & 0xFF, chroma is 0x80 + f (so a reader that
/// skipped the wrong count would see chroma in the next frame's luma).
enum Y4MTestInput {
    static func luma(frame: Int, x: Int, y: Int) -> UInt8 { UInt8(truncatingIfNeeded: frame * 31 + x * 7 + y * 3) }

    static func stream(header: String, width: Int, height: Int, chromaBytes: Int, frames: Int,
                       frameLine: String = "FRAME\n") -> [UInt8] {
        var out = Array(header.utf8)
        for f in 0..<frames {
            out += Array(frameLine.utf8)
            for y in 0..<height { for x in 0..<width { out.append(luma(frame: f, x: x, y: y)) } }
            out += [UInt8](repeating: UInt8(truncatingIfNeeded: 0x80 + f), count: chromaBytes)
        }
        return out
    }
}

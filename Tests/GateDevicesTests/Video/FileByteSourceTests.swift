import Foundation
import Testing
@testable import GateCore
@testable import GateDevices

@Suite struct FileByteSourceTests {
    @Test func readsAY4MFileFrameByFrame() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/clip.y4m"
        let (width, height, frames) = (48, 20, 30)
        var bytes = Array("YUV4MPEG2 W48 H20 F30000:1001 C422\n".utf8)
        for f in 0..<frames {
            bytes += Array("FRAME\n".utf8)
            bytes += (0..<(width * height)).map { UInt8(truncatingIfNeeded: f + $0) }
            bytes += [UInt8](repeating: 0xEE, count: 2 * 24 * height)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let fd = try FileDescriptor.open(path, .readOnly)
        defer { fd.close() }
        let reader = try Y4MFileReader(source: FileByteSource(fd))
        var count = 0
        while let frame = try reader.nextFrame() {
            #expect(frame.luma(x: 5, y: 1) == UInt8(truncatingIfNeeded: count + 48 + 5))
            #expect(frame.timestampNanos == FrameRate(numerator: 30000, denominator: 1001).timestampNanos(frame: count))
            count += 1
        }
        #expect(count == frames && reader.offset == bytes.count)
    }

    @Test func aReadErrorComesBackInWords() throws {
        // A directory opens, but reading it fails with EISDIR.
        let fd = try FileDescriptor.open("/", .readOnly)
        defer { fd.close() }
        #expect(throws: Y4MError("header (byte 0)", "read failed: Is a directory")) {
            try Y4MFileReader(source: FileByteSource(fd))
        }
    }
}

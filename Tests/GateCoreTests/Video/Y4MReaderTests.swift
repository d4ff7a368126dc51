import Testing
@testable import GateCore

@Suite struct Y4MReaderTests {
    static func frames(_ reader: Y4MReader<MemorySource>) throws(Y4MError) -> [LumaFrame] {
        var out: [LumaFrame] = []
        while let frame = try reader.nextFrame() { out.append(frame) }
        return out
    }

    static func checkLuma(_ frame: LumaFrame, index: Int) -> Bool {
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame.luma(x: x, y: y) != Y4MTestInput.luma(frame: index, x: x, y: y) {
                return false
            }
        }
        return true
    }

    static func message(_ body: () throws(Y4MError) -> Void) -> String? {
        do { try body() } catch { return error.message }
        return nil
    }

    @Test(arguments: Y4MColourSpace.allCases, [1, 7, 4096])
    func readsLumaAndSkipsChromaOfEveryColourSpace(space: Y4MColourSpace, chunk: Int) throws {
        let header = "YUV4MPEG2 W7 H5 F25:1 C" + space.tag + "\n"
        let bytes = Y4MTestInput.stream(header: header, width: 7, height: 5,
                                        chromaBytes: space.chromaBytes(width: 7, height: 5), frames: 4,
                                        frameLine: "FRAME Ip XFOO=1\n")
        let reader = try Y4MReader(source: MemorySource(bytes, chunk: chunk))
        #expect(reader.header.colourSpace == space)
        var index = 0
        while let frame = try reader.nextFrame() {
            #expect(Self.checkLuma(frame, index: index), "frame \(index) luma")
            #expect(frame.sequence == UInt32(index) && frame.timestampNanos == Int64(index) * 40_000_000)
            index += 1
        }
        #expect(index == 4 && reader.frameCount == 4 && reader.offset == bytes.count)
        #expect(try reader.nextFrame() == nil) // stays at the end
    }

    @Test func framesOfABigClipReuseOneBuffer() throws {
        let bytes = Y4MTestInput.stream(header: "YUV4MPEG2 W640 H480 F120:1 C420jpeg\n", width: 640, height: 480,
                                        chromaBytes: 2 * 320 * 240, frames: 5)
        let reader = try Y4MReader(source: MemorySource(bytes, chunk: 10_000))
        var pointers = Set<UnsafePointer<UInt8>>()
        var index = 0
        while let frame = try reader.nextFrame() {
            pointers.insert(frame.pixels)
            #expect(Self.checkLuma(frame, index: index))
            index += 1
        }
        #expect(index == 5 && pointers.count == 1)
    }

    @Test func ntscClipFramesCarryExactStamps() throws {
        let bytes = Y4MTestInput.stream(header: "YUV4MPEG2 W16 H16 F30000:1001 Cmono\n", width: 16, height: 16,
                                        chromaBytes: 0, frames: 4)
        let frames = try Self.frames(try Y4MReader(source: MemorySource(bytes)))
        #expect(frames.map(\.timestampNanos) == [0, 33_366_666, 66_733_333, 100_100_000])
        #expect(frames.map(\.sequence) == [0, 1, 2, 3])
    }

    static let header7x5 = "YUV4MPEG2 W7 H5 F25:1 C420\n" // 27 bytes; frames are 6 + 35 + 24 = 65 bytes
    static func twoFramesThen(_ tail: [UInt8]) -> [UInt8] {
        Y4MTestInput.stream(header: header7x5, width: 7, height: 5, chromaBytes: 24, frames: 2) + tail
    }

    /// What follows two good frames, and what the reader must say about it.
    static let damagedTails: [(tail: String, message: String)] = [
        ("FRAME\n" + String(repeating: "\u{9}", count: 40),
         "frame 2 (byte 157): truncated: the file ends 40 bytes into the frame's 59 bytes of planes (7x5 C420)"),
        ("FRAME\n", "frame 2 (byte 157): truncated: the file ends 0 bytes into the frame's 59 bytes of planes (7x5 C420)"),
        ("FRA", "frame 2 (byte 157): truncated: the file ends inside its FRAME line"),
        ("FRAME", "frame 2 (byte 157): truncated: the file ends inside its FRAME line"),
        ("FRAME Ip", "frame 2 (byte 157): truncated: the file ends inside its FRAME line"),
        ("FRAMX\n\u{1}\u{2}\u{3}", "frame 2 (byte 157): expected 'FRAME', found 'FRAMX\\x0a\\x01\\x02'"),
        ("FRAMES\n", "frame 2 (byte 157): expected 'FRAME', found 'FRAMES\\x0a'"),
        ("\n", "frame 2 (byte 157): expected 'FRAME', found '\\x0a'"),
    ]

    @Test(arguments: damagedTails)
    func truncatedAndDamagedFramesSayWhichAndWhere(tail: String, message: String) throws {
        let reader = try Y4MReader(source: MemorySource(Self.twoFramesThen(Array(tail.utf8)), chunk: 5))
        #expect(try reader.nextFrame() != nil)
        #expect(try reader.nextFrame() != nil)
        #expect(Self.message { () throws(Y4MError) in _ = try reader.nextFrame() } == message)
    }

    @Test func aFrameLineWithoutEndIsRefused() throws {
        let tail = Array("FRAME ".utf8) + [UInt8](repeating: 0x41, count: 5000)
        let reader = try Y4MReader(source: MemorySource(Self.twoFramesThen(tail)))
        _ = try reader.nextFrame(); _ = try reader.nextFrame()
        #expect(Self.message { () throws(Y4MError) in _ = try reader.nextFrame() } == "frame 2 (byte 157): no end of its FRAME line within 4096 bytes")
    }

    @Test func badStartsOfFile() {
        func open(_ bytes: [UInt8]) -> String? { Self.message { () throws(Y4MError) in _ = try Y4MReader(source: MemorySource(bytes)) } }
        #expect(open([]) == "header (byte 0): the file is empty (expected a YUV4MPEG2 header)")
        #expect(open(Array("RIFF\u{0}\u{0}WAVEfmt ".utf8)) == "header (byte 0): expected the signature 'YUV4MPEG2 ', found 'RIFF\\x00\\x00WAVE'")
        #expect(open(Array("YUV4MPEG2 W320 H240 F30:1".utf8)) == "header (byte 0): truncated: the file ends inside the header, after 25 bytes without a newline")
        #expect(open(Array(("YUV4MPEG2 W320 H240 F30:1 X" + String(repeating: "x", count: 5000) + "\n").utf8))
                == "header (byte 0): no end of the header line within 4096 bytes")
        #expect(open(Array("YUV4MPEG2 W320 H240 F30:1 C411\n".utf8))
                == "header field 'C' (byte 26): unsupported colour space 'C411' (supported: C420jpeg, C420paldv, C420mpeg2, C420, C422, C444, Cmono)")
    }

    @Test func aReadFailureIsNamedWithItsFrame() throws {
        let bytes = Self.twoFramesThen([])
        let reader = try Y4MReader(source: MemorySource(bytes, chunk: 16, failAt: 27 + 65 + 30))
        #expect(try reader.nextFrame() != nil)
        #expect(Self.message { () throws(Y4MError) in _ = try reader.nextFrame() } == "frame 1 (byte 92): read failed: Input/output error")
        #expect(Self.message { () throws(Y4MError) in _ = try Y4MReader(source: MemorySource(bytes, failAt: 0)) }
                == "header (byte 0): read failed: Input/output error")
    }
}

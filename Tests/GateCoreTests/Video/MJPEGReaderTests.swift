import Testing
@testable import GateCore

@Suite struct JPEGScannerTests {
    static func scanWhole(_ bytes: [UInt8], step: Int) throws(JPEGProblem) -> (end: Int?, scanner: JPEGScanner) {
        var scanner = JPEGScanner()
        let all = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { all.deallocate() }
        all.copyBytes(from: bytes)
        var at = 0
        while at < bytes.count {
            let n = min(step, bytes.count - at)
            if let end = try scanner.scan(UnsafeRawBufferPointer(rebasing: all[at..<(at + n)])) { return (at + end, scanner) }
            at += n
        }
        return (nil, scanner)
    }

    @Test(arguments: [1, 3, 10_000])
    func findsTheEndPastLookalikesAndReadsTheFrameHeader(step: Int) throws {
        let image = MJPEGTestInput.jpeg(width: 640, height: 480)
        // The image's own EOI, not the FF D9 inside APP0, nor FF 00 or RST in the scan.
        let (end, scanner) = try Self.scanWhole(image + [0xFF, 0xD8, 0x00], step: step)
        #expect(end == image.count)
        #expect(scanner.width == 640 && scanner.height == 480 && scanner.components == 3)
        #expect(scanner.colourSpace == .c422 && scanner.isComplete)
    }

    @Test func namesTheChromaSampling() throws {
        for (sampling, space) in [(UInt8(0x22), Y4MColourSpace.c420jpeg), (0x21, .c422), (0x11, .c444)] {
            #expect(try Self.scanWhole(MJPEGTestInput.jpeg(sampling: sampling), step: 7).scanner.colourSpace == space)
        }
    }

    @Test func anImageCutShortHasNoEnd() throws {
        let image = MJPEGTestInput.jpeg()
        for cut in [1, 2, 10, 40, image.count - 1] {
            #expect(try Self.scanWhole(Array(image.prefix(cut)), step: 5).end == nil, "cut at \(cut)")
        }
    }

    @Test func garbageIsNamedWithItsByte() {
        func problem(_ bytes: [UInt8]) -> JPEGProblem? {
            do { _ = try Self.scanWhole(bytes, step: 4) } catch { return error }
            return nil
        }
        #expect(problem([0x47, 0x49, 0x46]) == JPEGProblem(0, "expected a JPEG's start (FF D8), found 47"))
        #expect(problem([0xFF, 0xD8, 0x12]) == JPEGProblem(2, "expected a marker (FF xx), found 12"))
        #expect(problem([0xFF, 0xD8, 0xFF, 0xD8]) == JPEGProblem(2, "a second start of image (FF D8) before the end (FF D9) of this one"))
        #expect(problem([0xFF, 0xD8] + MJPEGTestInput.segment(0xDA, [1, 2]))
                == JPEGProblem(2, "a scan (SOS) before any frame header (SOF)"))
        #expect(problem([0xFF, 0xD8, 0xFF, 0xD9]) == JPEGProblem(2, "the image ends (FF D9) before any frame header (SOF)"))
        #expect(problem([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01])
                == JPEGProblem(4, "segment E0 has a length of 1 (at least 2)"))
        let noSize = [0xFF, 0xD8] + MJPEGTestInput.segment(0xC0, [8, 0, 0, 0, 64, 1, 1, 0x11, 0])
        #expect(problem(noSize + [0xFF, 0xD9])?.problem == "frame header (SOF) gives a size of 64x0")
    }
}

@Suite struct MJPEGStreamReaderTests {
    static var rate: FrameRate { FrameRate(numerator: 120, denominator: 1) }

    static func message(_ body: () throws(MJPEGError) -> Void) -> String? {
        do { try body() } catch { return error.message }
        return nil
    }

    @Test(arguments: [1, 7, 100_000])
    func splitsJPEGsAndSkipsZeroPadding(chunk: Int) throws {
        let images = (0..<4).map { MJPEGTestInput.jpeg(seed: UInt8($0)) }
        // A recorder's fixed-size buffers: zeros after the second image.
        let stream = images[0] + images[1] + [UInt8](repeating: 0, count: 50) + images[2] + images[3]
        let reader = try MJPEGStreamReader(source: MemorySource(stream, chunk: chunk), frameRate: Self.rate)
        #expect(reader.width == 64 && reader.height == 48 && reader.colourSpace == .c422)
        var index = 0
        while let frame = try reader.nextJPEG() {
            #expect(frame.index == index && Array(frame.bytes) == images[index])
            #expect(frame.offset == (0..<index).reduce(0) { $0 + images[$1].count } + (index >= 2 ? 50 : 0))
            index += 1
        }
        #expect(index == 4 && reader.offset == stream.count)
        #expect(try reader.nextJPEG() == nil)
    }

    @Test func problemsAreNamedWithFrameAndByte() {
        let one = MJPEGTestInput.jpeg()
        let n = one.count
        #expect(Self.message { () throws(MJPEGError) in _ = try MJPEGStreamReader(source: MemorySource([]), frameRate: Self.rate) }
                == "byte 0: the file is empty (expected a JPEG: FF D8)")
        #expect(Self.message { () throws(MJPEGError) in
            let reader = try MJPEGStreamReader(source: MemorySource(one + one.prefix(30)), frameRate: Self.rate)
            while try reader.nextJPEG() != nil {}
        } == "frame 1 (byte \(n)): truncated: the file ends 30 bytes into the JPEG, before its end (FF D9)")
        #expect(Self.message { () throws(MJPEGError) in
            let reader = try MJPEGStreamReader(source: MemorySource(one + Array("junk".utf8) + one), frameRate: Self.rate)
            while try reader.nextJPEG() != nil {}
        } == "frame 1 (byte \(n)): expected the next JPEG (FF D8) after the end (FF D9) of frame 0, found 'junk\\xff\\xd8\\xff\\xe0'")
        #expect(Self.message { () throws(MJPEGError) in
            let reader = try MJPEGStreamReader(source: MemorySource(one + MJPEGTestInput.jpeg(width: 32)), frameRate: Self.rate)
            while try reader.nextJPEG() != nil {}
        } == "frame 1 (byte \(n)): the frame size changed from 64x48 to 32x48 (every frame must keep the first one's)")
        #expect(Self.message { () throws(MJPEGError) in
            _ = try MJPEGStreamReader(source: MemorySource(MJPEGTestInput.jpeg(width: 4000)), frameRate: Self.rate)
        } == "frame 0 (byte 0): frames of 4000x48 are larger than the 1920x1080 replay takes")
        #expect(Self.message { () throws(MJPEGError) in
            _ = try MJPEGStreamReader(source: MemorySource(Array(one.prefix(14)) + [0x42] + one), frameRate: Self.rate)
        } == "frame 0 (byte 14): not a whole JPEG: expected a marker (FF xx), found 42")
        #expect(Self.message { () throws(MJPEGError) in
            let reader = try MJPEGStreamReader(source: MemorySource(one + one, failAt: n + 3), frameRate: Self.rate)
            while try reader.nextJPEG() != nil {}
        } == "frame 1 (byte \(n + 3)): read failed: Input/output error")
    }
}

@Suite struct AVIReaderTests {
    typealias Input = MJPEGTestInput

    static func message(_ body: () throws(MJPEGError) -> Void) -> String? {
        do { try body() } catch { return error.message }
        return nil
    }

    /// Video chunks of stream 1 among audio, an index piece, a 'rec ' group
    /// and an empty chunk (a frame the recorder dropped).
    static func movi(_ images: [[UInt8]]) -> [UInt8] {
        Input.chunk("01dc", images[0]) + Input.chunk("00wb", [1, 2, 3]) + Input.chunk("01dc", [])
            + Input.list("rec ", Input.chunk("01dc", images[1]) + Input.chunk("00wb", [4]))
            + Input.chunk("ix01", [0, 0]) + Input.chunk("01db", images[2])
    }

    @Test(arguments: [1, 5, 100_000])
    func readsTheVideoStreamsFramesInTheirTimeBase(chunk: Int) throws {
        // An odd-sized JPEG (padded chunk), and trailing bytes after EOI in a chunk.
        let images = [Input.jpeg(seed: 1) + [0], Input.jpeg(seed: 2), Input.jpeg(seed: 3) + [0, 0, 0]]
        let bytes = Input.avi(header: Input.twoStreams, frames: Self.movi(images))
        let reader = try AVIReader(source: MemorySource(bytes, chunk: chunk))
        #expect(reader.streamNumber == 1 && reader.frameRate == FrameRate(numerator: 30_000, denominator: 1001))
        #expect(reader.width == 64 && reader.height == 48 && reader.colourSpace == .c422)
        var frames: [(Int, [UInt8])] = []
        while let frame = try reader.nextJPEG() { frames.append((frame.index, Array(frame.bytes))) }
        // The dropped frame keeps its index: frame 2's stamp is 2 frames on.
        #expect(frames.map(\.0) == [0, 2, 3])
        #expect(frames.map(\.1) == [Input.jpeg(seed: 1), Input.jpeg(seed: 2), Input.jpeg(seed: 3)])
        #expect(reader.offset == bytes.count)
    }

    @Test func readsOnIntoAnOpenDMLPart() throws {
        let first = Input.avi(header: Input.twoStreams, frames: Input.chunk("01dc", Input.jpeg(seed: 1)))
        let partBody = Array("AVIX".utf8) + Input.list("movi", Input.chunk("01dc", Input.jpeg(seed: 2)))
        let bytes = first + Array("RIFF".utf8) + Input.le32(partBody.count) + partBody
        let reader = try AVIReader(source: MemorySource(bytes, chunk: 9))
        var indices: [Int] = []
        while let frame = try reader.nextJPEG() { indices.append(frame.index) }
        #expect(indices == [0, 1])
    }

    @Test func theFrameRateComesFromTheMainHeaderWhenTheStreamHasNone() throws {
        let header = Input.avih(microseconds: 33_333) + Input.streamList(type: "vids", handler: "mjpg", scale: 0, rate: 0,
                                                                         compression: "MJPG")
        let bytes = Input.avi(header: header, frames: Input.chunk("00dc", Input.jpeg()))
        #expect(try AVIReader(source: MemorySource(bytes)).frameRate == FrameRate(numerator: 1_000_000, denominator: 33_333))
        let given = FrameRate(numerator: 240, denominator: 1)
        #expect(try AVIReader(source: MemorySource(bytes), frameRate: given).frameRate == given)
        let none = Input.avi(header: Input.avih(microseconds: 0) + Input.streamList(type: "vids", handler: "MJPG", scale: 0,
                                                                                     rate: 0, compression: "MJPG"),
                             frames: Input.chunk("00dc", Input.jpeg()))
        #expect(Self.message { () throws(MJPEGError) in _ = try AVIReader(source: MemorySource(none)) }
                == "AVI stream header (byte 100): no frame rate: dwRate/dwScale and dwMicroSecPerFrame are 0 (give it: --fps N or N/D)")
    }

    @Test func problemsAreNamedWithWhatWasExpected() {
        let jpeg = Input.jpeg()
        let video = Input.streamList(type: "vids", handler: "MJPG", scale: 1, rate: 60, compression: "MJPG")
        func avi(_ header: [UInt8], _ frames: [UInt8]) -> [UInt8] { Input.avi(header: header, frames: frames) }
        func read(_ bytes: [UInt8]) -> String? {
            Self.message { () throws(MJPEGError) in
                let reader = try AVIReader(source: MemorySource(bytes, chunk: 3))
                while try reader.nextJPEG() != nil {}
            }
        }
        #expect(read(Array("RIFF\u{4}\0\0\0WAVEfmt ".utf8)) == "AVI header (byte 0): a RIFF file of type 'WAVE', not an AVI ('AVI ')")
        #expect(read(Array("GIF89a".utf8)) == "AVI header (byte 0): expected 'RIFF' <size> 'AVI ', found 'GIF89a'")
        let audioOnly = Input.streamList(type: "auds", handler: "\u{1}\0\0\0", scale: 1, rate: 48_000)
        #expect(read(avi(audioOnly, Input.chunk("00wb", [1])))
                == "AVI header list ('hdrl'): no video stream (no 'strl' with a 'vids' stream header)")
        let h264 = Input.streamList(type: "vids", handler: "H264", scale: 1, rate: 60, compression: "H264")
        #expect(read(avi(h264, [])) == "AVI stream header (byte 36): the video stream is 'H264', not Motion JPEG ('MJPG')")
        #expect(read(avi(video, Input.chunk("01wb", [1]))) == "AVI 'movi' list: no frames: the video stream 0 has no chunk with a JPEG in it")
        let start = avi(video, []).count - 16 - 8 // where a first frame's data would start: before idx1
        let cut = Array(avi(video, Input.chunk("00dc", jpeg)).prefix(start + 8 + 20))
        #expect(read(cut) == "frame 0 (byte \(start + 8)): truncated: the file ends 20 bytes into the frame's chunk of \(jpeg.count) bytes")
        #expect(read(avi(video, Input.chunk("00dc", Array(jpeg.prefix(30)))))
                == "frame 0 (byte \(start + 8)): not a whole JPEG: its chunk of 30 bytes ends before the JPEG's end (FF D9)")
        #expect(read(avi(video, Input.chunk("00dc", Array("not a jpeg".utf8))))
                == "frame 0 (byte \(start + 8)): not a whole JPEG: expected a JPEG's start (FF D8), found 6E")
        #expect(read(avi(video, Input.chunk("00dc", jpeg) + Input.chunk("00dc", Input.jpeg(height: 96))))
                == "frame 1 (byte \(start + 16 + jpeg.count + jpeg.count % 2)): the frame size changed from 64x48 to 64x96 (every frame must keep the first one's)")
        let framesFirst = Array("RIFF".utf8) + Input.le32(100) + Array("AVI ".utf8) + Input.list("movi", Input.chunk("00dc", jpeg))
        #expect(read(framesFirst) == "AVI chunk 'LIST' (byte 12): the frames come before any header list ('hdrl')")
        #expect(read(Array("RIFF\u{4}\0\0\0AVI ".utf8) + Input.list("hdrl", video))
                == "AVI (byte \(12 + 12 + video.count)): the file ends before its frames (no 'movi' list)")
    }
}

@Suite struct VideoContainerTests {
    @Test func filesAreToldApartByTheirFirstBytes() throws {
        #expect(VideoContainer.detect(Array("YUV4MPEG2 W64".utf8)) == .y4m)
        #expect(VideoContainer.detect(Array("RIFF\0\0\0\0AVI ".utf8)) == .avi)
        #expect(VideoContainer.detect(Array("RIFF\0\0\0\0WAVE".utf8)) == .avi) // its reader names the type
        #expect(VideoContainer.detect([0xFF, 0xD8, 0xFF, 0xE0]) == .mjpeg)
        #expect(VideoContainer.detect([0xFF, 0xD8]) == nil)
        #expect(VideoContainer.detect(Array("hello".utf8)) == nil)
        #expect(VideoContainer.detect([]) == nil)
    }

    @Test(arguments: [1, 5, 100])
    func sniffingGivesEveryByteBack(chunk: Int) throws {
        let bytes = MJPEGTestInput.jpeg() + MJPEGTestInput.jpeg()
        let sniffed = try VideoContainer.sniff(MemorySource(bytes, chunk: chunk))
        #expect(sniffed.kind == .mjpeg && sniffed.start == Array(bytes.prefix(12)))
        let reader = try MJPEGStreamReader(source: sniffed.source, frameRate: FrameRate(numerator: 30, denominator: 1))
        var count = 0
        while try reader.nextJPEG() != nil { count += 1 }
        #expect(count == 2 && reader.offset == bytes.count)
        let short = try VideoContainer.sniff(MemorySource([1, 2, 3]))
        #expect(short.kind == nil && short.start == [1, 2, 3])
    }
}

import Testing
@testable import GateCore

@Suite struct Y4MHeaderTests {
    static func parse(_ line: String) throws(Y4MError) -> Y4MHeader { try Y4MHeader.parse(Array(line.utf8)) }

    @Test(arguments: [
        ("C420jpeg", Y4MColourSpace.c420jpeg, 2 * 4 * 3),
        ("C420paldv", .c420paldv, 2 * 4 * 3),
        ("C420mpeg2", .c420mpeg2, 2 * 4 * 3),
        ("C420", .c420, 2 * 4 * 3),
        ("C422", .c422, 2 * 4 * 5),
        ("C444", .c444, 2 * 7 * 5),
        ("Cmono", .mono, 0),
    ])
    func everyColourSpace(tag: String, space: Y4MColourSpace, chroma: Int) throws {
        // 7x5: odd sizes round the subsampled planes up.
        let header = try Self.parse("YUV4MPEG2 W7 H5 F25:1 It A1:1 " + tag + " XYSCSS=420JPEG")
        #expect(header.colourSpace == space)
        #expect(header.width == 7 && header.height == 5)
        #expect(header.frameRate == FrameRate(numerator: 25, denominator: 1))
        #expect(header.interlacing == "t")
        #expect(header.lumaBytes == 35 && header.chromaBytes == chroma && header.frameBytes == 35 + chroma)
        #expect(Y4MColourSpace(tag: String(tag.dropFirst())) == space)
    }

    @Test func withoutAColourSpaceItIs420() throws {
        let header = try Self.parse("YUV4MPEG2 W1920 H1080 F30000:1001")
        #expect(header.colourSpace == .c420 && header.interlacing == "p")
        #expect(header.chromaBytes == 2 * 960 * 540)
        #expect(header.frameRate.numerator == 30000 && header.frameRate.denominator == 1001)
    }

    @Test func fieldsInAnyOrderAndTheTextRoundTrips() throws {
        let header = try Self.parse("YUV4MPEG2 C444 F120:1 H240 W320 A0:0")
        #expect(header == Y4MHeader(width: 320, height: 240, frameRate: FrameRate(numerator: 120, denominator: 1),
                                    colourSpace: .c444))
        #expect(header.text == "YUV4MPEG2 W320 H240 F120:1 Ip A1:1 C444\n")
        #expect(try Self.parse(String(header.text.dropLast())) == header)
    }

    @Test(arguments: [
        ("YUV4MPEG W320 H240 F30:1", "header (byte 0): expected the signature 'YUV4MPEG2 ', found 'YUV4MPEG W'"),
        ("\u{1}PNG", "header (byte 0): expected the signature 'YUV4MPEG2 ', found '\\x01PNG'"),
        ("YUV4MPEG2 W0 H240 F30:1", "header field 'W' (byte 10): expected a width from 1 to 1920 pixels, got 'W0'"),
        ("YUV4MPEG2 W1921 H240 F30:1", "header field 'W' (byte 10): expected a width from 1 to 1920 pixels, got 'W1921'"),
        ("YUV4MPEG2 Wide H240 F30:1", "header field 'W' (byte 10): expected a width from 1 to 1920 pixels, got 'Wide'"),
        ("YUV4MPEG2 W320 H1081 F30:1", "header field 'H' (byte 15): expected a height from 1 to 1080 pixels, got 'H1081'"),
        ("YUV4MPEG2 W320 H240 F30:0", "header field 'F' (byte 20): expected a frame rate <num>:<den> of integers from 1 to 4294967295, got 'F30:0'"),
        ("YUV4MPEG2 W320 H240 F30", "header field 'F' (byte 20): expected a frame rate <num>:<den> of integers from 1 to 4294967295, got 'F30'"),
        ("YUV4MPEG2 W320 H240 F30:1 Iq", "header field 'I' (byte 26): expected an interlacing of p, t, b, m or ?, got 'Iq'"),
        ("YUV4MPEG2 W320 H240 F30:1 A1", "header field 'A' (byte 26): expected a pixel aspect <num>:<den>, got 'A1'"),
        ("YUV4MPEG2 W320 H240 F30:1 C420p10", "header field 'C' (byte 26): unsupported colour space 'C420p10' (supported: C420jpeg, C420paldv, C420mpeg2, C420, C422, C444, Cmono)"),
        ("YUV4MPEG2 W320 H240 F30:1 Q9", "header field 'Q' (byte 26): unknown field 'Q9' (known: W, H, F, I, A, C, X)"),
        ("YUV4MPEG2 W320 H240 W320 F30:1", "header field 'W' (byte 20): appears twice"),
        ("YUV4MPEG2 H240 F30:1", "header (byte 0): missing field W (the frame width)"),
        ("YUV4MPEG2 W320 F30:1", "header (byte 0): missing field H (the frame height)"),
        ("YUV4MPEG2 W320 H240 C420", "header (byte 0): missing field F (the frame rate <num>:<den>, which stamps every frame)"),
    ])
    func badHeadersSayWhatAndWhere(line: String, message: String) {
        #expect(throws: Y4MError.self) { try Self.parse(line) }
        do {
            _ = try Self.parse(line)
        } catch {
            #expect(error.message == message)
        }
    }
}

@Suite struct FrameRateTests {
    @Test func ntscStampsAreExactIntegers() {
        let rate = FrameRate(numerator: 30000, denominator: 1001)
        #expect(rate.timestampNanos(frame: 0) == 0)
        #expect(rate.timestampNanos(frame: 1) == 33_366_666)          // 33366666.67 ns, floored
        #expect(rate.timestampNanos(frame: 2) == 66_733_333)
        #expect(rate.timestampNanos(frame: 29_999) == 1_000_966_633_333)
        #expect(rate.timestampNanos(frame: 30_000) == 1_001_000_000_000) // exactly 1001 s: no drift
        // 10^9 frames (a year of video) still exact: 10^18 x 1001 / 30000.
        #expect(rate.timestampNanos(frame: 1_000_000_000) == 33_366_666_666_666_666)
        #expect(rate.text == "29.970")
        #expect(FrameRate(numerator: 240, denominator: 1).text == "240")
    }

    @Test func nearestFrameInvertsTheStamps() {
        let rate = FrameRate(numerator: 30000, denominator: 1001)
        for i in [0, 1, 2, 7, 1000, 123_456] {
            let t = rate.timestampNanos(frame: i)
            #expect(rate.nearestFrame(atNanos: t) == i)
            #expect(rate.nearestFrame(atNanos: t + 16_000_000) == i)
            #expect(rate.nearestFrame(atNanos: t + 17_000_000) == i + 1)
        }
        #expect(rate.nearestFrame(atNanos: -5) == 0)
    }
}

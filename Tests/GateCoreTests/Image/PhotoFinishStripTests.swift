import Testing
@testable import GateCore

@Suite struct PhotoFinishStripTests {
    /// Frames whose gate column holds the frame's index, the rest 0.
    final class Frames {
        let width = 64, height = 32
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 32)
        init() { pixels.initialize(repeating: 0, count: width * height) }
        deinit { pixels.deallocate() }
        func frame(_ index: Int, rate: FrameRate, gateColumn: Int) -> LumaFrame {
            for y in 0..<height { pixels[y * width + gateColumn] = UInt8(truncatingIfNeeded: index) }
            return LumaFrame(pixels: pixels, width: width, height: height, rowStride: width,
                             timestampNanos: rate.timestampNanos(frame: index), sequence: UInt32(index))
        }
    }

    @Test func aStripIsTheGateColumnOfEachFrameAroundTheCrossing() throws {
        let rate = FrameRate(numerator: 40, denominator: 1) // 25 ms frames: half window 10 frames
        let strip = PhotoFinishStrip(width: 64, height: 32, gatePosition: 0.5, frameRate: rate)
        #expect(strip.gateColumn == 32 && strip.halfWindowFrames == 10)
        #expect(strip.rowScale == 4 && strip.columnScale == 64 * 4 / 21)
        let frames = Frames()
        let crossing = rate.timestampNanos(frame: 50) + 5_000_000
        for i in 0..<100 {
            strip.record(frames.frame(i, rate: rate, gateColumn: 32), index: i)
            if i == 52 { strip.schedule(crossingNanos: crossing, label: 7) }
            if i < 60 { #expect(strip.nextCompleteStrip() == nil, "complete too early at \(i)") }
            if i == 60 {
                let done = try #require(strip.nextCompleteStrip())
                #expect(done.label == 7)
                let image = done.image
                #expect(image.width == 21 * strip.columnScale && image.height == 128)
                // Time runs left to right, one column per frame, frames 40...60; mid-height is free of marks.
                for k in 0..<21 {
                    #expect(image[k * strip.columnScale + 1, 64] == UInt8(40 + k))
                }
                // The crossing tick: 5 ms after frame 50's stamp, 0.2 of a column past its centre.
                let tickX = Int(((10 + 0.2) + 0.5) * Double(strip.columnScale))
                #expect(image[tickX, 0] == 255 && image[tickX - 1, 0] == 0 && image[tickX + 1, 0] == 0)
                #expect(image[tickX, 127] == 255)
            }
        }
        #expect(strip.nextUnfinishedStrip() == nil)
    }

    @Test func aClipEndingSoonAfterACrossingGivesAShortStrip() throws {
        let rate = FrameRate(numerator: 40, denominator: 1)
        let strip = PhotoFinishStrip(width: 64, height: 32, gatePosition: 0.25, frameRate: rate)
        let frames = Frames()
        for i in 0..<4 { strip.record(frames.frame(i + 1, rate: rate, gateColumn: 16), index: i) }
        strip.schedule(crossingNanos: rate.timestampNanos(frame: 2), label: 1)
        #expect(strip.nextCompleteStrip() == nil)
        let done = try #require(strip.nextUnfinishedStrip())
        // Frames -8...12 around frame 2: before the clip and after its end, black.
        #expect(done.image[5 * strip.columnScale + 1, 64] == 0)   // frame -3
        #expect(done.image[10 * strip.columnScale + 1, 64] == 3)  // frame 2 held value 3
        #expect(done.image[14 * strip.columnScale + 1, 64] == 0)  // frame 6, never recorded
        #expect(strip.nextUnfinishedStrip() == nil)
    }

    @Test func theRingForgetsFramesOlderThanOneWindow() throws {
        let rate = FrameRate(numerator: 40, denominator: 1)
        let strip = PhotoFinishStrip(width: 64, height: 32, gatePosition: 0.5, frameRate: rate)
        let frames = Frames()
        for i in 0..<200 { strip.record(frames.frame(i, rate: rate, gateColumn: 32), index: i) }
        // A crossing asked for late: its early frames were overwritten, so they are black, not wrong.
        strip.schedule(crossingNanos: rate.timestampNanos(frame: 185), label: 2)
        let done = try #require(strip.nextCompleteStrip())
        #expect(done.image[2 * strip.columnScale + 1, 64] == 0)     // frame 177: gone
        #expect(done.image[15 * strip.columnScale + 1, 64] == 190)  // frame 190: held
    }
}

import Testing
@testable import GateCore

/// The cap on the card's photos: a picture is admitted only if its largest
/// possible size fits under the cap and leaves the reserve free; the first
/// refusal stops photos and is said once.
@Suite struct PhotoBudgetTests {
    @Test func picturesAreAdmittedUntilTheNextCouldPassTheCap() {
        let picture = PhotoBudget.largestPNG(width: 640, height: 480)
        var budget = PhotoBudget(capBytes: 3 * picture + picture / 2, usedBytes: 0)
        var written = 0
        while budget.admit(bytes: picture, freeBytes: 1 << 40) {
            budget.wrote(picture)
            written += 1
        }
        #expect(written == 3)
        #expect(budget.usedBytes <= budget.capBytes)
        #expect(budget.refusal == .cap)
        #expect(budget.message?.contains("(photos.max_mb) is reached") == true)
        #expect(budget.message?.contains("timing and results go on") == true)
        // Kept: a smaller picture that would fit is refused too (photos stopped).
        let small = budget.admit(bytes: 1, freeBytes: 1 << 40)
        #expect(!small)
    }

    @Test func photosAlreadyOnTheCardCount() {
        var budget = PhotoBudget(capBytes: 10 << 20, usedBytes: 10 << 20 - 100)
        let admitted = budget.admit(bytes: 200, freeBytes: nil)
        #expect(!admitted)
        #expect(budget.refusal == .cap)
    }

    @Test func theReserveIsLeftFreeForResults() {
        var budget = PhotoBudget(capBytes: 1 << 40, usedBytes: 0)
        let roomy = budget.admit(bytes: 1 << 20, freeBytes: PhotoSettings.reserveBytes + (2 << 20))
        let tight = budget.admit(bytes: 1 << 20, freeBytes: PhotoSettings.reserveBytes + (1 << 19))
        #expect(roomy && !tight)
        #expect(budget.refusal == .cardFull(freeBytes: PhotoSettings.reserveBytes + (1 << 19)))
        #expect(budget.message == "photos: the card has 64 MB free, and 64 MB are kept for results; photos stop for this session, timing and results go on")
    }

    @Test func namesAreTheOnesTheReportReads() {
        #expect(PhotoNames.strip(runId: "run-003", lap: 2) == "run-003-2-strip.png")
        #expect(PhotoNames.frame(runId: "run-003", lap: 2) == "run-003-2-frame.png")
        #expect(PhotoNames.scrub(runId: "run-003", lap: 2, offset: -2) == "run-003-2-f-2.png")
        #expect(PhotoNames.scrub(runId: "run-003", lap: 2, offset: 1) == "run-003-2-f+1.png")
        #expect(PhotoNames.scrub(runId: "run-003", lap: 2, offset: 0) == "run-003-2-frame.png")
        var settings = PhotoSettings()
        #expect(settings.offsets == [0, -2, -1, 1, 2])
        settings.framesBefore = 0; settings.framesAfter = 1
        #expect(settings.offsets == [0, 1])
    }
}

/// The ring of recent frames and the frame picture drawn a row at a time.
@Suite struct FrameRingTests {
    static func frame(_ value: UInt8, nanos: Int64, width: Int = 8, height: Int = 6,
                      into buffer: UnsafeMutablePointer<UInt8>) -> LumaFrame {
        // YUYV-like: luma every other byte, so the ring's strided copy is checked.
        for i in 0..<(width * height * 2) { buffer[i] = i % 2 == 0 ? value &+ UInt8(truncatingIfNeeded: i / 2) : 99 }
        return LumaFrame(pixels: UnsafePointer(buffer), width: width, height: height, rowStride: width * 2,
                         pixelStride: 2, timestampNanos: nanos, sequence: 0)
    }

    @Test func theRingKeepsTheLastFramesAndFindsTheNearest() {
        let ring = FrameRing(width: 8, height: 6, capacity: 3)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 96)
        defer { buffer.deallocate() }
        #expect(ring.nearestFrame(toNanos: 0) == nil)
        for i in 0..<5 { ring.record(Self.frame(UInt8(i * 10), nanos: Int64(i) * 1000, into: buffer), index: i) }
        #expect(!ring.holds(1) && ring.holds(2) && ring.holds(4) && !ring.holds(5))
        #expect(ring.plane(3)[0] == 30 && ring.plane(3)[9] == 39)
        #expect(ring.stampNanos(4) == 4000)
        #expect(ring.nearestFrame(toNanos: 3400) == 3)
        #expect(ring.nearestFrame(toNanos: 3500) == 4)   // the later of two as near
        #expect(ring.nearestFrame(toNanos: 100) == 2)    // before the oldest held: the oldest
    }

    @Test func aFramePictureIsTheCrossingPictureRowByRow() {
        for (width, height, gate) in [(160, 120, 0.5), (320, 240, 0.37), (640, 480, 0.9)] {
            var pixels = [UInt8](repeating: 0, count: width * height)
            for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: i * 7 + i / width) }
            pixels.withUnsafeBufferPointer { p in
                let frame = LumaFrame(pixels: p.baseAddress!, width: width, height: height, rowStride: width,
                                      timestampNanos: 0, sequence: 0)
                let whole = CrossingPictures.frame(frame, gatePosition: gate)
                let picture = FramePicture(pixels: p.baseAddress!, width: width, height: height, gatePosition: gate)
                #expect(picture.width == whole.width && picture.height == whole.height)
                var rows = [UInt8](repeating: 0, count: picture.width * picture.height)
                rows.withUnsafeMutableBufferPointer { out in
                    for y in 0..<picture.height { picture.row(y, into: out.baseAddress! + y * picture.width) }
                }
                #expect(rows == whole.pixels, "\(width)x\(height)")
            }
        }
    }
}

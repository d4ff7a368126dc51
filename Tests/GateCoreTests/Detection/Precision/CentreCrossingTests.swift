import Testing
@testable import GateCore

/// The crossing timed from a torso's centre where its fronts give none: a
/// centre moving at 300 px/s (10 px a frame at 30 fps) whose front lies 8 px
/// ahead of it, and reaches the gate 0.4 of a frame after frame 20.
@Suite struct CentreCrossingTests {
    static let gateX = 150.0
    static let fps = 30.0
    static let speed = 300.0
    static let offset = 8.0
    static let crossingSeconds = 20.4 / fps
    static func centre(_ seconds: Double) -> Double { gateX - offset + speed * (seconds - crossingSeconds) }
    static func nanos(_ frame: Int) -> Int64 { Int64((Double(frame) / fps * 1e9).rounded()) }

    struct Tracker {
        var crossings = 0
        var armed = true
        var pending = false
    }

    /// Feeds frames 0..<`frames`: the centre (`centre(i, truth)`, nil: the
    /// torso unseen that frame) and its front (`front(i, truth)`, nil: none).
    /// `tracker(i)` is the front tracker's state at frame i. Returns each
    /// crossing with the frame it came in (`frames`: the track's end).
    static func run(frames: Int, final: Bool = true, centre: (Int, Double) -> Double? = { $1 },
                    tracker: (Int) -> Tracker = { _ in Tracker() },
                    front: (Int, Double) -> Double?) -> [(crossing: DetectedCrossing, frame: Int)] {
        let subject = CentreCrossing(capacity: 64, workWidth: 320)
        var found: [(crossing: DetectedCrossing, frame: Int)] = []
        var state = Tracker()
        for i in 0..<frames {
            let seconds = Double(i) / fps
            guard let c = centre(i, Self.centre(seconds)) else { continue }
            subject.add(centre: c, front: front(i, Self.centre(seconds) + offset), atNanos: nanos(i))
            state = tracker(i)
            if let crossing = subject.check(direction: .leftToRight, gateX: gateX, crossings: state.crossings,
                                            armed: state.armed, pending: state.pending, minSpeed: 32,
                                            depth: 10, sequence: UInt32(i), frameNanos: nanos(i), occupancy: 0.5) {
                found.append((crossing, i))
            }
        }
        if final, let crossing = subject.check(direction: .leftToRight, gateX: gateX, crossings: state.crossings,
                                               armed: state.armed, pending: state.pending, minSpeed: 32,
                                               depth: 10, sequence: 0, frameNanos: 0, occupancy: 0, final: true) {
            found.append((crossing, frames))
        }
        return found
    }

    static func errorMs(_ crossing: DetectedCrossing) -> Double {
        Double(crossing.timeNanos - Int64((crossingSeconds * 1e9).rounded())) / 1e6
    }

    @Test func fromTheCentreWhenNoFrontComesPastTheLine() throws {
        // Fronts up to frame 17, none after: the front tracker never sees one past the line.
        let found = Self.run(frames: 60, final: false) { i, truth in i <= 17 ? truth : nil }
        try #require(found.count == 1)
        let crossing = found[0].crossing
        #expect(abs(Self.errorMs(crossing)) < 0.5, "\(Self.errorMs(crossing)) ms")
        // Only once the fronts had `waitSeconds` to time it themselves (from frame 21, the first past the line).
        #expect(found[0].frame == 21 + Int(CentreCrossing.waitSeconds * Self.fps))
        #expect(crossing.frameIndex == 21)
        #expect(crossing.direction == .leftToRight)
        #expect(abs(crossing.velocityWorkPixelsPerSecond - Self.speed) < 1e-6)
        #expect(abs(crossing.interpolationOffsetMs - (Self.crossingSeconds - 21 / Self.fps) * 1000) < 0.01)
        #expect(crossing.occupancyAtTrigger == 0.5)
        #expect(crossing.uncertaintyMs > 0)
    }

    @Test func atOnceWhenTheTrackEnds() throws {
        let found = Self.run(frames: 26) { i, truth in i <= 17 ? truth : nil }
        try #require(found.count == 1)
        #expect(found[0].frame == 26)
        #expect(abs(Self.errorMs(found[0].crossing)) < 0.5)
    }

    @Test func theOffsetIsTheFrontsMedianAndItsSpreadTheUncertainty() throws {
        // Every third front an arm's, 12 px ahead; the others within a pixel.
        let wobble: [Double] = [0.4, -0.3, 0.8, -0.6, 0.1, -0.9]
        let found = Self.run(frames: 26) { i, truth in
            guard i <= 17 else { return nil }
            return i % 3 == 0 ? truth + 12 : truth + wobble[i % wobble.count]
        }
        try #require(found.count == 1)
        let crossing = found[0].crossing
        // The median offset is within a pixel (3.3 ms at 300 px/s).
        #expect(abs(Self.errorMs(crossing)) < 3.4, "\(Self.errorMs(crossing)) ms")
        let clean = try #require(Self.run(frames: 26) { i, truth in i <= 17 ? truth : nil }.first)
        #expect(crossing.uncertaintyMs > clean.crossing.uncertaintyMs)
    }

    @Test func notWhenTheFrontsTimedIt() {
        // The front tracker times a crossing at frame 23, after the centre's estimate passed the line.
        let found = Self.run(frames: 60, tracker: { i in Tracker(crossings: i >= 23 ? 1 : 0, armed: i < 23) }) { i, truth in
            i <= 17 ? truth : nil
        }
        #expect(found.isEmpty)
    }

    @Test func notWhileTheFrontsArePendingNorWhenNotArmed() {
        // Pending until frame 40 (its postroll may still time it), then given up: the centre's turn.
        let pending = Self.run(frames: 60, final: false, tracker: { i in Tracker(pending: i < 40) }) { i, truth in
            i <= 17 ? truth : nil
        }
        #expect(pending.count == 1 && pending.first?.frame ?? 0 >= 40)
        // Not armed (within the last crossing's rearming) when the centre reached the line: nothing to time.
        let unarmed = Self.run(frames: 60, tracker: { i in Tracker(armed: i > 25) }) { i, truth in i <= 17 ? truth : nil }
        #expect(unarmed.isEmpty)
    }

    @Test func notForATorsoThatSwaysBackBehindTheLine() {
        // The centre reaches 6 px past the line's estimate and comes back.
        let found = Self.run(frames: 60, centre: { i, truth in i <= 21 ? truth : Self.centre(21 / Self.fps) - Double(i - 21) },
                             front: { i, truth in i <= 17 ? truth : nil })
        #expect(found.isEmpty)
    }

    @Test func notForATorsoThatStopsJustPastTheLine() {
        // Its estimate 6 px past the line (within the torso's depth, 10 px)
        // when the track ends: a standing start swaying at the line.
        let found = Self.run(frames: 40, centre: { i, truth in i <= 21 ? truth : Self.centre(21 / Self.fps) },
                             front: { i, truth in i <= 17 ? truth : nil })
        #expect(found.isEmpty)
        // The same torso carried on is timed.
        #expect(Self.run(frames: 40) { i, truth in i <= 17 ? truth : nil }.count == 1)
    }

    @Test func notWithoutFrontsToTellTheOffset() {
        // Two fronts: one of them may be a limb's.
        let found = Self.run(frames: 60) { i, truth in i == 5 || i == 9 ? truth : nil }
        #expect(found.isEmpty)
    }

    @Test func notForACentreTooSlowToBeARunner() {
        // 20 px/s (below the 32 px/s timed): a torso drifting over the line.
        let found = Self.run(frames: 200, centre: { i, _ in Self.gateX - Self.offset - 5 + 20 * Double(i) / Self.fps },
                             front: { i, _ in i <= 5 ? Self.gateX - 5 + 20 * Double(i) / Self.fps : nil })
        #expect(found.isEmpty)
    }
}

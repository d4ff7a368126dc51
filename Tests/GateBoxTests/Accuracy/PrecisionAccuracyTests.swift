import Testing
import GateCore
import GateSim

/// Precision mode on a slice of `make accuracy`: the physical factors that
/// defeat frame differencing (a leaning torso, an accelerating start that
/// leans, a rolling shutter, flicker), a pair of runners, and the scenes
/// that must not trigger, at a size a debug build renders quickly. Bounds
/// well inside the targets (p95 of 1 ms at 120 fps, 4 ms at 30).
@Suite struct PrecisionAccuracyTests {
    static func run(_ clip: ClipSpec) -> (errorsMs: [Double], misses: Int, falseTriggers: Int) {
        AccuracySliceTests.errors(of: clip, mode: .precision)
    }

    static func small(_ clip: ClipSpec) -> ClipSpec { AccuracySliceTests.small(clip) }

    @Test(arguments: ["lean", "accelerating", "readout", "flicker", "fps30", "clean"])
    func torsosAreTimedToTheirFront(factor: String) {
        let clips = AccuracyCorpus.factorClips(perFactor: 2).filter { $0.kind == factor }.map(Self.small)
        #expect(clips.count == 2)
        for clip in clips {
            let r = Self.run(clip)
            #expect(r.misses == 0 && r.falseTriggers == 0, "\(clip.name): \(r.misses) misses, \(r.falseTriggers) false")
            for e in r.errorsMs { #expect(abs(e) <= 0.6, "\(clip.name): error \(e) ms") }
        }
    }

    @Test func twoRunnersHalfASecondApartAreBothTimed() {
        let clip = Self.small(AccuracyCorpus.clips(runnerClipsPerRate: 0).first { $0.name == "pair-120fps" }!)
        let r = Self.run(clip)
        #expect(r.misses == 0 && r.falseTriggers == 0, "\(r.misses) misses, \(r.falseTriggers) false")
        #expect(r.errorsMs.count == 2)
        for e in r.errorsMs { #expect(abs(e) <= 0.6, "error \(e) ms") }
    }

    @Test(arguments: AccuracyCorpus.NegativeScene.allCases)
    func scenesThatMustNotTriggerDoNot(kind: AccuracyCorpus.NegativeScene) {
        let clip = Self.small(AccuracyCorpus.clips(runnerClipsPerRate: 0).first { $0.name == "quiet-\(kind.name)-60fps" }!)
        let r = Self.run(clip)
        #expect(r.falseTriggers == 0, "\(clip.name) triggered \(r.falseTriggers) times")
    }
}

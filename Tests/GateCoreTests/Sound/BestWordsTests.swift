import Testing
@testable import GateCore

/// A new best is said after the time, with by how much it beat the last.
@Suite struct BestWordsTests {
    static var voice: Voice {
        var voice = Voice()
        for index in 0..<Phrase.count { voice.add(Phrase(index: index), samples: [Int16](repeating: 4000, count: 2205), rate: 22050) }
        return voice
    }

    func said(_ groups: [[Phrase]]?) -> String? {
        groups?.map { $0.map(\.words).joined(separator: " ") }.joined(separator: ", ")
    }

    @Test func aPersonalBestIsSaidWithItsGain() {
        let words = StartCalls.timeWords(lap: nil, nanos: 5_450_000_000, units: false, remark: .newPersonalBest,
                                         gainNanos: 50_000_000, voice: Self.voice)
        #expect(said(words) == "five point four five, new personal best by zero point zero five")
        let first = StartCalls.timeWords(lap: nil, nanos: 5_450_000_000, units: false, remark: .seasonBest, voice: Self.voice)
        #expect(said(first) == "five point four five, season best", "a first run has nothing to beat")
    }

    @Test func withoutTheByClipTheTimeIsNotSaid() {
        var voice = Voice()
        for index in 0..<Phrase.count where Phrase(index: index) != .by {
            voice.add(Phrase(index: index), samples: [Int16](repeating: 4000, count: 2205), rate: 22050)
        }
        #expect(StartCalls.timeWords(lap: nil, nanos: 5_450_000_000, units: false, remark: .newPersonalBest,
                                     gainNanos: 50_000_000, voice: voice) == nil)
    }
}

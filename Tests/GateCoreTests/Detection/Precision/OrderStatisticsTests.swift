import Testing
@testable import GateCore

@Suite struct SelectTests {
    /// Calibration's trimmed mean relies on select leaving the values partitioned around the rank.
    @Test func selectPartitionsAroundTheRank() {
        var noise = SplitMix64(seed: 5)
        let values = UnsafeMutablePointer<Int32>.allocate(capacity: 31)
        defer { values.deallocate() }
        for trial in 0..<200 {
            let count = 1 + trial % 31
            for i in 0..<count { values[i] = Int32(noise.next() % 20) }
            let rank = Int(noise.next() % UInt64(count))
            let sorted = (0..<count).map { values[$0] }.sorted()
            let v = PrecisionDetector.select(values, count: count, rank: rank)
            #expect(v == sorted[rank])
            for i in 0..<rank { #expect(values[i] <= v) }
            for i in rank..<count { #expect(values[i] >= v) }
        }
    }

    /// The row gains' median: the value of the rank from any guess, near
    /// or far, over values anywhere in 16 bits (65535 too, which its
    /// padding lanes hold), the values left as they were.
    @Test func rankValueFindsTheRankFromAnyGuess() {
        var noise = SplitMix64(seed: 11)
        let values = UnsafeMutablePointer<UInt16>.allocate(capacity: 72)
        defer { values.deallocate() }
        for trial in 0..<600 {
            let count = 1 + trial % 64
            let spread = [3, 300, 65536][trial % 3]
            let base = trial % 3 == 2 ? 0 : Int(noise.next() % 60_000)
            for i in 0..<count { values[i] = UInt16(min(65535, base + Int(noise.next() % UInt64(spread)))) }
            let given = (0..<count).map { values[$0] }
            let sorted = given.sorted()
            let rank = Int(noise.next() % UInt64(count))
            for guess in [0, 65535, Int(sorted[rank]), Int(sorted[rank]) - 1, Int(noise.next() % 65536), -5, 70_000] {
                let v = PrecisionDetector.rankValue(values, count: count, rank: rank, near: guess)
                #expect(v == sorted[rank], "trial \(trial), rank \(rank) of \(count), guess \(guess)")
            }
            #expect((0..<count).map { values[$0] } == given)
        }
    }
}

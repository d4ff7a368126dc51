/// What one full or mini sync found (seed 000 section 10.6: keep the lowest
/// 20% of round trips, take the median of their offsets).
public struct ClockSyncResult: Equatable, Sendable {
    public var kind: ClockSyncKind
    /// The instant (this box's clock) the offset is of: the mean of the kept
    /// samples' midpoints.
    public var localNanos: Int64
    /// Median offset of the kept samples; `t_remote = t_local + offset`.
    public var offsetNanos: Int64
    /// How far the true offset can be from `offsetNanos` (see `SyncFilter.reduce`).
    public var boundNanos: Int64
    public var minRttNanos: Int64
    public var maxKeptRttNanos: Int64
    public var sent: Int
    public var received: Int
    public var kept: Int

    public var boundMs: Double { Double(boundNanos) / 1e6 }
}

public enum ClockSyncKind: Equatable, Sendable {
    /// 100 samples at 20 Hz: the first sync, and after a failed or jumped one.
    case full
    /// 30 samples at 10 Hz, every 60 s.
    case mini

    public var name: String { self == .full ? "full" : "mini" }
}

/// The filter, apart from the pinging so it can be checked on hand-made samples.
public enum SyncFilter {
    /// Reduces `samples[0..<count]` to a result, reordering them in place
    /// (insertion sorts: no buffer is allocated, and 100 samples are cheap).
    /// Nil when `count` is 0.
    ///
    /// The bound: every sample confines the true offset to offset -+ rtt/2
    /// (`ClockSample`), so the truth lies where the kept samples' intervals
    /// overlap, and the bound is the farthest end of that overlap from the
    /// median. If they do not overlap (the peer's clock stepped, or its
    /// stamps are not what it says) no sample can be trusted over another,
    /// and the bound is the farthest end of any kept interval. `spreadNanos`
    /// is added for drift during the round itself.
    public static func reduce(_ samples: inout [ClockSample], count: Int, keepFraction: Double,
                              kind: ClockSyncKind, sent: Int, spreadNanos: Int64 = 0) -> ClockSyncResult? {
        guard count > 0 else { return nil }
        sort(&samples, count: count) { $0.rttNanos < $1.rttNanos }
        let kept = min(count, max(1, Int((Double(count) * keepFraction).rounded(.up))))
        let minRtt = samples[0].rttNanos, maxRtt = samples[kept - 1].rttNanos

        // Where the samples' instants are taken before the sort below by
        // offset reorders them: the mean of their midpoints, about the first.
        let base = samples[0].localNanos
        var sumAway = 0.0
        for i in 0..<kept { sumAway += Double(samples[i].localNanos &- base) }
        let local = base &+ Int64((sumAway / Double(kept)).rounded())

        var low = Int64.min, high = Int64.max
        for i in 0..<kept {
            let range = samples[i].offsetRange
            low = max(low, range.low); high = min(high, range.high)
        }
        sort(&samples, count: kept) { $0.offsetNanos < $1.offsetNanos }
        let median = kept % 2 == 1 ? samples[kept / 2].offsetNanos
            : TimingMath.halfSum(samples[kept / 2 - 1].offsetNanos, samples[kept / 2].offsetNanos)
        var bound: Int64
        if low <= high {
            bound = max(distance(median, low), distance(high, median))
        } else {
            bound = 0
            for i in 0..<kept {
                let range = samples[i].offsetRange
                bound = max(bound, distance(median, range.low), distance(range.high, median))
            }
        }
        bound = bound.addingReportingOverflow(spreadNanos).overflow ? .max : bound + spreadNanos
        return ClockSyncResult(kind: kind, localNanos: local, offsetNanos: median, boundNanos: bound,
                               minRttNanos: minRtt, maxKeptRttNanos: maxRtt, sent: sent, received: count, kept: kept)
    }

    /// |a - b|, saturating rather than trapping on a garbled peer's values.
    static func distance(_ a: Int64, _ b: Int64) -> Int64 {
        let (d, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? .max : (d == .min ? .max : abs(d))
    }

    static func sort(_ samples: inout [ClockSample], count: Int, by less: (ClockSample, ClockSample) -> Bool) {
        guard count > 1 else { return }
        for i in 1..<count {
            let item = samples[i]
            var j = i
            while j > 0 && less(item, samples[j - 1]) {
                samples[j] = samples[j - 1]
                j -= 1
            }
            samples[j] = item
        }
    }
}

/// The stamps of one round's pings, in slots made once: slot i holds the
/// ping sent i-th in the round, whose sequence is the round's first plus i.
struct SyncRound {
    private(set) var t1: [Int64], t2: [Int64], t3: [Int64], t4: [Int64]
    private(set) var answered: [Bool]
    private var scratch: [ClockSample]
    private(set) var sent = 0
    private(set) var received = 0
    private(set) var firstSequence: UInt8 = 0

    init(capacity: Int) {
        precondition(capacity > 0 && capacity <= 256, "a round's sequences must not wrap")
        t1 = Array(repeating: 0, count: capacity); t2 = t1; t3 = t1; t4 = t1
        answered = Array(repeating: false, count: capacity)
        scratch = Array(repeating: ClockSample(offsetNanos: 0, rttNanos: 0, localNanos: 0), count: capacity)
    }

    var capacity: Int { t1.count }

    mutating func begin(firstSequence: UInt8) {
        self.firstSequence = firstSequence
        sent = 0; received = 0
        for i in 0..<answered.count { answered[i] = false }
    }

    /// Records a ping sent at `t1`; returns its sequence.
    mutating func sendPing(at stamp: Int64) -> UInt8 {
        precondition(sent < capacity)
        t1[sent] = stamp
        sent += 1
        return firstSequence &+ UInt8(truncatingIfNeeded: sent - 1)
    }

    /// The slot of a sequence of this round that was sent, if any.
    func slot(ofSequence sequence: UInt8) -> Int? {
        let i = Int(sequence &- firstSequence)
        return i < sent ? i : nil
    }

    /// The unanswered slot whose ping carried `stamp` (PONGs without a sequence).
    func slot(ofT1 stamp: Int64) -> Int? {
        for i in 0..<sent where !answered[i] && t1[i] == stamp { return i }
        return nil
    }

    /// Stores a pong's stamps in `slot`; false if the slot was answered already.
    mutating func answer(slot: Int, t2: Int64, t3: Int64, t4: Int64) -> Bool {
        guard !answered[slot] else { return false }
        self.t2[slot] = t2; self.t3[slot] = t3; self.t4[slot] = t4
        answered[slot] = true
        received += 1
        return true
    }

    /// A FOLLOW_UP's precise stamp for our ping (t1) or the peer's pong (t3).
    mutating func refine(slot: Int, t1 stamp: Int64) { t1[slot] = stamp }
    mutating func refine(slot: Int, t3 stamp: Int64) { t3[slot] = stamp }

    var allAnswered: Bool { received == sent }

    /// The round's result; nil if no exchange gave a sample.
    mutating func finish(kind: ClockSyncKind, keepFraction: Double, driftPpm: Double, slackNanos: Int64 = 0) -> ClockSyncResult? {
        var count = 0
        var first = Int64.max, last = Int64.min
        for i in 0..<sent where answered[i] {
            guard let sample = ClockSample(t1: t1[i], t2: t2[i], t3: t3[i], t4: t4[i], slackNanos: slackNanos) else { continue }
            scratch[count] = sample
            count += 1
            first = min(first, t1[i]); last = max(last, t4[i])
        }
        guard count > 0 else { return nil }
        // The offset moves by the drift rate while the round lasts; the
        // result is of its middle, so half the round's drift is added.
        let spread = Int64((Double(SyncFilter.distance(last, first)) * driftPpm * 1e-6 / 2).rounded(.up))
        return SyncFilter.reduce(&scratch, count: count, keepFraction: keepFraction, kind: kind, sent: sent,
                                 spreadNanos: spread)
    }
}

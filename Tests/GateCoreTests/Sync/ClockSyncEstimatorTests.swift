import Testing
@testable import GateCore

/// A BLE-like link to a peer whose clock starts `startOffset` ahead and runs
/// `ppm` fast. Half the exchanges wait for a connection event on the way out
/// (offset biased up by half the wait), a tenth are stuck for hundreds of
/// milliseconds, and even the clean ones are asymmetric (4 ms out, 2.5 back).
struct SimulatedLink {
    var random = SplitMix64(seed: 7)
    var startOffset: Double = 1.234e15
    var ppm = 50.0
    var turnaround = 500_000.0

    func remote(_ local: Double) -> Double { local + startOffset + ppm * 1e-6 * local }
    /// The true offset at a local instant: t_remote = t_local + offset.
    func truth(_ local: Int64) -> Double { remote(Double(local)) - Double(local) }

    mutating func exchange(t1: Int64) -> (t2: Int64, t3: Int64, t4: Int64) {
        var out = 4e6 + random.uniform(0, 0.5e6), back = 2.5e6 + random.uniform(0, 0.5e6)
        let kind = random.unit()
        if kind < 0.1 {
            if random.unit() < 0.5 { out += random.uniform(200e6, 400e6) } else { back += random.uniform(200e6, 400e6) }
        } else if kind < 0.6 {
            out += random.uniform(8e6, 15e6)
        }
        let arrive = Double(t1) + out
        let t2 = remote(arrive)
        let t3 = t2 + turnaround
        let leave = arrive + turnaround / (1 + ppm * 1e-6)
        return (Int64(t2), Int64(t3), Int64(leave + back))
    }
}

@Suite struct ClockSyncEstimatorTests {
    let ms: Int64 = 1_000_000
    let s: Int64 = 1_000_000_000

    /// Drives the estimator, answering every ping at once through `link`;
    /// `check` sees every instant the estimator waits until, and the link.
    func run(_ e: inout ClockSyncEstimator, _ link: inout SimulatedLink, until end: Int64,
             pings: inout [(Int64, UInt8, ClockSyncKind)], check: (ClockSyncEstimator, Int64, SimulatedLink) -> Void = { _, _, _ in }) {
        var now: Int64 = 0
        while now < end {
            switch e.step(now: now) {
            case .sendPing(let sequence, let kind):
                pings.append((now, sequence, kind))
                let (t2, t3, t4) = link.exchange(t1: now)
                e.receivePong(sequence: sequence, echoedT1: now, t2: t2, t3: t3, receivedAt: t4)
            case .wait(let until):
                now = until
                check(e, now, link)
            case .idle:
                return
            }
        }
    }

    @Test func theFirstMiniSyncsComeSoonerToMeasureTheDrift() {
        var e = ClockSyncEstimator()
        e.start(now: 0)
        var link = SimulatedLink()
        var pings: [(Int64, UInt8, ClockSyncKind)] = []
        run(&e, &link, until: 200 * s, pings: &pings)
        // Rounds start 5, 10, 20, 40 then 60 s after the one before.
        var starts: [Int64] = [pings[0].0]
        for i in 1..<pings.count where pings[i].2 != pings[i - 1].2 || pings[i].0 - pings[i - 1].0 > 100 * ms { starts.append(pings[i].0) }
        #expect(starts == [0, 5 * s, 15 * s, 35 * s, 75 * s, 135 * s, 195 * s])
    }

    @Test func schedulesFullThenMiniSyncs() {
        var c = ClockSyncConfiguration()
        c.firstRefreshNanos = c.refreshEveryNanos   // the seed's schedule
        var e = ClockSyncEstimator(configuration: c)
        #expect(e.step(now: 0) == .idle)
        e.start(now: 0)
        var link = SimulatedLink()
        var pings: [(Int64, UInt8, ClockSyncKind)] = []
        run(&e, &link, until: 123 * s, pings: &pings)
        #expect(pings.count == 100 + 30 + 30)
        for k in 0..<100 { #expect(pings[k].0 == Int64(k) * 50 * ms && pings[k].1 == UInt8(k) && pings[k].2 == .full) }
        for k in 0..<30 {
            #expect(pings[100 + k].0 == 60 * s + Int64(k) * 100 * ms && pings[100 + k].2 == .mini)
            #expect(pings[130 + k].0 == 120 * s + Int64(k) * 100 * ms)
        }
        #expect(pings[100].1 == 100 && pings[159].1 == 159)
        #expect(e.roundsFinished == 3 && e.running == nil)
        #expect(e.step(now: 123 * s) == .wait(untilNanos: 180 * s))
    }

    @Test func aLateCallerGetsNoBurst() {
        var e = ClockSyncEstimator()
        e.start(now: 0)
        #expect(e.step(now: 0) == .sendPing(sequence: 0, kind: .full))
        #expect(e.step(now: 10 * ms) == .wait(untilNanos: 50 * ms))
        #expect(e.step(now: 70 * ms) == .sendPing(sequence: 1, kind: .full))
        #expect(e.step(now: 70 * ms) == .wait(untilNanos: 100 * ms))  // on schedule
        #expect(e.step(now: 400 * ms) == .sendPing(sequence: 2, kind: .full))
        #expect(e.step(now: 400 * ms) == .wait(untilNanos: 450 * ms))  // one interval on, not four at once
    }

    @Test func anUnansweredSyncFailsAndIsRetried() {
        var e = ClockSyncEstimator()
        e.start(now: 0)
        var now: Int64 = 0
        var sent = 0
        while sent < 100 {
            if case .sendPing = e.step(now: now) { sent += 1 } else { now += 50 * ms }
        }
        #expect(e.step(now: now) == .wait(untilNanos: now + 1 * s))
        #expect(e.running == .full)
        #expect(e.readiness(atNanos: now).reason.contains("0 of 100 answered"))
        #expect(e.step(now: now + 1 * s) == .wait(untilNanos: now + 6 * s))
        #expect(e.lastFailure == "clock sync: full sync failed, 0 of 100 pings answered")
        let r = e.readiness(atNanos: now + 2 * s)
        #expect(!r.canTime && r.reason == e.lastFailure && r.quality == nil)
        #expect(e.step(now: now + 6 * s) == .sendPing(sequence: 100, kind: .full))
    }

    @Test func pongsAreMatchedBySequenceOrByEcho() {
        var e = ClockSyncEstimator()
        e.start(now: 0)
        _ = e.step(now: 0)               // seq 0, t1 0
        _ = e.step(now: 50 * ms)         // seq 1, t1 50 ms
        _ = e.step(now: 100 * ms)        // seq 2, t1 100 ms
        let wrongEcho = e.receivePong(sequence: 1, echoedT1: 7, t2: 1, t3: 2, receivedAt: 60 * ms)
        let neverSent = e.receivePong(sequence: 9, echoedT1: 0, t2: 1, t3: 2, receivedAt: 60 * ms)
        let shortPingEcho = e.receivePong(sequence: 0, echoedT1: 0, t2: 1, t3: 2, receivedAt: 10 * ms)
        let unsequenced = e.receive(.pong(sequence: nil, t1: 50 * ms, t2: 3, t3: 4), at: 60 * ms)
        let again = e.receivePong(sequence: 1, echoedT1: 50 * ms, t2: 3, t3: 4, receivedAt: 61 * ms)
        let followUp = e.receive(.followUp(sequence: 1, of: .pong, preciseSendNanos: 5), at: 62 * ms)
        let followUpTooEarly = e.receive(.followUp(sequence: 2, of: .pong, preciseSendNanos: 5), at: 62 * ms)
        let ownStamp = e.refineOwnSendStamp(sequence: 2, preciseNanos: 100 * ms + 30_000)
        #expect(!wrongEcho && !neverSent && shortPingEcho && unsequenced && !again)
        #expect(followUp && !followUpTooEarly && ownStamp)
    }

    @Test func fourHoursOfFiftyPpmDriftThroughABadLink() throws {
        var e = ClockSyncEstimator()
        var link = SimulatedLink()
        e.start(now: 0)
        var pings: [(Int64, UInt8, ClockSyncKind)] = []
        var checked = 0, outside = 0, cannotTime = 0
        var worstLateError = 0.0
        let end = 4 * 3600 * s
        run(&e, &link, until: end, pings: &pings) { e, now, link in
            guard let p = e.prediction(atNanos: now) else { return }
            let error = (Double(p.offsetNanos) - link.truth(now)).magnitude
            checked += 1
            // Honesty: the truth within the bounds the box reports, always.
            if error > Double(p.syncBoundNanos) + p.driftBoundNanos { outside += 1 }
            if !e.readiness(atNanos: now).canTime { cannotTime += 1 }
            // Late in a sync's minute, past the first ten minutes: only a
            // fitted rate keeps the error small (50 ppm x 59 s = 2.95 ms).
            if now > 10 * 60 * s && p.sinceSyncNanos > 55 * s { worstLateError = max(worstLateError, error) }
        }
        // One a minute, and three more early on (5, 15 and 35 s) for the drift.
        #expect(e.roundsFinished == 243)
        #expect(checked > 7_000 && outside == 0)
        let result = try #require(e.lastResult)
        #expect(result.kind == .mini && result.received == 30 && result.kept == 6)
        // Lowest fifth only: over half the exchanges are biased 4 ms or more
        // up, so a median of all of them would be off by more than 4 ms.
        #expect((Double(result.offsetNanos) - link.truth(result.localNanos)).magnitude < 1.5e6)
        #expect(result.maxKeptRttNanos < 8 * ms)
        // The same link with every sample kept: the median lands among the biased.
        var all = ClockSyncConfiguration()
        all.keepFraction = 1
        var unfiltered = ClockSyncEstimator(configuration: all)
        var sameLink = SimulatedLink()
        unfiltered.start(now: 0)
        run(&unfiltered, &sameLink, until: 10 * s, pings: &pings)
        let first = try #require(unfiltered.lastResult)
        #expect((Double(first.offsetNanos) - sameLink.truth(first.localNanos)).magnitude > 3e6)
        let rate = try #require(e.drift.rate)
        #expect(abs(rate.ppm - 50) < 1)
        #expect(rate.uncertaintyPpm < 5)
        #expect(worstLateError > 0 && worstLateError < 1.5e6)
        // FAIR or better throughout, once synchronised.
        #expect(cannotTime == 0)
        let r = e.readiness(atNanos: end)
        #expect(r.canTime && r.quality! >= .good)
    }

    @Test func aPeerThatRebootedStartsANewDriftLine() {
        var c = ClockSyncConfiguration()
        c.firstRefreshNanos = c.refreshEveryNanos   // the seed's schedule: one sync a minute
        var e = ClockSyncEstimator(configuration: c)
        var link = SimulatedLink()
        e.start(now: 0)
        var pings: [(Int64, UInt8, ClockSyncKind)] = []
        run(&e, &link, until: 5 * 60 * s, pings: &pings)
        #expect(e.drift.count == 5)
        link.startOffset -= 3e9   // its clock went back 3 s
        run(&e, &link, until: 7 * 60 * s, pings: &pings)
        #expect(e.drift.count == 2)
    }

    @Test func qualityTiersAndReasons() {
        #expect(ClockSyncQuality(uncertaintyMs: 2.99) == .excellent)
        #expect(ClockSyncQuality(uncertaintyMs: 3) == .good)
        #expect(ClockSyncQuality(uncertaintyMs: 5) == .fair)
        #expect(ClockSyncQuality(uncertaintyMs: 10) == .fair)
        #expect(ClockSyncQuality(uncertaintyMs: 10.01) == .poor)
        #expect(ClockSyncQuality(uncertaintyMs: .nan) == .poor)
        #expect(!ClockSyncQuality.poor.canTime && ClockSyncQuality.fair.canTime)

        // One sync, bound 2 ms, then the 50 ppm prior: 2 + 0.05 per second.
        var tracker = DriftTracker(capacity: 4, priorPpm: 50)
        tracker.add(ClockSyncResult(kind: .full, localNanos: 0, offsetNanos: 5 * ms, boundNanos: 2 * ms,
                                    minRttNanos: 4 * ms, maxKeptRttNanos: 5 * ms, sent: 100, received: 100, kept: 20))
        let p = tracker.predict(atNanos: 200 * s)!
        #expect(p.offsetNanos == 5 * ms && p.driftPpm == nil)
        #expect(p.syncUncertaintyMs == 2 && abs(p.driftUncertaintyMs - 10) < 1e-9 && abs(p.uncertaintyMs - 12) < 1e-9)
        #expect(ClockSyncQuality(uncertaintyMs: p.uncertaintyMs) == .poor)
    }

    @Test func driftLineFitsTwoSyncs() throws {
        var tracker = DriftTracker(capacity: 4, priorPpm: 50)
        func add(_ at: Int64, _ offset: Int64) {
            tracker.add(ClockSyncResult(kind: .mini, localNanos: at, offsetNanos: offset, boundNanos: ms,
                                        minRttNanos: 0, maxKeptRttNanos: 0, sent: 30, received: 30, kept: 6))
        }
        add(0, 1_000 * ms)
        add(100 * s, 1_000 * ms + 2 * ms)       // 2 ms in 100 s: 20 ppm
        let rate = try #require(tracker.rate)
        #expect(abs(rate.ppm - 20) < 1e-9)
        // Bounds of 1 ms over 100 s with two points: 1e6 * sqrt(6) / 100 / 1e3 ppm.
        #expect(abs(rate.uncertaintyPpm - 6.0.squareRoot() * 10) < 1e-9)
        let p = try #require(tracker.predict(atNanos: 150 * s))
        #expect(p.offsetNanos == 1_003 * ms)
        #expect(abs(p.driftUncertaintyMs - 50 * 6.0.squareRoot() * 10 * 1e-3) < 1e-9)
        // Older points fall out of the ring.
        for k in 2..<6 { add(Int64(k) * 100 * s, 1_000 * ms) }
        #expect(tracker.count == 4 && abs(tracker.rate!.ppm) < 1e-9)
    }
}

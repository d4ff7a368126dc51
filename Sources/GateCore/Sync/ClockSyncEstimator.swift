/// How often and how many pings each kind of sync sends (seed 000 section 10.6).
public struct ClockSyncConfiguration: Equatable, Sendable {
    public var fullSamples = 100
    public var fullIntervalNanos: Int64 = 50_000_000      // 20 Hz
    public var miniSamples = 30
    public var miniIntervalNanos: Int64 = 100_000_000     // 10 Hz
    /// From the start of one sync to the start of the next mini sync: the
    /// syncs stay evenly spaced for the drift line, however long each took.
    public var refreshEveryNanos: Int64 = 60_000_000_000
    /// The gap before the first mini sync; each later gap doubles up to
    /// `refreshEveryNanos` (5, 10, 20, 40, 60, 60 s...). Until a second sync
    /// measures the drift, the offset runs off at up to 50 ppm, 3 ms in the
    /// seed's first minute; two syncs 5 s apart pin the line within
    /// seconds. Set it to `refreshEveryNanos` for the seed's schedule.
    public var firstRefreshNanos: Int64 = 5_000_000_000
    /// How long after its last ping a round waits for the late pongs.
    public var replyTimeoutNanos: Int64 = 1_000_000_000
    /// How soon a failed round is tried again.
    public var retryAfterNanos: Int64 = 5_000_000_000
    /// The lowest round trips kept.
    public var keepFraction = 0.2
    /// A round with fewer of its pings answered fails: the link is too lossy
    /// for the lowest fifth of what came back to mean the lowest fifth.
    public var minimumAnsweredFraction = 0.25
    /// Syncs the drift line is fitted over (16 minutes at one a minute).
    public var driftHistory = 16
    /// Relative drift assumed before two syncs measure it (`DriftTracker`).
    public var priorDriftPpm = 50.0
    /// How far a stamp may be off its instant: 0 for host stamps; with
    /// precise sync (radio send instants) the controllers' reporting delay
    /// and the transports' jitter, which the round trip no longer covers.
    public var stampSlackNanos: Int64 = 0

    public init() {}

    public static let standard = ClockSyncConfiguration()

    func samples(_ kind: ClockSyncKind) -> Int { kind == .full ? fullSamples : miniSamples }
    func interval(_ kind: ClockSyncKind) -> Int64 { kind == .full ? fullIntervalNanos : miniIntervalNanos }
}

/// What the caller does now.
public enum ClockSyncStep: Equatable, Sendable {
    /// Send a PING with this sequence and `t1` = the `now` passed to `step`.
    case sendPing(sequence: UInt8, kind: ClockSyncKind)
    /// Nothing until this instant (or until a PONG arrives).
    case wait(untilNanos: Int64)
    /// Not started.
    case idle
}

/// The initiator's side of clock sync as a pure state machine: it is told
/// the time (`step(now:)`) and the PONGs (`receivePong`), says when the next
/// PING is due and which sync is running, and keeps the results. No timers,
/// no I/O; the slots and the drift history are made at init.
///
/// The responder's side needs no state: `ClockSyncPacket.reply(t2:t3:)`.
public struct ClockSyncEstimator {
    public let configuration: ClockSyncConfiguration
    private var round: SyncRound
    public private(set) var drift: DriftTracker
    private var phase = Phase.idle
    private var nextSequence: UInt8 = 0
    private var roundStartedAt: Int64 = 0
    /// The last round that produced a result.
    public private(set) var lastResult: ClockSyncResult?
    /// Why the last round failed, empty once one succeeds.
    public private(set) var lastFailure = ""
    /// Rounds that ended, with a result or not.
    public private(set) var roundsFinished = 0

    private enum Phase: Equatable {
        case idle
        case waiting(kind: ClockSyncKind, untilNanos: Int64)
        case pinging(kind: ClockSyncKind, dueNanos: Int64)
        case collecting(kind: ClockSyncKind, deadlineNanos: Int64)
    }

    public init(configuration: ClockSyncConfiguration = .standard) {
        self.configuration = configuration
        round = SyncRound(capacity: max(configuration.fullSamples, configuration.miniSamples))
        drift = DriftTracker(capacity: configuration.driftHistory, priorPpm: configuration.priorDriftPpm)
    }

    /// Starts (or restarts) with a full sync at `now`, forgetting the drift
    /// history: a new peer, or the same one after it rebooted.
    public mutating func start(now: Int64) {
        drift.reset()
        lastResult = nil
        lastFailure = ""
        phase = .waiting(kind: .full, untilNanos: now)
    }

    /// Stops pinging; the results so far stay.
    public mutating func stop() { phase = .idle }

    /// The sync whose pings are being sent or answered, if any.
    public var running: ClockSyncKind? {
        switch phase {
        case .pinging(let kind, _), .collecting(let kind, _): return kind
        case .idle, .waiting: return nil
        }
    }

    /// Advances to `now`. Call it when the last `.wait` instant comes, after
    /// each `.sendPing` (another may be due at once if the caller was late),
    /// and after a PONG.
    public mutating func step(now: Int64) -> ClockSyncStep {
        while true {
            switch phase {
            case .idle:
                return .idle
            case .waiting(let kind, let until):
                guard now >= until else { return .wait(untilNanos: until) }
                round.begin(firstSequence: nextSequence)
                roundStartedAt = now
                phase = .pinging(kind: kind, dueNanos: now)
            case .pinging(let kind, let due):
                guard now >= due else { return .wait(untilNanos: due) }
                let sequence = round.sendPing(at: now)
                nextSequence = sequence &+ 1
                if round.sent == configuration.samples(kind) {
                    phase = .collecting(kind: kind, deadlineNanos: now + configuration.replyTimeoutNanos)
                } else {
                    // On schedule, or one interval from now if the caller was
                    // so late that keeping the schedule would mean a burst.
                    let interval = configuration.interval(kind)
                    let next = due + interval
                    phase = .pinging(kind: kind, dueNanos: next > now ? next : now + interval)
                }
                return .sendPing(sequence: sequence, kind: kind)
            case .collecting(let kind, let deadline):
                guard round.allAnswered || now >= deadline else { return .wait(untilNanos: deadline) }
                finishRound(kind: kind, now: now)
            }
        }
    }

    /// A PONG received at `t4`. `sequence` nil (section 2.1's forms) matches by
    /// the echoed t1; an echoed t1 of 0 (answer to a 2-byte PING) matches by
    /// sequence alone. True if it answered a ping of the running round.
    @discardableResult
    public mutating func receivePong(sequence: UInt8?, echoedT1: Int64, t2: Int64, t3: Int64, receivedAt t4: Int64) -> Bool {
        guard running != nil else { return false }
        let slot: Int?
        if let sequence {
            slot = round.slot(ofSequence: sequence)
            // A late pong of an earlier round may carry a reused sequence.
            if let slot, echoedT1 != 0 && echoedT1 != round.t1[slot] { return false }
        } else {
            slot = round.slot(ofT1: echoedT1)
        }
        guard let slot else { return false }
        return round.answer(slot: slot, t2: t2, t3: t3, t4: t4)
    }

    /// A parsed PONG packet received at `t4`; false for any other packet.
    @discardableResult
    public mutating func receive(_ packet: ClockSyncPacket, at t4: Int64) -> Bool {
        switch packet {
        case .pong(let sequence, let t1, let t2, let t3):
            return receivePong(sequence: sequence, echoedT1: t1, t2: t2, t3: t3, receivedAt: t4)
        case .followUp(let sequence, let of, let precise):
            guard of == .pong else { return false }
            return refinePeerSendStamp(sequence: sequence, preciseNanos: precise)
        case .ping:
            return false
        }
    }

    /// The precise instant our ping `sequence` left (a FOLLOW_UP we send
    /// after it, from the radio's own stamp), replacing the t1 of `step`.
    @discardableResult
    public mutating func refineOwnSendStamp(sequence: UInt8, preciseNanos: Int64) -> Bool {
        guard running != nil, let slot = round.slot(ofSequence: sequence) else { return false }
        round.refine(slot: slot, t1: preciseNanos)
        return true
    }

    /// The precise instant the peer's pong `sequence` left (its FOLLOW_UP).
    @discardableResult
    public mutating func refinePeerSendStamp(sequence: UInt8, preciseNanos: Int64) -> Bool {
        guard running != nil, let slot = round.slot(ofSequence: sequence), round.answered[slot] else { return false }
        round.refine(slot: slot, t3: preciseNanos)
        return true
    }

    private mutating func finishRound(kind: ClockSyncKind, now: Int64) {
        roundsFinished += 1
        let sent = round.sent, received = round.received
        let answeredEnough = Double(received) >= configuration.minimumAnsweredFraction * Double(sent)
        if answeredEnough,
           let result = round.finish(kind: kind, keepFraction: configuration.keepFraction, driftPpm: configuration.priorDriftPpm,
                                     slackNanos: configuration.stampSlackNanos) {
            // A result outside what the drift line allowed: the peer's clock
            // stepped (a reboot, a clock reset), and the line is of a clock
            // that no longer exists.
            if let p = drift.predict(atNanos: result.localNanos) {
                let allowed = Double(p.syncBoundNanos) + p.driftBoundNanos + Double(result.boundNanos) + 1e6
                if Double(SyncFilter.distance(result.offsetNanos, p.offsetNanos)) > allowed { drift.reset() }
            }
            drift.add(result)
            lastResult = result
            lastFailure = ""
            let gap = min(configuration.refreshEveryNanos, configuration.firstRefreshNanos << Int64(min(drift.count - 1, 20)))
            phase = .waiting(kind: .mini, untilNanos: max(now, roundStartedAt + gap))
        } else {
            lastFailure = "clock sync: " + kind.name + " sync failed, " + String(received) + " of " + String(sent) + " pings answered"
            phase = .waiting(kind: drift.count == 0 ? .full : .mini, untilNanos: now + configuration.retryAfterNanos)
        }
    }

    /// The offset predicted at `nanos` (this box's clock) and its bounds.
    public func prediction(atNanos nanos: Int64) -> ClockPrediction? {
        drift.predict(atNanos: nanos)
    }

    /// Whether the peer's stamps may be used for timing at `nanos`: FAIR or
    /// better, with the uncertainty the sync's bound plus the drift's.
    public func readiness(atNanos nanos: Int64) -> ClockSyncReadiness {
        guard let p = prediction(atNanos: nanos) else {
            var reason = lastFailure.isEmpty ? "clock sync: not synchronised yet" : lastFailure
            if running == .full { reason += "; full sync running, " + String(round.received) + " of " + String(round.sent) + " answered" }
            return ClockSyncReadiness(canTime: false, reason: reason, quality: nil, uncertaintyMs: nil)
        }
        let quality = ClockSyncQuality(uncertaintyMs: p.uncertaintyMs)
        guard quality.canTime else {
            let reason = "clock sync " + quality.name + ": +-" + DecimalText.fixed(p.uncertaintyMs, places: 1)
                + " ms (sync +-" + DecimalText.fixed(p.syncUncertaintyMs, places: 1)
                + ", drift +-" + DecimalText.fixed(p.driftUncertaintyMs, places: 1)
                + "); timing needs 10 ms or better"
            return ClockSyncReadiness(canTime: false, reason: reason, quality: quality, uncertaintyMs: p.uncertaintyMs)
        }
        return ClockSyncReadiness(canTime: true, reason: "", quality: quality, uncertaintyMs: p.uncertaintyMs)
    }
}

import GateCore
import GateProtocol

/// One box's part in a race of 2 to 4 boxes (seed 000, 9; seed 002, 3.2 and
/// 6), as pure logic: no I/O and no clock of its own. Every call is given
/// `now` (this box's CLOCK_MONOTONIC nanoseconds) and returns effects, which
/// the caller performs in order, as `BoxLoop` does with its devices.
///
/// The boxes form a star. The HOST (where the session is made, with the
/// plan) has a link to every other box, numbered 0..<n; every other box has
/// one link, to the host, numbered 0. Boxes other than the host never talk
/// to each other. The host runs clock sync with each peer (elsewhere) and
/// reports it with `syncChanged` (t_peer = t_host + offset); it computes
/// every split from the crossings on each box's own clock and broadcasts
/// it; every box records every run.
///
/// Crossings are delivered at least once and counted once: a joiner keeps
/// each crossing_event until the host's crossing_ack, sends its outbox again
/// after a reconnect, and the host drops duplicates by (deviceId,
/// crossingTimeNanos). A crossing made while its link was down is counted
/// when the link returns, and the split is computed then.
public struct RaceCoordinator {
    public let deviceId: String
    public let deviceName: String
    /// The session code; empty on a joiner that joins its bonded host
    /// without one, until the host accepts it.
    public internal(set) var sessionId: String
    /// The host's plan; nil on a joiner.
    public let plan: RacePlan?
    public var settings: RaceSettings
    public internal(set) var state: RaceState = .idle
    /// This box's role: the host's own, or on a joiner the one it asks for
    /// until the host assigns one. nil: a joiner that asks for none yet.
    public internal(set) var role: GateRole?
    /// This box's gate in the plan (0 the start); nil until assigned, or for
    /// a control-only host.
    public internal(set) var gateIndex: Int?
    /// Messages refused as replays (dated before their link's join).
    public internal(set) var refusedReplays = 0
    /// How far before its join a sender's message may be dated: room for a
    /// phone's clock being set while it runs, none for an old session's.
    static let replayWindowMillis: Int64 = 30_000
    /// The run armed or last armed (1, 2, ...); 0 before the first.
    public internal(set) var runNumber = 0
    /// The runs this box has recorded.
    public internal(set) var runsRecorded = 0

    /// Per link: whether it is up, when it was last heard, the sync (host).
    var links: [RaceLink] = []

    // MARK: host
    /// One seat per planned gate: who holds it (kept across a lost link).
    var seats: [RaceSeat] = []
    /// Per gate, the crossing of the run under way.
    var pending: [PendingCrossing?] = []
    /// Crossings already counted, to drop a crossing sent again.
    var counted = CountedCrossings()
    /// After a run's split: when the next run is armed.
    var rearmAtNanos: Int64?
    /// Runs that ended (timed or not): the next one armed is this + 1.
    var runsEnded = 0

    // MARK: joiner
    var joined = false
    /// This box's detector is armed (tripod still).
    var localReady = false
    var localReadyReason = ""
    var gatePosition = 0.5
    var capturedFps = 0.0
    /// Crossings sent to the host and not yet acknowledged.
    public internal(set) var outbox: [CrossingEvent] = []

    /// Whether this box syncs from the radio's acknowledgement stamps with
    /// a peer that announces it too (a joiner announces it in its join).
    public var offersPreciseSync = true

    /// Host: whether the box on link `peer` announced precise clock sync;
    /// nil until it has joined.
    public func peerOffersPreciseSync(_ peer: Int) -> Bool? {
        peer < links.count ? links[peer].preciseClockSync : nil
    }

    public var isHost: Bool { plan != nil }

    /// `plan` is the host's; a joiner passes nil. On the host, `role` picks
    /// its own gate of the plan (nil or a role the plan has not: it only
    /// controls); on a joiner, the role it asks for.
    public init(deviceId: String, deviceName: String, role: GateRole?, plan: RacePlan?, sessionId: String,
                settings: RaceSettings = RaceSettings()) {
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.sessionId = sessionId
        self.plan = plan
        self.settings = settings
        self.role = role
        guard let plan else { return }
        for gate in plan.gates { seats.append(RaceSeat(gate: gate)) }
        pending = [PendingCrossing?](repeating: nil, count: plan.gates.count)
        self.role = .controlOnly
        if let role, role != .controlOnly {
            for i in seats.indices where seats[i].gate.role == role {
                seats[i].deviceId = deviceId
                seats[i].name = deviceName
                self.role = role
                gateIndex = i
                break
            }
        }
    }

    // MARK: the calls

    /// A link came up (or back). A joiner sends session_join and then its
    /// unacknowledged crossings; the host waits for the joiner's session_join.
    public mutating func peerConnected(_ peer: Int, now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        linkUp(peer, now: now)
        if isHost {
            if state == .idle { state = .connecting }
            evaluate(now: now, &effects)
        } else {
            if state == .idle { state = .connecting }
            sendJoin(&effects)
            resendOutbox(&effects)
        }
        return effects
    }

    /// A link went down (the caller saw it drop).
    public mutating func peerLost(_ peer: Int, now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        lose(peer, silentNanos: nil, now: now, &effects)
        return effects
    }

    /// Whether the link `peer` is to a bonded box over an encrypted link:
    /// it may join without the session code (seed 002 section 8).
    public mutating func setTrusted(_ peer: Int, _ trusted: Bool) {
        ensureLink(peer)
        links[peer].trusted = trusted
    }

    /// A message from link `peer`. Any message is a sign of life.
    public mutating func received(_ message: TimingMessage, from peer: Int, now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        // Seed 002 section 8: a message from an older session, replayed on
        // a link that has joined since, is refused (only the join messages
        // carry a session id; every message carries its sender's time).
        if peer < links.count, let joined = links[peer].joinedMillis,
           message.timestamp < joined - RaceCoordinator.replayWindowMillis {
            refusedReplays += 1
            effects.append(.say("race: a " + message.type + " from " + boxName(peer) + " dated "
                                + String((joined - message.timestamp) / 1000) + " s before its join refused (a replay?)"))
            return effects
        }
        heard(peer, now: now, &effects)
        if isHost {
            hostReceived(message, from: peer, now: now, &effects)
        } else {
            joinerReceived(message, now: now, &effects)
        }
        return effects
    }

    /// The host's clock sync with `peer` changed: whether it may time (FAIR
    /// or better), why not, and the offset as predicted now. `rttNanos` and
    /// `samplesUsed` go into the clock_sync_result sent to the peer.
    public mutating func syncChanged(peer: Int, canTime: Bool, reason: String, prediction: ClockPrediction?,
                                     rttNanos: Int64 = 0, samplesUsed: Int = 0, now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        guard isHost else { return effects }
        hostSyncChanged(peer: peer, canTime: canTime, reason: reason, prediction: prediction,
                        rttNanos: rttNanos, samplesUsed: samplesUsed, now: now, &effects)
        return effects
    }

    /// This box's detector is armed (tripod still, gate learned) or not, and
    /// why not. A joiner tells the host (gate_ready / gate_not_ready); the
    /// host holds its own.
    public mutating func gateReady(_ ready: Bool, reason: String, gatePosition: Double = 0.5, capturedFps: Double = 0,
                                   now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        localReady = ready
        localReadyReason = reason
        self.gatePosition = gatePosition
        self.capturedFps = capturedFps
        if isHost {
            if let gateIndex { seatReady(gateIndex, ready, reason: reason, now: now, &effects) }
        } else {
            sendReadiness(&effects)
        }
        return effects
    }

    /// This box's detector timed a crossing.
    public mutating func localCrossing(_ c: LocalCrossing, now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        if isHost {
            guard let gateIndex else {
                effects.append(.say("race: a crossing on a control-only box is ignored"))
                return effects
            }
            // A standing start begins at its start event; the athlete then
            // runs through the start gate's own line, which times nothing.
            if gateIndex == 0, let plan, plan.startType.isExternal {
                effects.append(.say("race: a crossing at the start gate of a " + plan.startType.name
                                    + " race is not its start; ignored"))
                return effects
            }
            take(PendingCrossing(nanos: c.timeNanos, uncertaintyMs: c.uncertaintyMs, frameIndex: c.frameIndex,
                                 occupancy: c.occupancyAtTrigger, interpolationMs: c.interpolationOffsetMs, peer: nil),
                 gate: gateIndex, now: now, &effects)
        } else {
            joinerCrossing(CrossingEvent(role: role ?? .finish, crossingTimeNanos: c.timeNanos, clockOffsetNanos: 0,
                                         frameIndex: c.frameIndex, occupancyAtTrigger: c.occupancyAtTrigger,
                                         interpolationOffsetMs: c.interpolationOffsetMs, uncertaintyMs: c.uncertaintyMs),
                           now: now, &effects)
        }
        return effects
    }

    /// A start event at the start box: the touch pad's release edge or the
    /// countdown's GO (`source`: "gpio-edge", "pcm-status"). On a joiner it
    /// travels as a start crossing_event with frameIndex -1 (no frame).
    public mutating func localStart(atNanos: Int64, source: String, now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        guard gateIndex == 0 else {
            effects.append(.say("race: a start event (" + source + ") on a box that is not the start gate is ignored"))
            return effects
        }
        effects.append(.say("race: start event from " + source))
        if isHost {
            take(PendingCrossing(nanos: atNanos, uncertaintyMs: 0, frameIndex: -1, occupancy: 0, interpolationMs: 0, peer: nil),
                 gate: 0, now: now, &effects)
        } else {
            joinerCrossing(CrossingEvent(role: .start, crossingTimeNanos: atNanos, clockOffsetNanos: 0, frameIndex: -1,
                                         occupancyAtTrigger: 0, interpolationOffsetMs: 0, uncertaintyMs: 0),
                           now: now, &effects)
        }
        return effects
    }

    /// Heartbeats, silent links, the host's re-arm. Call it at `nextDueNanos`.
    public mutating func tick(now: Int64) -> [RaceEffect] {
        var effects: [RaceEffect] = []
        for peer in links.indices where links[peer].connected {
            let silent = now - links[peer].lastHeardNanos
            if silent >= settings.silenceLimitNanos {
                lose(peer, silentNanos: silent, now: now, &effects)
                continue
            }
            if now >= links[peer].nextHeartbeatNanos {
                effects.append(.send(.heartbeat(Heartbeat(state: state.heartbeatState, thermalState: .nominal)), to: peer))
                links[peer].nextHeartbeatNanos += settings.heartbeatIntervalNanos
                if links[peer].nextHeartbeatNanos <= now { links[peer].nextHeartbeatNanos = now + settings.heartbeatIntervalNanos }
            }
        }
        if let rearm = rearmAtNanos, now >= rearm { self.rearm(now: now, &effects) }
        return effects
    }

    /// When `tick` is next due: a heartbeat, a link's silence limit, a re-arm.
    public var nextDueNanos: Int64? {
        var due: Int64? = rearmAtNanos
        for link in links where link.connected {
            let next = min(link.nextHeartbeatNanos, link.lastHeardNanos + settings.silenceLimitNanos)
            due = due.map { min($0, next) } ?? next
        }
        return due
    }
}

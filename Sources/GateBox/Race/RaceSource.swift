import GateCore
import GateDevices
import GateProtocol

/// The race as one of the loop's sources (house rule 2): the links to the
/// other boxes, clock sync on each, seed 002's messages in fragments, and
/// the `RaceCoordinator` that decides. The loop hands it link events, its
/// timer, this box's crossings and arming; it sends what goes on the air
/// itself and gives back what the loop shows and records.
struct RaceSource {
    private(set) var coordinator: RaceCoordinator
    /// Clock sync per link: the host initiates on each, a joiner answers.
    private(set) var sync: [ClockSyncExchange?]
    private var fragmenters: [Fragmenter]
    private var reassemblers: [Reassembler]
    private var payloadBytes: [Int]
    /// What the host last told the coordinator of each peer's sync.
    private var toldCanTime: [Bool]
    private var toldRounds: [Int]
    private var nextSyncNanos: [Int64?]
    /// Each link's role and interval, for a sync the host starts once the
    /// peer has said (in its join) whether it speaks the precise exchange.
    private var linkRoles: [LinkRole]
    private var intervals: [Int64]
    let precise: Bool
    /// Messages refused (garbled, unreadable), for the log.
    private(set) var refusedMessages = 0

    init(coordinator: RaceCoordinator, peers: Int, precise: Bool) {
        self.coordinator = coordinator
        self.coordinator.offersPreciseSync = precise
        self.precise = precise
        linkRoles = Array(repeating: .central, count: peers)
        intervals = Array(repeating: 0, count: peers)
        sync = Array(repeating: nil, count: peers)
        fragmenters = Array(repeating: Fragmenter(), count: peers)
        reassemblers = Array(repeating: Reassembler(), count: peers)
        payloadBytes = Array(repeating: 20, count: peers)
        toldCanTime = Array(repeating: false, count: peers)
        toldRounds = Array(repeating: 0, count: peers)
        nextSyncNanos = Array(repeating: nil, count: peers)
    }

    /// When the race wants its timer: heartbeats, a sync's next ping.
    var nextDueNanos: Int64? {
        var due = coordinator.nextDueNanos
        for d in nextSyncNanos { if let d { due = min(due ?? d, d) } }
        return due
    }

    // MARK: - Events from the loop

    mutating func handleLink<L: PeerLink>(_ link: inout L, now: Int64, wallMillis: Int64) throws(GateError) -> [RaceEffect] {
        var out: [RaceEffect] = []
        while let event = try link.nextEvent() {
            switch event {
            case .connected(let peer, _, _, _), .disconnected(let peer), .received(let peer, _, _, _), .completed(let peer, _, _):
                ensure(peer)
            }
            switch event {
            case .connected(let peer, let role, let interval, let payload):
                payloadBytes[peer] = payload
                reassemblers[peer].reset()
                linkRoles[peer] = role
                intervals[peer] = interval
                // The same peer back after a drop keeps its drift line; the
                // estimator's schedule resumes (a round cut short fails and
                // is tried again).
                if sync[peer] != nil && sync[peer]!.intervalNanos != interval { sync[peer] = nil }
                if coordinator.isHost {
                    nextSyncNanos[peer] = sync[peer] == nil ? nil : now
                } else if sync[peer] == nil {
                    startSync(peer, precise: precise, now: now)
                }
                try apply(coordinator.peerConnected(peer, now: now), &link, now: now, wallMillis: wallMillis, into: &out)
            case .disconnected(let peer):
                nextSyncNanos[peer] = nil
                try apply(coordinator.peerLost(peer, now: now), &link, now: now, wallMillis: wallMillis, into: &out)
            case .received(let peer, .clockSync, let bytes, let stamp):
                guard sync[peer] != nil else { continue }
                if let reply = sync[peer]!.received(bytes, stampNanos: stamp, now: now) {
                    try send(reply, to: peer, &link, now: now)
                }
                if coordinator.isHost { nextSyncNanos[peer] = now }
            case .received(let peer, .messages, let bytes, _):
                try received(bytes, from: peer, &link, now: now, wallMillis: wallMillis, into: &out)
                // The host syncs once the peer has joined and said which exchange it speaks.
                if coordinator.isHost && sync[peer] == nil, let offers = coordinator.peerOffersPreciseSync(peer) {
                    startSync(peer, precise: precise && offers, now: now)
                    nextSyncNanos[peer] = now
                    if precise && !offers {
                        out.append(.say("race: link " + String(peer) + " does not announce precise clock sync: seed 002's plain exchange"))
                    }
                }
            case .completed(let peer, let token, let stamp):
                guard sync[peer] != nil else { continue }
                if let followUp = sync[peer]!.completed(token: token, stampNanos: stamp) {
                    try send(followUp, to: peer, &link, now: now)
                }
            }
        }
        try reportSync(&link, now: now, wallMillis: wallMillis, into: &out)
        return out
    }

    /// The race's timer: clock sync pings due, heartbeats, silent peers.
    mutating func tick<L: PeerLink>(_ link: inout L, now: Int64, wallMillis: Int64) throws(GateError) -> [RaceEffect] {
        var out: [RaceEffect] = []
        for peer in 0..<sync.count where coordinator.isHost && sync[peer] != nil {
            guard let due = nextSyncNanos[peer], due <= now else { continue }
            while let ping = sync[peer]!.tick(now: now) { try send(ping, to: peer, &link, now: now) }
            nextSyncNanos[peer] = sync[peer]!.nextDueNanos(now: now)
        }
        try reportSync(&link, now: now, wallMillis: wallMillis, into: &out)
        try apply(coordinator.tick(now: now), &link, now: now, wallMillis: wallMillis, into: &out)
        return out
    }

    mutating func localCrossing<L: PeerLink>(_ crossing: LocalCrossing, _ link: inout L, now: Int64, wallMillis: Int64) throws(GateError) -> [RaceEffect] {
        var out: [RaceEffect] = []
        try refreshPredictions(&link, now: now, wallMillis: wallMillis, into: &out)
        try apply(coordinator.localCrossing(crossing, now: now), &link, now: now, wallMillis: wallMillis, into: &out)
        return out
    }

    mutating func localStart<L: PeerLink>(atNanos start: Int64, source: String, _ link: inout L, now: Int64, wallMillis: Int64) throws(GateError) -> [RaceEffect] {
        var out: [RaceEffect] = []
        try apply(coordinator.localStart(atNanos: start, source: source, now: now), &link, now: now, wallMillis: wallMillis, into: &out)
        return out
    }

    mutating func gateReady<L: PeerLink>(_ ready: Bool, reason: String, gatePosition: Double, fps: Int, _ link: inout L,
                                         now: Int64, wallMillis: Int64) throws(GateError) -> [RaceEffect] {
        var out: [RaceEffect] = []
        try apply(coordinator.gateReady(ready, reason: reason, gatePosition: gatePosition, capturedFps: Double(fps), now: now),
                  &link, now: now, wallMillis: wallMillis, into: &out)
        return out
    }

    // MARK: - Inside

    /// A link numbered past those known at the start (a BLE peer accepted
    /// later) gets its own sync, fragmenting and reassembly.
    private mutating func ensure(_ peer: Int) {
        while sync.count <= peer {
            linkRoles.append(.central)
            intervals.append(0)
            sync.append(nil)
            fragmenters.append(Fragmenter())
            reassemblers.append(Reassembler())
            payloadBytes.append(20)
            toldCanTime.append(false)
            toldRounds.append(0)
            nextSyncNanos.append(nil)
        }
    }

    private mutating func startSync(_ peer: Int, precise: Bool, now: Int64) {
        var exchange = ClockSyncExchange(initiates: coordinator.isHost, precise: precise,
                                         linkRole: linkRoles[peer] == .central ? .central : .peripheral, intervalNanos: intervals[peer])
        exchange.start(now: now)
        sync[peer] = exchange
        toldRounds[peer] = 0
    }

    /// A fragment on Timing Messages: a whole message goes to the coordinator.
    private mutating func received<L: PeerLink>(_ bytes: [UInt8], from peer: Int, _ link: inout L, now: Int64, wallMillis: Int64,
                                                into out: inout [RaceEffect]) throws(GateError) {
        let step: ReassemblyStep
        do { step = try reassemblers[peer].accept(bytes) } catch {
            refusedMessages += 1
            out.append(.say("race: a fragment from link " + String(peer) + " refused: " + error.description))
            return
        }
        guard case .complete(let whole) = step else { return }
        let message: TimingMessage
        do { message = try TimingMessage.decode(whole) } catch {
            refusedMessages += 1
            out.append(.say("race: a message from link " + String(peer) + " refused: " + error.description))
            return
        }
        if case .unknown(let type) = message.payload {
            out.append(.say("race: message type '" + type + "' from link " + String(peer) + " not known here; ignored"))
            return
        }
        // The split is computed on the host's clock: every peer's offset as
        // of now, not of its last sync.
        try refreshPredictions(&link, now: now, wallMillis: wallMillis, into: &out)
        if case .sessionJoin = message.payload { coordinator.setTrusted(peer, link.isTrusted(peer: peer)) }
        try apply(coordinator.received(message, from: peer, now: now), &link, now: now, wallMillis: wallMillis, into: &out)
        // A joiner accepted: the link keeps the gate its host holds.
        if !coordinator.isHost, coordinator.joined, case .sessionJoinAccepted(let accepted) = message.payload,
           accepted.sessionId == coordinator.sessionId,
           let host = accepted.devices.first(where: { $0.deviceId == message.deviceId }) {
            link.admit(peer: peer, role: host.role.wire)
        }
    }

    /// Host: tells the coordinator each peer's sync as it stands, when it
    /// changed (a round finished, or its readiness).
    private mutating func reportSync<L: PeerLink>(_ link: inout L, now: Int64, wallMillis: Int64, into out: inout [RaceEffect]) throws(GateError) {
        guard coordinator.isHost else { return }
        for peer in 0..<sync.count {
            guard let estimator = sync[peer]?.estimator else { continue }
            let readiness = estimator.readiness(atNanos: now)
            guard readiness.canTime != toldCanTime[peer] || estimator.roundsFinished != toldRounds[peer] else { continue }
            toldCanTime[peer] = readiness.canTime
            toldRounds[peer] = estimator.roundsFinished
            let result = estimator.lastResult
            try apply(coordinator.syncChanged(peer: peer, canTime: readiness.canTime, reason: readiness.reason,
                                              prediction: estimator.prediction(atNanos: now),
                                              rttNanos: result?.minRttNanos ?? 0, samplesUsed: result?.kept ?? 0, now: now),
                      &link, now: now, wallMillis: wallMillis, into: &out)
        }
    }

    private mutating func refreshPredictions<L: PeerLink>(_ link: inout L, now: Int64, wallMillis: Int64, into out: inout [RaceEffect]) throws(GateError) {
        guard coordinator.isHost else { return }
        for peer in 0..<sync.count {
            guard let estimator = sync[peer]?.estimator, let p = estimator.prediction(atNanos: now) else { continue }
            let readiness = estimator.readiness(atNanos: now)
            toldCanTime[peer] = readiness.canTime
            try apply(coordinator.syncChanged(peer: peer, canTime: readiness.canTime, reason: readiness.reason, prediction: p, now: now),
                      &link, now: now, wallMillis: wallMillis, into: &out)
        }
    }

    /// Sends what the coordinator asked; hands the rest to the loop.
    private mutating func apply<L: PeerLink>(_ effects: [RaceEffect], _ link: inout L, now: Int64, wallMillis: Int64,
                                             into out: inout [RaceEffect]) throws(GateError) {
        for effect in effects {
            guard case .send(let payload, let to) = effect else { out.append(effect); continue }
            let message = TimingMessage(timestamp: wallMillis, deviceId: coordinator.deviceId, payload: payload)
            let bytes = message.encoded()
            if case .sessionJoinAccepted(let accepted) = payload, let to { link.admit(peer: to, role: accepted.assignedRole.wire) }
            if let to {
                try sendMessage(bytes, to: to, &link)
            } else {
                for peer in 0..<link.peerCount { try sendMessage(bytes, to: peer, &link) }
            }
        }
    }

    private mutating func sendMessage<L: PeerLink>(_ bytes: [UInt8], to peer: Int, _ link: inout L) throws(GateError) {
        guard peer >= 0 && peer < fragmenters.count else { return }
        let chunks: [[UInt8]]
        do { chunks = try fragmenters[peer].fragments(of: bytes, attPayloadSize: payloadBytes[peer]) } catch {
            return   // larger than 255 fragments: never for the race's messages
        }
        // A peer not connected: the coordinator's outbox and heartbeats
        // bring what matters back once it is.
        for chunk in chunks { guard try link.send(chunk, on: .messages, to: peer) != nil else { return } }
    }

    private mutating func send<L: PeerLink>(_ packet: ClockSyncExchange.Outgoing, to peer: Int, _ link: inout L, now: Int64) throws(GateError) {
        let token = try link.send(packet.bytes, on: .clockSync, to: peer)
        sync[peer]?.sent(packet, token: token, now: now)
    }
}

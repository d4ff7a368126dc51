import GateCore
import GateProtocol

/// One link of this box: to a peer (on the host) or to the host (on a joiner).
struct RaceLink {
    var connected = false
    var lastHeardNanos: Int64 = 0
    var nextHeartbeatNanos: Int64 = 0
    /// Host: the box that joined over this link.
    var deviceId: String?
    /// The sender's own timestamp (wall-clock ms) on the join that let this
    /// link in: the host's of session_join, a joiner's of the acceptance.
    /// What the same sender dates well before it is a replay.
    var joinedMillis: Int64?
    /// Host: a bonded box on an encrypted link, which needs no session code.
    var trusted = false
    /// Host: the sync with this peer may time.
    var canTime = false
    /// Host: whether the peer announced `preciseClockSync` when it joined
    /// (nil until it has): a phone does not, and gets seed 002's plain exchange.
    var preciseClockSync: Bool?
    /// Host: the latest prediction, kept when the sync drops or the link is
    /// lost, so a crossing delivered late can still be put on the host's clock.
    var prediction: ClockPrediction?
    /// The host's instant the prediction is of.
    var predictedAtNanos: Int64 = 0

    /// The prediction carried along its drift line to `hostNanos`: a
    /// crossing seconds before (or, over a dropped link, long before) the
    /// latest prediction gets the offset of its own instant.
    func prediction(atHostNanos hostNanos: Int64) -> ClockPrediction? {
        guard var p = prediction else { return nil }
        if let ppm = p.driftPpm {
            p.offsetNanos += Int64((ppm * 1e-6 * Double(hostNanos - predictedAtNanos)).rounded())
        }
        return p
    }
}

/// Host: one planned gate and the box that holds it.
struct RaceSeat {
    var gate: PlannedGate
    /// nil while free. Kept when the box's link is lost, for its rejoin.
    var deviceId: String?
    var name = ""
    /// The link to it; nil for the host's own gate.
    var peer: Int?
    /// Results sent while its box was away, oldest first: sent to it, once,
    /// when it rejoins (seed 002 section 7.1).
    var missedResults: [SplitTimeCalculated] = []
    /// Its detector is armed.
    var ready = false
}

/// Host: one gate's crossing of the run under way, on its box's clock.
struct PendingCrossing {
    var nanos: Int64
    var uncertaintyMs: Double
    /// -1: a start event, not a frame.
    var frameIndex: Int64
    var occupancy: Double
    var interpolationMs: Double
    /// The link of the box that made it; nil for the host's own.
    var peer: Int?
}

/// Host: the crossings counted lately, by (deviceId, crossingTimeNanos);
/// the oldest are forgotten past `capacity`.
struct CountedCrossings {
    struct Key: Hashable {
        var deviceId: String
        var nanos: Int64
    }

    static let capacity = 256
    private var keys: Set<Key> = []
    private var order: [Key] = []

    /// True if it was new (and is now counted).
    mutating func insert(deviceId: String, nanos: Int64) -> Bool {
        let key = Key(deviceId: deviceId, nanos: nanos)
        guard !keys.contains(key) else { return false }
        keys.insert(key)
        order.append(key)
        if order.count > CountedCrossings.capacity {
            keys.remove(order.removeFirst())
        }
        return true
    }
}

extension RaceCoordinator {
    mutating func ensureLink(_ peer: Int) {
        while links.count <= peer { links.append(RaceLink()) }
    }

    mutating func linkUp(_ peer: Int, now: Int64) {
        ensureLink(peer)
        links[peer].connected = true
        links[peer].lastHeardNanos = now
        links[peer].nextHeartbeatNanos = now + settings.heartbeatIntervalNanos
    }

    /// Who is at the other end of `peer`, for say lines: "box def-789".
    func boxName(_ peer: Int) -> String {
        if !isHost { return "the host" }
        if peer < links.count, let id = links[peer].deviceId { return "box " + id }
        return "link " + String(peer)
    }

    /// A message arrived: the link lives. A link given up as lost comes back.
    mutating func heard(_ peer: Int, now: Int64, _ effects: inout [RaceEffect]) {
        ensureLink(peer)
        let wasLost = !links[peer].connected
        links[peer].lastHeardNanos = now
        guard wasLost else { return }
        links[peer].connected = true
        links[peer].nextHeartbeatNanos = now + settings.heartbeatIntervalNanos
        effects.append(.say("race: " + boxName(peer) + " is heard again"))
        if !isHost { resendOutbox(&effects) }
    }

    /// The link is down: dropped (`silentNanos` nil) or silent too long.
    mutating func lose(_ peer: Int, silentNanos: Int64?, now: Int64, _ effects: inout [RaceEffect]) {
        ensureLink(peer)
        guard links[peer].connected else { return }
        links[peer].connected = false
        // A central that never joined (a phone reading Device Info) is no
        // box of the race: its going is nothing to show.
        if isHost && links[peer].deviceId == nil { return }
        var line = "race: " + boxName(peer)
        if let silentNanos {
            line += " silent for " + String(silentNanos / 1_000_000_000) + " s: link lost"
        } else {
            line += ": link lost"
        }
        if isHost {
            line += "; its crossings will be counted when it is back"
            for i in seats.indices where seats[i].peer == peer {
                // Its gate holds its role for the rejoin; its readiness is asked again then.
                seats[i].ready = false
            }
        } else {
            line += "; this box's crossings are kept until it is back"
        }
        effects.append(.say(line))
        effects.append(.indicate(.peerLost))
        if isHost { evaluate(now: now, &effects) }
    }
}

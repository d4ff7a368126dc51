import Testing
@testable import GateCore
import GateProtocol
@testable import GateBox

/// Boxes of a race wired to each other in a star: box 0 is the host, box b
/// (b >= 1) is the host's link b - 1. Every `.send` goes through the JSON
/// wire format to the other side's `received`, unless that link is down.
/// `now` is the host's clock; box b's clock reads `now + clockAhead[b]`.
struct RaceRig {
    var boxes: [RaceCoordinator]
    var clockAhead: [Int64]
    var linkUp: [Bool]
    var now: Int64 = 1_000_000_000
    var records: [[RaceRunRecord]]
    var said: [[String]]
    var indications: [[RaceIndication]]
    /// Every payload delivered, as (from box, to box).
    var delivered: [(from: Int, to: Int, payload: TimingPayload)] = []
    var dropped: [(from: Int, payload: TimingPayload)] = []
    /// Drop the next crossing_ack the host sends.
    var dropNextAck = false

    init(plan: RacePlan, roles: [GateRole?], clockAhead: [Int64], sessionIds: [String]? = nil,
         settings: RaceSettings = RaceSettings()) {
        var boxes: [RaceCoordinator] = []
        for (b, role) in roles.enumerated() {
            boxes.append(RaceCoordinator(deviceId: RaceRig.deviceId(b), deviceName: "box " + String(b), role: role,
                                         plan: b == 0 ? plan : nil, sessionId: sessionIds?[b] ?? "sess-456", settings: settings))
        }
        self.boxes = boxes
        self.clockAhead = clockAhead
        linkUp = [Bool](repeating: false, count: roles.count)
        records = [[RaceRunRecord]](repeating: [], count: roles.count)
        said = [[String]](repeating: [], count: roles.count)
        indications = [[RaceIndication]](repeating: [], count: roles.count)
    }

    static func deviceId(_ box: Int) -> String { ["abc-123", "def-789", "ghi-456", "jkl-012", "mno-345"][box] }

    func clock(_ box: Int) -> Int64 { now + clockAhead[box] }

    /// Box `box`'s wall clock in milliseconds, as its messages are dated.
    func millis(_ box: Int) -> Int64 { 1_706_000_000_000 + clock(box) / 1_000_000 }

    /// Performs the effects `box` returned, and those of every delivery they cause.
    mutating func apply(_ effects: [RaceEffect], from box: Int) {
        var queue: [(Int, RaceEffect)] = effects.map { (box, $0) }
        while !queue.isEmpty {
            let (source, effect) = queue.removeFirst()
            switch effect {
            case .record(let record): records[source].append(record)
            case .say(let line): said[source].append(line)
            case .indicate(let what): indications[source].append(what)
            case .send(let payload, let to):
                for target in targets(from: source, to: to) {
                    guard linkUp[source == 0 ? target : source] else {
                        dropped.append((source, payload))
                        continue
                    }
                    if source == 0, case .crossingAck = payload, dropNextAck {
                        dropNextAck = false
                        dropped.append((source, payload))
                        continue
                    }
                    let wire = TimingMessage(timestamp: millis(source), deviceId: boxes[source].deviceId, payload: payload).encoded()
                    let message: TimingMessage
                    do { message = try TimingMessage.decode(wire) } catch {
                        Issue.record("undecodable \(payload.type): \(error)")
                        continue
                    }
                    #expect(message.payload == payload)
                    delivered.append((source, target, payload))
                    let link = target == 0 ? source - 1 : 0
                    let more = boxes[target].received(message, from: link, now: clock(target))
                    queue.append(contentsOf: more.map { (target, $0) })
                }
            }
        }
    }

    func targets(from source: Int, to: Int?) -> [Int] {
        if source != 0 { return [0] }
        if let to { return [to + 1] }
        return Array(1..<boxes.count)
    }

    // MARK: scripted calls

    mutating func connect(_ box: Int) {
        linkUp[box] = true
        apply(boxes[0].peerConnected(box - 1, now: clock(0)), from: 0)
        apply(boxes[box].peerConnected(0, now: clock(box)), from: box)
    }

    mutating func disconnect(_ box: Int) {
        linkUp[box] = false
        apply(boxes[0].peerLost(box - 1, now: clock(0)), from: 0)
        apply(boxes[box].peerLost(0, now: clock(box)), from: box)
    }

    /// The host's sync with `box` predicts its clock exactly, +-0.3 ms sync,
    /// +-0.1 ms drift. The rig's clocks do not drift: no fitted rate unless
    /// a test gives one (the host then carries the offset along it).
    static func prediction(offset: Int64, syncMs: Double = 0.3, driftMs: Double = 0.1, driftPpm: Double? = nil) -> ClockPrediction {
        ClockPrediction(offsetNanos: offset, syncBoundNanos: Int64(syncMs * 1e6), driftBoundNanos: driftMs * 1e6,
                        sinceSyncNanos: 1_000_000_000, driftPpm: driftPpm)
    }

    mutating func sync(_ box: Int, canTime: Bool = true, uncertaintyMs: Double = 0.3) {
        let p = RaceRig.prediction(offset: clockAhead[box] - clockAhead[0], syncMs: uncertaintyMs)
        apply(boxes[0].syncChanged(peer: box - 1, canTime: canTime, reason: canTime ? "" : "clock sync poor: +-12.0 ms",
                                   prediction: p, now: clock(0)), from: 0)
    }

    mutating func ready(_ box: Int, _ ready: Bool = true) {
        apply(boxes[box].gateReady(ready, reason: ready ? "" : "tripod moved", now: clock(box)), from: box)
    }

    /// A crossing at `box` at host time `hostNanos`, stamped on the box's own clock.
    mutating func cross(_ box: Int, atHostNanos hostNanos: Int64, uncertaintyMs: Double = 0.5) {
        let c = LocalCrossing(timeNanos: hostNanos + clockAhead[box], frameIndex: 100, interpolationOffsetMs: 0.3,
                              uncertaintyMs: uncertaintyMs, occupancyAtTrigger: 0.4, speedMps: 8)
        apply(boxes[box].localCrossing(c, now: clock(box)), from: box)
    }

    mutating func advance(to hostNanos: Int64) {
        now = hostNanos
        for b in boxes.indices { apply(boxes[b].tick(now: clock(b)), from: b) }
    }

    /// Every box linked, synced and ready: run 1 armed.
    mutating func armAll() {
        for b in 1..<boxes.count { connect(b) }
        for b in 1..<boxes.count { sync(b) }
        for b in boxes.indices { ready(b) }
    }

    func sent(_ type: String, from box: Int) -> [TimingPayload] {
        delivered.filter { $0.from == box && $0.payload.type == type }.map { $0.payload }
    }
}

import GateCore
import GateDevices

/// Two boxes syncing their clocks over a simulated BLE connection, and how
/// far the initiator's idea of the offset is from the truth, second by
/// second. The boxes run the box's own `ClockSyncExchange`; they see only
/// their own clocks and the stamps the air gives them.
public struct SyncTrial {
    public struct Options: Equatable {
        public var seed: UInt64 = 1
        public var profile = LinkProfile.uart(intervalNanos: 7_500_000)
        public var precise = true
        public var durationNanos: Int64 = 600_000_000_000
        public var maxPPM = 50.0
        public var maxOffsetSeconds = 30.0
        /// How often the error is read, after the first sync.
        public var checkEveryNanos: Int64 = 1_000_000_000
        /// How long a box's loop takes to answer a packet its kernel stamped:
        /// it may be timing a frame (up to 0.2 ms here) or feeding the speaker.
        public var reactionNanos: Int64 = 300_000
        public var outages: [SimulatedAir.Outage] = []
        public init() {}
    }

    public struct Result {
        /// Predicted minus true offset at each check, nanoseconds.
        public var errorsNanos: [Int64] = []
        /// The uncertainty the initiator reported at each check, ms.
        public var reportedMs: [Double] = []
        /// Checks at which the initiator could not time (below FAIR, or no sync).
        public var notReady = 0
        public var rounds = 0
        /// Each round's result and the true offset at its instant (trace).
        public var syncs: [(result: ClockSyncResult, truthNanos: Int64)] = []
        public var refusedPackets = 0
        /// The largest |error| and when (true ns).
        public var worstNanos: Int64 = 0
        public var worstAtNanos: Int64 = 0
        /// Checks where the truth lay outside the reported uncertainty.
        public var outsideReported = 0
    }

    /// A packet a box's loop will act on at `atNanos` (true time).
    private struct Reaction {
        var atNanos: Int64
        var side: SimulatedAir.Side
        var event: SimulatedAir.Event
    }

    public static func run(_ options: Options) -> Result {
        var random = SplitMix64(seed: options.seed &* 0x9E37_79B9 &+ 17)
        let clocks = [DriftingClock.drawn(&random, maxOffsetSeconds: options.maxOffsetSeconds, maxPPM: options.maxPPM / 2),
                      DriftingClock.drawn(&random, maxOffsetSeconds: options.maxOffsetSeconds, maxPPM: options.maxPPM / 2)]
        let air = SimulatedAir(profile: options.profile, central: clocks[0], peripheral: clocks[1],
                               outages: options.outages, seed: options.seed)
        var boxes = [
            ClockSyncExchange(initiates: true, precise: options.precise, linkRole: .central, intervalNanos: options.profile.intervalNanos),
            ClockSyncExchange(initiates: false, precise: options.precise, linkRole: .peripheral, intervalNanos: options.profile.intervalNanos),
        ]
        var result = Result()
        var reactions: [Reaction] = []
        // The initiator starts a second after the link is up.
        var t: Int64 = 1_000_000_000
        boxes[0].start(now: clocks[0].local(atTrue: t))
        var initiatorDue: Int64 = t
        var nextCheck = t

        func local(_ side: SimulatedAir.Side, _ t: Int64) -> Int64 { clocks[side.rawValue].local(atTrue: t) }

        func send(_ out: ClockSyncExchange.Outgoing, from side: SimulatedAir.Side, at t: Int64) {
            let token = air.send(from: side, .clockSync, out.bytes, atTrue: t)
            boxes[side.rawValue].sent(out, token: token, now: local(side, t))
        }

        while t < options.durationNanos {
            let reactionDue = reactions.first?.atNanos ?? Int64.max
            t = min(min(initiatorDue, air.nextDueNanos), min(nextCheck, reactionDue))
            guard t < options.durationNanos else { break }
            // What the kernels stamped reaches the loops a reaction later.
            for side in [SimulatedAir.Side.central, .peripheral] {
                while let event = air.take(for: side, upTo: t) {
                    let at = t + Int64(random.unit() * Double(options.reactionNanos))
                    var i = reactions.count
                    while i > 0 && reactions[i - 1].atNanos > at { i -= 1 }
                    reactions.insert(Reaction(atNanos: at, side: side, event: event), at: i)
                }
            }
            while let first = reactions.first, first.atNanos <= t {
                reactions.removeFirst()
                let side = first.side, now = local(side, t)
                switch first.event {
                case .received(.clockSync, let bytes, let stamp):
                    if let reply = boxes[side.rawValue].received(bytes, stampNanos: stamp, now: now) { send(reply, from: side, at: t) }
                case .completed(let token, let stamp):
                    if let followUp = boxes[side.rawValue].completed(token: token, stampNanos: stamp) { send(followUp, from: side, at: t) }
                case .received, .connected, .disconnected:
                    break
                }
            }
            if t >= initiatorDue {
                let now = local(.central, t)
                while let ping = boxes[0].tick(now: now) { send(ping, from: .central, at: t) }
                let due = boxes[0].nextDueNanos(now: now).map { clocks[0].trueTime(atLocal: $0) } ?? Int64.max
                if let last = boxes[0].estimator?.lastResult, result.syncs.last?.result != last {
                    let at = clocks[0].trueTime(atLocal: last.localNanos)
                    result.syncs.append((last, clocks[1].local(atTrue: at) - last.localNanos))
                }
                initiatorDue = max(due, t + 1)
            }
            if t >= nextCheck {
                nextCheck = t + options.checkEveryNanos
                let now = local(.central, t)
                guard let estimator = boxes[0].estimator, let p = estimator.prediction(atNanos: now) else { continue }
                let truth = local(.peripheral, t) - now
                let error = p.offsetNanos - truth
                result.errorsNanos.append(error)
                result.reportedMs.append(p.uncertaintyMs)
                if Double(error.magnitude) > p.uncertaintyMs * 1e6 { result.outsideReported += 1 }
                if !estimator.readiness(atNanos: now).canTime { result.notReady += 1 }
                if error.magnitude > result.worstNanos.magnitude { result.worstNanos = error; result.worstAtNanos = t }
            }
        }
        result.rounds = boxes[0].estimator?.roundsFinished ?? 0
        result.refusedPackets = boxes[0].refusedPackets + boxes[1].refusedPackets
        return result
    }
}

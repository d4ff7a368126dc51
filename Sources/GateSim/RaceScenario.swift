import GateCore
import GateDevices

/// The athlete of a race of boxes, in the simulator's true time: runs along
/// a straight course past every gate, one after another, a walk back
/// between them. Each box sees the same runs at its own distance.
public struct RaceCourse: Equatable {
    /// Metres from the start gate of each gate, start (0) first.
    public var gateMetres: [Double]
    /// Each run: when the torso front reaches the start line (true ns), and
    /// the speed held through the course (a flying run, m/s).
    public var runs: [(startNanos: Int64, speed: Double)]

    public static func == (a: RaceCourse, b: RaceCourse) -> Bool {
        a.gateMetres == b.gateMetres && a.runs.count == b.runs.count
            && zip(a.runs, b.runs).allSatisfy { $0.startNanos == $1.startNanos && $0.speed == $1.speed }
    }

    /// `count` flying runs drawn from `seed`: the first `firstNanos` in, each
    /// at 7-10 m/s, the next 25-35 s after the last one finished.
    public init(gateMetres: [Double], count: Int, firstNanos: Int64, seed: UInt64) {
        self.gateMetres = gateMetres
        var random = SplitMix64(seed: seed ^ 0x5EED_CA11)
        var start = firstNanos
        runs = []
        for _ in 0..<count {
            let speed = random.uniform(7, 10)
            runs.append((start, speed))
            let course = Int64((gateMetres.last ?? 0) / speed * 1e9)
            start += course + Int64(random.uniform(25, 35) * 1e9)
        }
    }

    /// When run `run`'s torso front reaches gate `gate` (true ns).
    public func crossingNanos(run: Int, gate: Int) -> Int64 {
        runs[run].startNanos + Int64(gateMetres[gate] / runs[run].speed * 1e9)
    }

    /// After the last run's finish, and time for its split to go round.
    public var endNanos: Int64 {
        guard !runs.isEmpty else { return 10_000_000_000 }
        return crossingNanos(run: runs.count - 1, gate: gateMetres.count - 1) + 5_000_000_000
    }

    /// The true split of run `run` from the start to gate `gate`, ms.
    public func splitMs(run: Int, gate: Int) -> Double {
        Double(crossingNanos(run: run, gate: gate) - crossingNanos(run: run, gate: 0)) / 1e6
    }
}

extension Scenario {
    /// One gate's view of a race, on this box's own clock, which reads
    /// `startNanos` when the simulation begins: the box's button pressed
    /// 0.3 s later, and a runner through its gate at each of `crossings`
    /// (with the speed there), the session ending at `endNanos` (every box's
    /// ends after the last finish). Otherwise as a solo session of `options`.
    public init(options: SimulationOptions, startNanos start: Int64, gateCrossings crossings: [(nanos: Int64, speed: Double)],
                endNanos end: Int64) {
        var base = options
        base.runs = 0
        base.startType = .flying   // the race's own starts are the start gate's
        self.init(options: base)
        buttonPressNanos += start
        buttonReleaseNanos += start
        settleNanos += start
        var random = SplitMix64(seed: options.seed ^ 0x6A7E)
        let gateX = options.gatePosition * options.viewWidthMetres
        runners = []
        truthNanos = []
        for crossing in crossings {
            let shirtDark = random.unit() < 0.5
            let runner = Runner(crossingNanos: crossing.nanos, lineX: gateX, speedAtLine: crossing.speed, direction: .leftToRight,
                                shirtLuma: shirtDark ? 45 : 215, skinLuma: 95 + 40 * random.unit(),
                                legLuma: 60 + 30 * random.unit(), stridePhase: random.uniform(0, PortableMath.twoPi))
            runners.append(runner)
            truthNanos.append(runner.torsoFrontNanos(reaching: gateX))
        }
        endNanos = end
    }
}

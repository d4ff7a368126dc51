import GateCore
import GateDevices

/// The athlete of a race of boxes, in the simulator's true time: runs along
/// a straight course past every gate, one after another, a walk back
/// between them. Each box sees the same runs at its own distance.
/// A flying run holds its speed through the course; a run from a standing
/// start (touch release, countdown) begins at the start event and speeds up
/// towards its top speed as sprinters do, v(t) = vmax (1 - e^(-t/tau))
/// (Furusawa, Hill and Parkinson's model; tau about 1.2 s for trained
/// sprinters, which puts 30 m at 4.0-5.3 s for top speeds of 7-10 m/s).
public struct RaceCourse: Equatable {
    /// Metres from the start gate of each gate, start (0) first.
    public var gateMetres: [Double]
    /// How each run starts: flying (the start gate's crossing) or at a start event.
    public var startType: StartType
    /// Each run: when it starts (true ns; flying: the torso front at the
    /// start line, else the start event), and its speed (flying: held
    /// through the course; standing: the top speed it tends to, m/s).
    public var runs: [(startNanos: Int64, speed: Double)]

    /// The acceleration's time constant of a standing start.
    public static let accelerationTauSeconds = 1.2

    public static func == (a: RaceCourse, b: RaceCourse) -> Bool {
        a.gateMetres == b.gateMetres && a.startType == b.startType && a.runs.count == b.runs.count
            && zip(a.runs, b.runs).allSatisfy { $0.startNanos == $1.startNanos && $0.speed == $1.speed }
    }

    /// `count` runs drawn from `seed`: the first `firstNanos` in, each at
    /// 7-10 m/s, the next 25-35 s after the last one finished.
    public init(gateMetres: [Double], count: Int, firstNanos: Int64, seed: UInt64, startType: StartType = .flying) {
        self.gateMetres = gateMetres
        self.startType = startType
        var random = SplitMix64(seed: seed ^ 0x5EED_CA11)
        var start = firstNanos
        runs = []
        for _ in 0..<count {
            let speed = random.uniform(7, 10)
            runs.append((start, speed))
            let course = RaceCourse.secondsTo(gateMetres.last ?? 0, speed: speed, standing: startType.isExternal)
            start += Int64(course * 1e9) + Int64(random.uniform(25, 35) * 1e9)
        }
    }

    /// Seconds from the start to `metres` along the course.
    static func secondsTo(_ metres: Double, speed: Double, standing: Bool) -> Double {
        guard standing else { return metres / speed }
        // x(t) = vmax (t - tau (1 - e^(-t/tau))): increasing, so Newton from
        // the flying time converges in a few steps.
        let tau = accelerationTauSeconds
        var t = metres / speed + tau
        for _ in 0..<20 {
            let e = PortableMath.exp(-t / tau)
            let x = speed * (t - tau * (1 - e)), v = speed * (1 - e)
            let step = (x - metres) / max(v, 1e-6)
            t -= step
            if step.magnitude < 1e-12 { break }
        }
        return t
    }

    /// When run `run`'s torso front reaches gate `gate` (true ns); for a
    /// standing start, gate 0 is the start event.
    public func crossingNanos(run: Int, gate: Int) -> Int64 {
        runs[run].startNanos + Int64(RaceCourse.secondsTo(gateMetres[gate], speed: runs[run].speed,
                                                          standing: startType.isExternal) * 1e9)
    }

    /// Run `run`'s speed at gate `gate`, m/s.
    public func speed(run: Int, gate: Int) -> Double {
        let vmax = runs[run].speed
        guard startType.isExternal else { return vmax }
        let t = RaceCourse.secondsTo(gateMetres[gate], speed: vmax, standing: true)
        return vmax * (1 - PortableMath.exp(-t / RaceCourse.accelerationTauSeconds))
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
    /// `startEvents` (the start box of a touch-release or countdown race):
    /// the instants on this box's clock its touch pad is released, or its
    /// countdown says GO (the button tapped 3 s before).
    public init(options: SimulationOptions, startNanos start: Int64, gateCrossings crossings: [(nanos: Int64, speed: Double)],
                endNanos end: Int64, startEvents: [Int64] = [], startType: StartType = .flying) {
        var base = options
        base.runs = 0
        base.startType = .flying
        self.init(options: base)
        self.options.startType = startType
        for event in startEvents {
            switch startType {
            case .touchRelease: presses.append(Press(control: .touchPad, pressNanos: event - 1_500_000_000, releaseNanos: event))
            // The tap is a tap once no second one follows (TapSequence.gapNanos).
            case .countdown: presses.append(Press(control: .button, pressNanos: event - 3_150_000_000 - TapSequence.gapNanos,
                                                  releaseNanos: event - 3_000_000_000 - TapSequence.gapNanos))
            case .flying, .voice, .inFrame: continue   // not simulated in a race (refused by --boxes)
            }
            startNanos.append(event)
        }
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

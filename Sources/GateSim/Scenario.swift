import GateCore
import GateDevices

/// What a simulated session is made of, fixed by the options and the seed:
/// when the button is pressed, how the tripod settles, and every pass of
/// the athlete through the view.
public struct SimulationOptions: Equatable {
    public var seed: UInt64 = 1
    /// Laps after the flying start: the athlete passes the gate runs + 1 times.
    public var runs = 4
    public var fps = 120
    public var width = 320
    public var height = 240
    /// Every pass at this speed (m/s); nil: each pass drawn from 3...11 m/s.
    public var speedMetresPerSecond: Double?
    public var viewWidthMetres = 4.0
    public var gatePosition = 0.5
    public var readoutNanos: Int64 = 8_000_000
    public var exposureNanos: Int64 = 1_000_000
    public var noiseSigma = 2.0
    /// Length of one lap of the loop the athlete runs between passes, metres.
    public var lapMetres = 30.0
    /// Flying: laps through the gate. Touch-release or countdown: a start
    /// event per pass, the athlete reaching the gate `dashMetres` later.
    public var startType = StartType.flying
    public var dashMetres = 20.0
    /// When someone knocks the tripod (nil: nobody does): the accelerometer
    /// rings for `SimulatedMotion.knockRingNanos` and the view shifts by a few
    /// pixels for good. A knock before the athlete's first pass delays that
    /// pass to a few seconds after it.
    public var knockNanos: Int64?
    /// A voice start's delays and GO sound, and the clips that give the
    /// calls their lengths: the box draws the same delays from the same seed.
    public var voiceSettings = VoiceSettings()
    public var voice = Voice()
    /// A called start's athlete goes early: before GO, or within the
    /// 100 ms after it that no human reaction is faster than.
    public var falseStart = false
    /// A soak (issue 53): a flying session this long, a pass every 30-90 s,
    /// the light flickering, two knocks; `runs` and `knockNanos` unused.
    public var soakNanos: Int64?
    /// Runs from a start event: a squad of this many athletes takes turns,
    /// each with a speed of their own (a few percent apart run to run), and
    /// the coach double-taps the button after each run for the next one.
    public var athletes = 0

    public init() {}
}

public struct Scenario: Equatable {
    public struct Press: Equatable {
        public var control: Control
        public var pressNanos: Int64
        public var releaseNanos: Int64

        public init(control: Control, pressNanos: Int64, releaseNanos: Int64) {
            self.control = control
            self.pressNanos = pressNanos
            self.releaseNanos = releaseNanos
        }
    }

    public var options: SimulationOptions
    public var camera: CameraModel
    public var runners: [Runner]
    /// Ground truth: when each runner's torso front reaches the gate line.
    public var truthNanos: [Int64]
    /// The arming button's press and release.
    public var buttonPressNanos: Int64
    public var buttonReleaseNanos: Int64
    /// Every press of a control after arming, in time order: the touch pad
    /// held and released at each start, or the button tapped 3 s before it.
    public var presses: [Press] = []
    /// Touch-release and countdown: when each pass's start happens (truth).
    /// In-frame: when the athlete's body has left the frame.
    public var startNanos: [Int64] = []
    /// Starts the camera sees (called, in-frame): when each run's athlete
    /// first moves from standing still in view (truth).
    public var movementNanos: [Int64] = []
    /// People in view who are not timed through the gate: the athlete
    /// walking in and standing at the start, someone walking past.
    public var figures: [Runner] = []
    /// When the tripod, just set down, has stopped ringing.
    public var settleNanos: Int64
    /// The view's shift when the tripod is knocked (SimulationOptions.knockNanos).
    public var bumps: [CameraBump] = []
    public var endNanos: Int64
    /// When the tripod is knocked (`knockNanos`, a soak's two).
    public var knocks: [Int64] = []
    /// Mains flicker of the light (0.05: +-5%); none unless a soak.
    public var flickerAmplitude = 0.0

    public init(options: SimulationOptions) {
        self.options = options
        var random = SplitMix64(seed: options.seed)
        camera = CameraModel(width: options.width, height: options.height, viewWidthMetres: options.viewWidthMetres,
                             readoutNanos: options.readoutNanos, exposureNanos: options.exposureNanos,
                             noiseSigma: options.noiseSigma)
        buttonPressNanos = 300_000_000
        buttonReleaseNanos = 450_000_000
        settleNanos = 1_200_000_000 + Int64(random.uniform(0, 400_000_000))
        let gateX = options.gatePosition * options.viewWidthMetres
        runners = []
        truthNanos = []
        if let soak = options.soakNanos {
            endNanos = 0
            placeSoak(soak, random: &random, gateX: gateX)
            return
        }
        // The first pass: the athlete's torso reaches the gate a few seconds
        // after the box can have armed (settled + 1 s still).
        var crossing = settleNanos + 1_000_000_000 + 1_500_000_000 + Int64(random.uniform(0, 1_000_000_000))
        // After a knock: the ring, a still second and the scene learnt again.
        // The knock leaves the camera aimed 3 px to the right: the gate column
        // then looks at a line 3 px further along the lane, and that is where
        // the truth is.
        var gateAfterKnock = gateX
        if let knock = options.knockNanos {
            knocks = [knock]
            if knock < crossing { crossing = max(crossing, knock + 3_500_000_000) }
            let bump = CameraBump(startNanos: knock, durationNanos: 60_000_000, dxPixels: 3, dyPixels: 2)
            bumps = [bump]
            gateAfterKnock += Double(bump.dxPixels) * options.viewWidthMetres / Double(options.width)
        }
        if options.startType.watchesTheStart {
            endNanos = 0
            placeStartsInView(random: &random, gateX: gateX)
            return
        }
        var previousSpeed = 0.0
        let external = options.startType.isExternal
        // Starts: a countdown is tapped 3 s ahead, a voice start as far
        // ahead as its calls take (the box's draws: the same seed, in the
        // same order); each run gets a start.
        var calls = StartCalls.random(seed: options.seed)
        let squad = external ? options.athletes : 0
        let squadSpeeds = (0..<squad).map { _ in random.uniform(7, 10) }
        for pass in 0...(external ? options.runs - 1 : options.runs) {
            var speed = options.speedMetresPerSecond ?? random.uniform(3, 11)
            if squad > 0 && options.speedMetresPerSecond == nil {
                speed = squadSpeeds[pass % squad] * random.uniform(0.97, 1.03)
            }
            var lead: Int64 = 0
            switch options.startType {
            case .countdown: lead = 3_000_000_000
            case .voice: lead = StartCalls.voiceStart(options.voiceSettings, voice: options.voice, random: &calls).goNanos
            case .flying, .touchRelease, .inFrame: break
            }
            if external {
                // From a standing start, about 0.8 of the speed at the line on average.
                let dash = Int64(options.dashMetres / (0.8 * speed) * 1e9)
                let start = pass == 0 ? crossing - 1_500_000_000 + lead : crossing + 4_000_000_000 + lead
                crossing = start + dash
                startNanos.append(start)
                switch options.startType {
                case .touchRelease: presses.append(Press(control: .touchPad, pressNanos: start - 1_500_000_000, releaseNanos: start))
                // The tap is a tap once no second one follows (TapSequence.gapNanos).
                case .countdown, .voice:
                    let release = start - lead - TapSequence.gapNanos
                    presses.append(Press(control: .button, pressNanos: release - 150_000_000, releaseNanos: release))
                case .flying, .inFrame: break
                }
            } else if pass > 0 {
                // Lap time from the average of the two pass speeds, slower on the bend.
                let average = 0.92 * (speed + previousSpeed) / 2
                crossing += Int64(options.lapMetres / average * 1e9)
            }
            previousSpeed = speed
            let runner = Scenario.runner(crossingNanos: crossing, lineX: gateX, speed: speed, random: &random)
            runners.append(runner)
            let knocked = options.knockNanos.map { $0 < crossing } ?? false
            truthNanos.append(runner.torsoFrontNanos(reaching: knocked ? gateAfterKnock : gateX))
            if squad > 1 && pass < options.runs - 1 { presses += Scenario.nextAthleteTaps(after: crossing, pass: pass, squad: squad) }
        }
        endNanos = crossing + 1_500_000_000
    }

    /// A runner whose torso front meets the gate line at `crossingNanos`,
    /// in a shirt, skin and legs drawn from `random`.
    static func runner(crossingNanos: Int64, lineX: Double, speed: Double, random: inout SplitMix64) -> Runner {
        let shirtDark = random.unit() < 0.5
        return Runner(crossingNanos: crossingNanos, lineX: lineX, speedAtLine: speed, direction: .leftToRight,
                      shirtLuma: shirtDark ? 45 : 215, skinLuma: 95 + 40 * random.unit(),
                      legLuma: 60 + 30 * random.unit(), stridePhase: random.uniform(0, PortableMath.twoPi))
    }

    /// The coach's double taps a second after run `pass` finished: one for
    /// the next athlete, two when the box's cycle must pass "no athlete" to
    /// come back to the first (the box's cycle is the squad, then nobody).
    static func nextAthleteTaps(after crossing: Int64, pass: Int, squad: Int) -> [Press] {
        var taps: [Press] = []
        var at = crossing + 1_000_000_000
        for _ in 0..<((pass + 1) % squad == 0 ? 2 : 1) {
            taps.append(Press(control: .button, pressNanos: at, releaseNanos: at + 120_000_000))
            taps.append(Press(control: .button, pressNanos: at + 270_000_000, releaseNanos: at + 390_000_000))
            at += 390_000_000 + TapSequence.gapNanos + 100_000_000
        }
        return taps
    }

    /// The truth nearest `nanos`, if one is within half a second.
    public func truth(nearNanos nanos: Int64) -> Int64? {
        var best: Int64?
        for t in truthNanos where (t - nanos).magnitude < 500_000_000 {
            if best == nil || (t - nanos).magnitude < (best! - nanos).magnitude { best = t }
        }
        return best
    }
}

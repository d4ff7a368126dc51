import GateCore
import GateDevices

/// Starts the camera sees. The athlete walks into the view from the left,
/// stops a quarter of the way in and stands still facing left (away from
/// the gate line), then sprints out of the left edge; later they come back
/// from the left and are timed through the gate, and walk in again for the
/// next run.
/// - In-frame: they go a couple of seconds after standing still; the run
///   starts when the body has left the frame and ends at the gate, 2.5-4.5 s
///   later (a drill out of view). Before the first run someone only walks
///   past, which must not start anything.
/// - Called starts (countdown, voice): the button is tapped 1.5 s after they
///   stand; they move 120-250 ms after GO, or with `falseStart` between
///   250 ms before GO and 60 ms after it; the gate is reached after the dash.
extension Scenario {
    static let walkingSpeed = 1.3
    static let standFraction = 0.25

    mutating func placeStartsInView(random: inout SplitMix64, gateX: Double) {
        let standFront = Scenario.standFraction * options.viewWidthMetres
        let inFrame = options.startType == .inFrame
        var calls = StartCalls.random(seed: options.seed)
        var arrive = settleNanos + (inFrame ? 7_500_000_000 : 3_500_000_000) + Int64(random.uniform(0, 1_000_000_000))
        if inFrame {
            figures.append(Runner(crossingNanos: arrive - 4_000_000_000, lineX: gateX, speedAtLine: 1.4, direction: .leftToRight,
                                  shirtLuma: 160, skinLuma: 120, legLuma: 70, stridePhase: 0.3))
        }
        var crossing: Int64 = 0
        for _ in 0..<options.runs {
            let speed = options.speedMetresPerSecond ?? random.uniform(3, 11)
            let shirtLuma = random.unit() < 0.5 ? 45.0 : 215.0
            let skinLuma = 95 + 40 * random.unit(), legLuma = 60 + 30 * random.unit()
            let phase = random.uniform(0, PortableMath.twoPi)
            var stander = Runner(crossingNanos: 0, lineX: standFront, speedAtLine: 0, acceleration: random.uniform(4, 6),
                                 direction: .rightToLeft, shirtLuma: shirtLuma, skinLuma: skinLuma, legLuma: legLuma,
                                 stridePhase: phase)
            stander.startsFromRest = true
            stander.visibleFromNanos = arrive
            let movement: Int64
            if inFrame {
                movement = arrive + Int64(random.uniform(2_000_000_000, 3_000_000_000))
            } else {
                let release = arrive + 1_500_000_000
                let lead: Int64 = options.startType == .voice
                    ? StartCalls.voiceStart(options.voiceSettings, voice: options.voice, random: &calls).goNanos
                    : 3_000_000_000
                presses.append(Press(control: .button, pressNanos: release - 150_000_000, releaseNanos: release))
                // The tap is a tap once no second one follows (TapSequence.gapNanos).
                let go = release + TapSequence.gapNanos + lead
                startNanos.append(go)
                movement = go + Int64(options.falseStart ? random.uniform(-250_000_000, 60_000_000)
                                                         : random.uniform(120_000_000, 250_000_000))
            }
            stander.crossingNanos = movement
            movementNanos.append(movement)
            let leave = Scenario.leftTheView(stander, from: movement)
            if inFrame {
                startNanos.append(leave)
                crossing = leave + Int64(random.uniform(2_500_000_000, 4_500_000_000))
            } else {
                let dash = Int64(options.dashMetres / (0.8 * speed) * 1e9)
                crossing = max(startNanos[startNanos.count - 1] + dash, leave + 1_500_000_000)
            }
            var walker = Runner(crossingNanos: arrive, lineX: 0, speedAtLine: Scenario.walkingSpeed, direction: .leftToRight,
                                shirtLuma: shirtLuma, skinLuma: skinLuma, legLuma: legLuma, stridePhase: phase)
            walker.lineX = stander.hipX(atNanos: arrive) + walker.torsoReach
            walker.visibleUntilNanos = arrive
            figures.append(walker)
            figures.append(stander)
            let runner = Runner(crossingNanos: crossing, lineX: gateX, speedAtLine: speed, direction: .leftToRight,
                                shirtLuma: shirtLuma, skinLuma: skinLuma, legLuma: legLuma, stridePhase: phase)
            runners.append(runner)
            truthNanos.append(runner.torsoFrontNanos(reaching: gateX))
            arrive = crossing + 2_500_000_000 + Int64(random.uniform(0, 1_000_000_000))
        }
        endNanos = crossing + 1_500_000_000
    }

    /// The instant the last of the body (arms and legs too) has gone past
    /// the view's left edge, to the microsecond.
    static func leftTheView(_ runner: Runner, from start: Int64) -> Int64 {
        var low = start, high = start + 10_000_000_000
        while high - low > 1_000 {
            let middle = low + (high - low) / 2
            if runner.bodyExtent(atNanos: middle).high < 0 { high = middle } else { low = middle }
        }
        return high
    }
}

import GateCore
import GateDevices
import GateProtocol
import GateSim

/// `ts-gate --simulate --boxes N`: a race of 2-4 boxes in one process, on
/// one virtual clock. Each box is the whole box (its own loop, camera,
/// tripod, button and results) on its own drifting clock; box 0 is the
/// host and the start gate, linked to each other box by a simulated BLE
/// connection. The simulator knows the truth, so each run is printed with
/// its split error and the sync error at the finish.
enum RaceSimulateCommand {
    typealias Loop = BoxLoop<SimulatedPlatform>

    static func run(_ options: SimulateOptions, race: RaceSimulationOptions, console: Console) -> Int32 {
        let seed = options.simulation.seed
        let gateMetres = [0.0] + race.distances
        let boxes = race.boxes
        // The finish box says each run's time (the clips, as for one box).
        let voice = SimulateCommand.voice(options)
        var random = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D)
        let world = VirtualClock()
        // Each box's clock: seconds apart, each within half the ppm of true,
        // so two differ by up to `driftPPM`.
        var clocks: [DriftingClock] = []
        for _ in 0..<boxes {
            var clock = DriftingClock.drawn(&random, maxOffsetSeconds: 30, maxPPM: race.driftPPM / 2)
            clock.offsetNanos += 31_000_000_000   // every box booted 1-61 s before the simulation's start
            clocks.append(clock)
        }
        // Runs: the first once the boxes have had time to arm and sync.
        let startType = options.simulation.startType
        let course = RaceCourse(gateMetres: gateMetres, count: options.simulation.runs, firstNanos: Int64(race.firstRunSeconds * 1e9),
                                seed: seed, startType: startType)
        var outages: [SimulatedAir.Outage] = []
        if let drop = race.linkDropSeconds, course.runs.count >= 2 {
            // In the middle of the second run: its crossings wait for the link.
            let middle = (course.crossingNanos(run: 1, gate: 0) + course.crossingNanos(run: 1, gate: gateMetres.count - 1)) / 2
            let half = Int64(drop * 5e8)
            outages.append(SimulatedAir.Outage(startNanos: middle - half, endNanos: middle + half))
        }
        let interval = Int64(race.intervalMs * 1e6)
        var profile = race.usbController ? LinkProfile.usb(intervalNanos: interval) : LinkProfile.uart(intervalNanos: interval)
        profile.lossProbability = race.lossPercent / 100
        var airs: [SimulatedAir] = []
        for peer in 1..<boxes {
            airs.append(SimulatedAir(profile: profile, central: clocks[0], peripheral: clocks[peer], outages: outages,
                                     connectedAtNanos: 500_000_000 + Int64(peer) * 100_000_000, seed: seed &+ UInt64(peer)))
        }

        let root = options.dataDirectory ?? defaultDataDirectory()
        let plan: RacePlan
        do { plan = try RacePlan(finishMetres: gateMetres.last!, splits: Array(gateMetres.dropFirst().dropLast()), startType: startType) } catch {
            console.problem("ts-gate: " + error.message)
            return 2
        }
        var loops: [Loop] = []
        var logs: [SessionLog] = []
        defer { for log in logs { log.close() } }
        let sessionId = "race-" + String(seed)
        for box in 0..<boxes {
            let store = ResultsStore(dataDirectory: root + "/box-" + String(box))
            let log: SessionLog
            do { log = try store.createSession() } catch {
                console.problem("ts-gate: " + error.message)
                return 1
            }
            logs.append(log)
            var o = options.simulation
            o.seed = seed &+ UInt64(box) &* 1000
            // A standing start's start box times no crossing: its touch pad
            // or countdown starts each run (the athlete waits at its line).
            let standingStartBox = box == 0 && startType.isExternal
            let crossings = standingStartBox ? [] : (0..<course.runs.count).map { run in
                (nanos: clocks[box].local(atTrue: course.crossingNanos(run: run, gate: box)), speed: course.speed(run: run, gate: box))
            }
            let starts = standingStartBox ? (0..<course.runs.count).map { clocks[box].local(atTrue: course.crossingNanos(run: $0, gate: 0)) } : []
            let boot = clocks[box].local(atTrue: 0)
            let scenario = Scenario(options: o, startNanos: boot, gateCrossings: crossings, endNanos: clocks[box].local(atTrue: course.endNanos),
                                    startEvents: starts, startType: standingStartBox ? startType : .flying)
            var boxConsole = console
            boxConsole.prefix = "[" + RaceSimulateCommand.name(box, boxes) + "] "
            var platform = SimulatedPlatform(scenario: scenario, paced: false, signals: nil, console: boxConsole, startNanos: boot)
            let links: [(air: SimulatedAir, side: SimulatedAir.Side)] = box == 0 ? airs.map { ($0, .central) } : [(airs[box - 1], .peripheral)]
            platform.link = SimulatedLinkEndpoint(world: world, links: links)
            var detector = DetectorSettings()
            detector.gatePosition = o.gatePosition
            var configuration = BoxConfiguration(detector: detector, viewWidthMetres: o.viewWidthMetres,
                                                 deviceId: "ts-gate-box" + String(box), simulated: true, seed: o.seed)
            configuration.detection = options.mode
            configuration.startType = standingStartBox ? startType : .flying
            configuration.voice = voice.voice
            configuration.preset = options.preset
            configuration.distanceMetres = race.distances.last
            var setup = RaceSetup(sessionId: sessionId, deviceName: RaceSimulateCommand.name(box, boxes),
                                  role: box == 0 ? .start : (box == boxes - 1 ? .finish : .lap), plan: box == 0 ? plan : nil)
            setup.preciseSync = !race.plainSync && !race.plainOnlyBoxes.contains(box)
            configuration.race = setup
            var loop = Loop(platform: platform, configuration: configuration, log: log, console: boxConsole)
            if box == 0 {
                loop.raceTruth = { record in
                    var r = record
                    guard let run = RaceSimulateCommand.run(of: record, course, clocks[0]) else { return r }
                    let truth = course.splitMs(run: run, gate: gateMetres.count - 1)
                    r.truthSplitTimeMs = truth
                    r.splitErrorMs = record.splitTimeMs - truth
                    // The finish gate's offset as the host used it, against the truth at the finish.
                    let finishTrue = course.crossingNanos(run: run, gate: gateMetres.count - 1)
                    let trueOffset = clocks[boxes - 1].local(atTrue: finishTrue) - clocks[0].local(atTrue: finishTrue)
                    r.syncErrorMs = Double(record.clockOffsetNanos - trueOffset) / 1e6
                    return r
                }
            }
            loops.append(loop)
        }
        console.line("ts-gate " + Version.text + ": simulating a race of " + String(boxes) + " boxes, seed " + String(seed) + ", "
                     + String(course.runs.count) + (startType == .flying ? " flying runs over " : " " + startType.name + " runs over ") + RaceWords.metres(gateMetres.last!) + ", BLE interval "
                     + DecimalText.fixed(race.intervalMs, places: 1) + " ms, " + (race.plainSync ? "plain" : "precise") + " clock sync"
                     + (race.lossPercent > 0 ? ", " + DecimalText.fixed(race.lossPercent, places: 1) + "% loss" : "")
                     + (race.linkDropSeconds.map { ", the links silent " + DecimalText.fixed($0, places: 1) + " s in run 2" } ?? "")
                     + (options.fast ? "" : " (fast: a race is always played on the virtual clock)"))
        console.line(voice.line)
        let wallStart = MonotonicClock.nowNanos()
        do {
            for i in 0..<boxes { try loops[i].begin() }
            try play(&loops, clocks: clocks, world: world)
        } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        let status = report(loops[0], course: course, boxes: boxes, logs: logs, console: console)
        // How fast the virtual clock ran: what `--fast` promises (10x real time for two boxes).
        let wall = Double(max(1, MonotonicClock.nowNanos() - wallStart)) / 1e9
        let played = Double(world.nowNanos) / 1e9
        console.line("played " + DecimalText.fixed(played, places: 1) + " s of race in " + DecimalText.fixed(wall, places: 1)
                     + " s: " + DecimalText.fixed(played / wall, places: 1) + "x real time")
        return status
    }

    /// Runs every box's loop until each has played its scenario: the world's
    /// clock jumps to the next thing any box or link has, and each box's own
    /// clock to its reading of that instant.
    static func play(_ loops: inout [Loop], clocks: [DriftingClock], world: VirtualClock) throws(GateError) {
        var ended = Array(repeating: false, count: loops.count)
        while ended.contains(false) {
            var next = Int64.max
            var dueLocal = Array(repeating: Int64.max, count: loops.count)
            for i in 0..<loops.count where !ended[i] {
                var due = loops[i].platform.nextEventNanos
                if let race = loops[i].raceDueNanos { due = min(due, race) }
                if let own = loops[i].ownDueNanos { due = min(due, own) }
                dueLocal[i] = due
                next = min(next, clocks[i].trueTime(atLocal: due), loops[i].platform.link.nextDueTrueNanos)
            }
            next = max(next, world.nowNanos)
            world.advance(to: next)
            for i in 0..<loops.count where !ended[i] {
                // A box whose own event set the instant reads exactly that
                // event's time (the clock maps back within a nanosecond).
                var local = clocks[i].local(atTrue: next)
                if clocks[i].trueTime(atLocal: dueLocal[i]) <= next { local = max(local, dueLocal[i]) }
                if local > loops[i].platform.clock.nowNanos { loops[i].platform.clock.advance(to: local) }
                var ready = loops[i].platform.readySources()
                if loops[i].platform.link.nextDueTrueNanos <= next { ready.insert(.link) }
                if let race = loops[i].raceDueNanos, race <= loops[i].platform.clock.nowNanos { ready.insert(.raceTimer) }
                guard !ready.isEmpty || loops[i].ownDueNanos.map({ $0 <= loops[i].platform.clock.nowNanos }) == true else { continue }
                if let end = try loops[i].handle(ready) {
                    try loops[i].finish(end)
                    ended[i] = true
                }
            }
        }
    }

    /// Which run of the course a record is: the one whose start is nearest
    /// its start instant on the host's clock.
    static func run(of record: RaceRunRecord, _ course: RaceCourse, _ host: DriftingClock) -> Int? {
        let startTrue = host.trueTime(atLocal: record.startTimeNanos)
        var best: Int?
        for r in 0..<course.runs.count {
            let d = (course.crossingNanos(run: r, gate: 0) - startTrue).magnitude
            if d < 1_000_000_000 && (best == nil || d < (course.crossingNanos(run: best!, gate: 0) - startTrue).magnitude) { best = r }
        }
        return best
    }

    static func name(_ box: Int, _ boxes: Int) -> String {
        box == 0 ? "start" : (box == boxes - 1 ? "finish" : "lap " + String(box))
    }

    static func report(_ host: Loop, course: RaceCourse, boxes: Int, logs: [SessionLog], console: Console) -> Int32 {
        console.line("")
        console.line("run  split (s)   truth (s)   error (ms)  sync error (ms)  +- (ms)  segments (s)")
        var timed = Set<Int>()
        for record in host.raceRecords {
            if let run = run(of: record, course, DriftingClock.truth) { timed.insert(run) }
            var line = DecimalText.zeroPadded(record.runNumber, width: 3) + "  " + DecimalText.fixed(record.splitTimeMs / 1e3, places: 4)
            line += "      " + (record.truthSplitTimeMs.map { DecimalText.fixed($0 / 1e3, places: 4) } ?? "?     ")
            line += "      " + (record.splitErrorMs.map { DecimalText.fixed($0, places: 3) } ?? "?")
            line += "       " + (record.syncErrorMs.map { DecimalText.fixed($0, places: 3) } ?? "?")
            line += "        " + DecimalText.fixed(record.totalUncertaintyMs, places: 2)
            if record.segments.count > 1 {
                line += "   "
                for (i, s) in record.segments.enumerated() {
                    line += (i == 0 ? "" : " / ") + DecimalText.fixed(Double(s.splitNanos) / 1e9, places: 3)
                    if let speed = record.speedMps(of: s) { line += " (" + DecimalText.fixed(speed, places: 2) + " m/s)" }
                }
            }
            console.line(line)
        }
        let runs = host.raceRecords.count
        console.line(String(runs) + " of " + String(course.runs.count) + " runs timed")
        for log in logs { console.line("results: " + log.path) }
        return 0
    }
}

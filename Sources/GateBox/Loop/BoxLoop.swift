import GateCore
import GateDevices
import GateProtocol

/// How a session is set up; the same for the box and the simulator.
public struct BoxConfiguration {
    public var detector: DetectorSettings
    public var viewWidthMetres: Double
    public var deviceId: String
    public var detection = DetectionMode.photoFinish
    public var startType = StartType.flying
    public var simulated: Bool
    public var seed: UInt64?
    /// Seed 000 section 8.4: one crossing per second at most in solo mode.
    public var lapCooldownNanos: Int64 = 1_000_000_000
    public var stillNanos: Int64 = 1_000_000_000
    /// A race of boxes over the platform's links; nil: this box times laps alone.
    public var race: RaceSetup?
    /// The configuration file was refused and older settings are in use:
    /// why, said at the start, with the error pattern until the button.
    public var settingsRefused: String?
    /// How starts are called and times spoken, and the clips that say them.
    public var voiceSettings = VoiceSettings()
    public var voice = Voice()
    /// The preset the session times (recorded in its header), and the
    /// distance it times in metres when it has one.
    public var preset: Preset?
    public var distanceMetres: Double?
    /// How speeds are shown in live lines.
    public var speedUnits = SpeedUnit.standard
    /// The athletes the button cycles, their spoken names and their bests.
    public var squad = Squad()
    /// Say the preset's name as the session begins: the button picked it.
    public var announcePreset = false
    /// Photos of every crossing beside the results; nil: none (a box of a race takes none yet).
    public var photos: PhotoSettings?

    public init(detector: DetectorSettings, viewWidthMetres: Double, deviceId: String, simulated: Bool, seed: UInt64?) {
        self.detector = detector
        self.viewWidthMetres = viewWidthMetres
        self.deviceId = deviceId
        self.simulated = simulated
        self.seed = seed
    }
}

/// This box's part in a race of 2-4 boxes.
public struct RaceSetup {
    public var sessionId: String
    public var deviceName: String
    /// The role this box asks for (the host's own role is in its plan).
    public var role: GateRole?
    /// The host's plan of gates; nil on a box that joins.
    public var plan: RacePlan?
    /// Clock sync from the radio's acknowledgement stamps (between ts-gate
    /// boxes), or seed 002's plain exchange.
    public var preciseSync = true
    public var settings = RaceSettings()

    public init(sessionId: String, deviceName: String, role: GateRole?, plan: RacePlan?) {
        self.sessionId = sessionId
        self.deviceName = deviceName
        self.role = role
        self.plan = plan
    }
}

/// Why a session ended; written into its session_end record.
public enum SessionEnd: Equatable {
    case completed
    case stopped(signal: Int32)
    /// SIGHUP: the caller reads its settings again and starts a new session.
    case reload
    /// The button picked another preset (its id): the caller starts a new
    /// session with it.
    case preset(String)

    var reason: String {
        switch self {
        case .completed: return "completed"
        case .stopped: return "stopped"
        case .reload: return "reload"
        case .preset: return "preset"
        }
    }
}

/// The box's one loop (house rule 2): a single thread waits on every source
/// at once and handles what is ready. The frame path (dequeue, detect,
/// requeue) allocates nothing; records are written only on crossings.
public struct BoxLoop<Platform: GatePlatform> {
    public internal(set) var platform: Platform
    public let configuration: BoxConfiguration
    public private(set) var session: SoloLapSession
    public internal(set) var records: [CrossingRecord] = []
    public private(set) var header: SessionRecord?
    public private(set) var endRecord: SessionEndRecord?
    private var detector: CrossingDetector
    /// The camera went away while the box was armed: arm again when it is back.
    private var rearmWhenCameraReturns = false
    /// The tripod moved after it had been still: the view may have shifted,
    /// so the detector learns the scene again once it is still.
    private var viewMayHaveMoved = false
    private var hasBeenStill = false
    private var stability: StabilityFilter
    private var trace = StabilityTrace()
    let log: SessionLog
    let console: Console
    private var gestures = ButtonGestures()
    /// Taps of the button in a row: one, two (next athlete), three (next preset).
    var taps = TapSequence()
    /// Who runs next and the preset picked for the next session (its own state).
    var picker: NextRunPicker
    private var touchPad = TouchPad()
    /// The box's voice: start calls and spoken times (its own source).
    var voice: BoxVoice
    /// The camera's watch on a start it can see (in-frame, called starts).
    var startWatch: StartWatchSource?
    /// The reaction of the run in progress, for its crossing record.
    var runReaction: (run: Int, reactionMs: Double?, falseStart: Bool)?
    /// An in-frame start's uncertainty, for the run's total.
    var startUncertaintyMs: Double?
    /// Called starts the camera watched: reactions and false starts.
    public internal(set) var reactions: [ReactionRecord] = []
    /// In-frame starts' uncertainty (ms) by run, for a simulation's report.
    public internal(set) var startUncertainties: [Int: Double] = [:]
    private var framesSeen = 0
    /// The race, when this box is one gate of several (its own source).
    var race: RaceSource?
    /// The race's runs as this box recorded them.
    public internal(set) var raceRecords: [RaceRunRecord] = []
    /// A simulation's truth for a race run, set by the driver of several boxes.
    public var raceTruth: ((RaceRunRecord) -> RaceRunRecord)?
    /// The GATT server over BLE (`run` only; its own source).
    var station: GATTStation?
    /// The coach's page (`http` in the settings, `--http`; its own source),
    /// and what it shows, fed by the loop's lines, states and records.
    var http: HTTPServer?
    var coachFeed: CoachFeed?
    var coachControl: CoachControl?
    /// Photos of each crossing: the ring of recent frames and their writer (its own source).
    var photos: PhotoWriter?
    /// How long each frame's turn took, on the wall clock.
    public private(set) var frameTurns = FrameTurns()
    /// Called after each turn of `run` (`run`'s service watchdog and status).
    public var afterEachTurn: ((BoxLoop) -> Void)?

    public init(platform: Platform, configuration: BoxConfiguration, log: SessionLog, console: Console) {
        self.platform = platform
        self.configuration = configuration
        self.log = log
        self.console = console
        detector = BoxLoop.detector(for: platform.camera.format, configuration)
        stability = StabilityFilter(requiredStillNanos: configuration.stillNanos)
        session = SoloLapSession(startType: configuration.startType, cooldownNanos: configuration.lapCooldownNanos,
                                 rearmsAfterMovement: configuration.detection.rearmsAfterMovement)
        records.reserveCapacity(64)
        picker = NextRunPicker(squad: configuration.squad, startType: configuration.startType,
                               distanceMetres: configuration.preset != nil ? configuration.distanceMetres : nil,
                               preset: configuration.preset, alone: configuration.race == nil)
        voice = BoxVoice(settings: configuration.voiceSettings, voice: configuration.voice,
                         seed: configuration.seed ?? UInt64(bitPattern: platform.nowNanos))
        if configuration.startType.watchesTheStart && configuration.race == nil {
            startWatch = StartWatchSource(format: platform.camera.format, startType: configuration.startType)
        }
        if let setup = configuration.race {
            var settings = setup.settings
            settings.rearmDelayNanos = max(settings.rearmDelayNanos, 0)
            let coordinator = RaceCoordinator(deviceId: configuration.deviceId, deviceName: setup.deviceName, role: setup.role,
                                              plan: setup.plan, sessionId: setup.sessionId, settings: settings)
            race = RaceSource(coordinator: coordinator, peers: platform.link.peerCount, precise: setup.preciseSync)
        }
        photos = BoxLoop.photoWriter(configuration, format: platform.camera.format, log: log)
    }

    /// When the loop has something of its own due (the button's taps
    /// becoming a gesture), for a driver that moves the clock itself.
    public var ownDueNanos: Int64? { taps.dueNanos }
    /// What the photo writer did this session (nil when photos are off).
    var photoStats: PhotoWriter.Stats? { photos?.stats }

    /// When the race wants its timer (`.raceTimer`), on this box's clock.
    public var raceDueNanos: Int64? { race?.nextDueNanos }

    /// The race's state, for a driver's report.
    public var raceState: RaceState? { race?.coordinator.state }

    /// The host's prediction of `peer`'s clock offset at `nanos`, for a
    /// simulation's sync error.
    public func racePrediction(peer: Int, atNanos nanos: Int64) -> ClockPrediction? {
        race?.sync[peer]?.estimator?.prediction(atNanos: nanos)
    }

    /// A detector for the camera as it streams: its size and its sensor's timing.
    static func detector(for format: FrameFormat, _ configuration: BoxConfiguration) -> CrossingDetector {
        var settings = configuration.detector
        settings.readoutNanos = format.readoutNanos
        settings.exposureNanos = format.exposureNanos
        return CrossingDetector(mode: configuration.detection, width: format.width, height: format.height, settings: settings)
    }

    /// Lets the platform close its devices (after `run`).
    public mutating func releasePlatform() where Platform == LinuxPlatform {
        platform.release()
    }

    /// Runs the session until the scenario ends or a stop signal arrives.
    public mutating func run() throws(GateError) -> SessionEnd {
        try begin()
        var end: SessionEnd?
        while end == nil {
            end = try handle(try platform.wait(deadlineNanos: taps.dueNanos))
            if http != nil { flushCoachFeed() }
            afterEachTurn?(self)
        }
        try finish(end!)
        return end!
    }

    /// Opens the session: its header record, and a word to the person.
    /// `run` calls it; a driver of several boxes calls it for each.
    public mutating func begin() throws(GateError) {
        let format = platform.camera.format
        var header = SessionRecord(
            sessionId: log.sessionId, deviceId: configuration.deviceId, mode: configuration.race == nil ? "solo" : "race",
            startType: configuration.startType.code,
            detection: configuration.detection.name, fps: format.fps, width: format.width, height: format.height,
            gatePosition: configuration.detector.gatePosition, viewWidthMetres: configuration.viewWidthMetres,
            timestamp: platform.wallClockMillis, simulated: configuration.simulated, seed: configuration.seed)
        header.preset = configuration.preset?.id
        header.distanceMetres = configuration.preset != nil ? configuration.distanceMetres : nil
        try log.append(header.jsonLine())
        self.header = header
        coachFeed?.session(log.sessionId)
        if let race = configuration.race {
            say("session \(log.sessionId): race " + (race.sessionId.isEmpty ? "of the bonded host" : race.sessionId) + (race.role.map { ", the " + $0.wire + " gate" } ?? "") + ", \(configuration.startType.name) start, \(format.width)x\(format.height) at \(format.fps) fps"
                + (configuration.simulated ? "" : "; press the button to arm"))
        } else {
            say("session \(log.sessionId): solo, \(configuration.startType.name) start, \(format.width)x\(format.height) at \(format.fps) fps; press the button to arm")
        }
        if let preset = configuration.preset {
            say("preset " + preset.id + ": " + preset.name + ", "
                + Preset.distanceText(metres: configuration.distanceMetres ?? preset.metres, yards: preset.yards))
            if configuration.race == nil, let missing = PresetAlone.missing(preset, startType: configuration.startType) { warn(missing) }
            if configuration.announcePreset {
                try platform.speaker.play(NextRunPicker.presetSound(preset, voice: configuration.voice), atNanos: platform.nowNanos)
            }
        }
        if !configuration.squad.athletes.isEmpty && configuration.race == nil { say(picker.squadLine) }
        sayPhotos()
        if let refused = configuration.settingsRefused {
            warn("settings refused: " + refused)
            try platform.lights.show(.error, atNanos: platform.nowNanos)
        }
    }

    /// Hands what is ready to the source that owns it (house rule 2: the
    /// loop dispatches, each source keeps its own state). Returns how the
    /// session ends when a signal or the scenario's end says so, else nil.
    public mutating func handle(_ ready: ReadySources) throws(GateError) -> SessionEnd? {
        if ready.contains(.signal) {
            while let signal = try platform.nextSignal() {
                switch signal {
                case .stop(let number): return .stopped(signal: number)
                case .reload: return .reload
                }
            }
        }
        if ready.contains(.link) { try handleLink() }
        if ready.contains(.station) { try handleStation() }
        if ready.contains(.http), let end = try handleHTTP() { return end }
        if ready.contains(.raceTimer) { try handleRaceTimer() }
        if ready.contains(.buttons) { try handleButtons() }
        // Taps pending only: most wake-ups (every frame) read no clock here.
        if taps.dueNanos != nil, let count = taps.due(atNanos: platform.nowNanos), let end = try handle(taps: count) { return end }
        if ready.contains(.motion) { try handleMotion() }
        if ready.contains(.speaker) { try handleSpeaker() }
        if ready.contains(.cameraBack) { try cameraReturned() }
        if ready.contains(.camera) { try handleFrames() }
        if ready.contains(.scenarioEnd) { return .completed }
        return nil
    }

    /// Closes the session: what the detector still holds is timed, and the
    /// session's end record written.
    public mutating func finish(_ end: SessionEnd) throws(GateError) {
        try timeWhatTheDetectorHolds()
        finishPhotos()
        closeStation()
        closeHTTP()
        session.stop()
        let endRecord = SessionEndRecord(sessionId: log.sessionId, laps: session.lapCount, reason: end.reason,
                                         timestamp: platform.wallClockMillis)
        try log.append(endRecord.jsonLine())
        self.endRecord = endRecord
        switch end {
        case .stopped: say("stopped by signal; results are saved")
        case .preset(let id): say("button: session closed to start preset " + id)
        case .reload: say("SIGHUP: session closed to reload the settings" + (session.lapCount == 0 ? "" : "; its results are saved"))
        case .completed: break
        }
    }

    // MARK: - Sources

    /// One frame per wake-up, then back to poll(): if detection ever falls
    /// behind the camera, the button, the IMU and signals still get their
    /// turn (poll reports every ready source) and the camera drops frames,
    /// which are counted, instead of the box going deaf.
    private mutating func handleFrames() throws(GateError) {
        let dequeued: LumaFrame?
        do { dequeued = try platform.camera.dequeue() } catch {
            guard error.isDeviceGone else { throw error }
            try cameraLost(error)
            return
        }
        guard let frame = dequeued else { return }
        let turnStarted = MonotonicClock.nowNanos()
        framesSeen += 1
        let crossing = detector.process(frame)
        let watched = startWatch?.wantsFrames(session.state) == true ? startWatch?.frame(frame) : nil
        photos?.frame(frame)
        try platform.camera.requeue()
        if let watched { try handle(watched) }
        if let crossing { try handle(crossing) }
        // A crossing's turn has written and synced its records: no photo work on it.
        if crossing == nil { photosBetweenFrames(after: frame) }
        frameTurns.record(nanos: MonotonicClock.nowNanos() - turnStarted, periodNanos: platform.camera.format.framePeriodNanos,
                          crossing: crossing != nil)
    }

    /// The session ends (a stop signal, a reload, the scenario's end) while
    /// the detector still holds a crossing: a runner just past the line
    /// whose postroll frames have not all come, or a torso timed from its
    /// centre once it leaves. It is timed now, as `ts-gate replay` does at a
    /// file's end, and recorded before the session's end record: stopping
    /// the box a few frames after a runner crossed must not lose that time.
    /// Runs once per session, so collecting into an array here is fine.
    private mutating func timeWhatTheDetectorHolds() throws(GateError) {
        var held: [DetectedCrossing] = []
        detector.finish { held.append($0) }
        for crossing in held { try handle(crossing) }
    }

    /// The camera went away (unplugged, driver gone): the gate cannot time,
    /// so it disarms and says so; what was recorded stays recorded, and the
    /// platform keeps trying to open the camera again.
    private mutating func cameraLost(_ error: GateError) throws(GateError) {
        let before = session.state
        rearmWhenCameraReturns = before != .idle
        if voice.callOff() { try platform.speaker.stop(atNanos: platform.nowNanos) }
        startWatch?.calledOff()
        _ = session.disarm()
        platform.cameraLost()
        try platform.lights.show(.error, atNanos: platform.nowNanos)
        warn("camera lost (" + error.message + "): gate disarmed" + (before == .running ? ", the run in progress is abandoned" : "")
            + "; results so far are saved; waiting for the camera to come back")
    }

    /// The camera streams again: a fresh detector (its background and
    /// tracks belong to the old stream), and the gate arms again if it was.
    private mutating func cameraReturned() throws(GateError) {
        let format = platform.camera.format
        detector = BoxLoop.detector(for: format, configuration)
        if startWatch != nil { startWatch = StartWatchSource(format: format, startType: configuration.startType) }
        photosCameraReturned(format)
        say("camera back: " + String(format.width) + "x" + String(format.height) + " at " + String(format.fps) + " fps"
            + (rearmWhenCameraReturns ? "; arming again" : "; press the button to arm"))
        let before = session.state
        if rearmWhenCameraReturns && session.arm() {
            try showState(changedFrom: before)
        } else {
            try platform.lights.show(.off, atNanos: platform.nowNanos)
        }
        rearmWhenCameraReturns = false
    }

    private mutating func handleMotion() throws(GateError) {
        let sample = try platform.motion.sample()
        trace.add(sample)
        guard let change = stability.add(sample) else { return }
        let before = session.state
        switch change {
        case .becameStill:
            if viewMayHaveMoved {
                viewMayHaveMoved = false
                detector.reset()
                say("tripod still again: learning the scene afresh")
            }
            hasBeenStill = true
            session.tripod(still: true)
        case .becameUnstable(_, let deviation):
            if hasBeenStill { viewMayHaveMoved = true }
            session.tripod(still: false)
            let moved = "tripod moved (" + DecimalText.fixed(deviation, places: 3) + " g)"
            switch (before, session.state) {
            case (.running, _): say(moved + ": the current lap will be flagged")
            case (.armed, .idle):
                warn(moved + ": gate disarmed; check the aim, then press the button to arm")
                try platform.lights.show(.error, atNanos: platform.nowNanos)
            case (.armed, .stabilising): say(moved + ": the gate arms again once it is still")
            default: say(moved)
            }
        }
        try showState(changedFrom: before)
    }

    private mutating func handleButtons() throws(GateError) {
        while let edge = try platform.buttons.nextEdge() {
            switch edge.control {
            case .button:
                if edge.pressed { taps.pressed(atNanos: edge.timestampNanos) }
                switch gestures.edge(pressed: edge.pressed, atNanos: edge.timestampNanos) {
                case .tap? where voice.calling != nil:
                    // Calling off a start cannot wait to see if more taps come.
                    taps.tookAtOnce(releasedAtNanos: edge.timestampNanos)
                    try handle(.tap)
                case .tap?: taps.tap(releasedAtNanos: edge.timestampNanos)
                case let gesture?:
                    taps.cancel()
                    try handle(gesture)
                case nil: if !edge.pressed { taps.released() }
                }
            case .touchPad:
                guard let event = touchPad.edge(pressed: edge.pressed, atNanos: edge.timestampNanos) else { continue }
                try handle(event)
            }
        }
    }

    /// Tap: arm an idle box, call the start of an armed one (countdown or
    /// voice), or call off a start before its GO. Long press: arm or
    /// disarm. Pairing press: look for a second box.
    /// `by` names who asked in the log: the button, or the coach's page.
    mutating func handle(_ gesture: ButtonGestures.Gesture, by who: String = "button") throws(GateError) {
        let before = session.state
        switch gesture {
        case .tap where session.state == .idle, .longPress where session.state == .idle:
            if session.arm() {
                say(who + ": arming" + (session.state == .stabilising ? ", waiting for the tripod to be still for " + DecimalText.fixed(Double(configuration.stillNanos) / 1e9, places: 1) + " s" : ""))
            }
        case .tap where voice.calling != nil:
            _ = voice.callOff()
            startWatch?.calledOff()
            try platform.speaker.stop(atNanos: platform.nowNanos)
            say(who + ": start called off before GO; tap again to call a new one")
        case .tap:
            guard configuration.startType.isCalled, session.state == .armed else { return }
            let call = voice.call(configuration.startType)
            say(call.line.hasPrefix("button") ? who + String(call.line.dropFirst(6)) : call.line)
            try platform.speaker.play(call.program, atNanos: platform.nowNanos)
            startWatch?.calling(watchFromNanos: platform.nowNanos + call.watchFromNanos)
        case .longPress:
            if session.disarm() {
                if voice.callOff() { try platform.speaker.stop(atNanos: platform.nowNanos) }
                startWatch?.calledOff()
                say((who == "button" ? "button (long press)" : who) + ": disarmed" + (before == .running ? "; the run in progress is abandoned" : ""))
                try platform.lights.show(.off, atNanos: platform.nowNanos)
            }
        case .pairingPress:
            try startPairing()
        }
        try showState(changedFrom: before)
    }

    private mutating func handle(_ event: TouchPad.Event) throws(GateError) {
        switch event {
        case .tooShort(let held):
            guard session.state == .armed, configuration.startType == .touchRelease else { return }
            say("touch pad: released after " + DecimalText.fixed(Double(held) / 1e9, places: 2)
                + " s; hold it at least " + DecimalText.fixed(Double(TouchPad.readyNanos) / 1e9, places: 1) + " s before the start")
        case .start(let release, let held):
            guard configuration.startType == .touchRelease else { return }
            try start(atNanos: release, source: "gpio-edge",
                      how: "touch-release start (held " + DecimalText.fixed(Double(held) / 1e9, places: 2) + " s)")
        }
    }

    /// Feeds the speaker; a called start's GO instant starts the run.
    private mutating func handleSpeaker() throws(GateError) {
        guard let go = try platform.speaker.service(atNanos: platform.nowNanos), let called = voice.goPlayed() else { return }
        try start(atNanos: go, source: platform.speaker.clockSource, how: called == .voice ? "voice start GO" : "countdown GO")
        if let outcome = startWatch?.go(atNanos: go) { try handle(outcome) }
    }

    /// A start event: the run begins at `nanos`, and its start record is
    /// written before anything else can happen to it.
    mutating func start(atNanos nanos: Int64, source: String, how: String, uncertaintyMs: Double? = nil) throws(GateError) {
        if race != nil {
            say(how + " at " + String(nanos) + " ns: the race's start")
            return try raceStep(.start(nanos: nanos, source: source))
        }
        let before = session.state
        guard let run = session.start(atNanos: nanos) else {
            say(how + " ignored: the gate is " + session.state.name)
            return
        }
        var record = StartRecord(sessionId: log.sessionId, runId: BoxLoop.runId(run), startType: configuration.startType.code,
                                 startTimeNanos: nanos, source: source, timestamp: platform.wallClockMillis)
        record.uncertaintyMs = uncertaintyMs
        startUncertaintyMs = uncertaintyMs
        if let uncertaintyMs { startUncertainties[run] = uncertaintyMs }
        try log.append(record.jsonLine())
        picker.runStarted(run)
        say(how + ": run " + String(run) + " started at " + String(nanos) + " ns" + (picker.athlete.map { " (" + $0.name + ")" } ?? ""))
        try showState(changedFrom: before)
    }

    static func runId(_ run: Int) -> String { "run-" + DecimalText.zeroPadded(run, width: 3) }

    private mutating func showState(changedFrom before: SoloLapSession.State) throws(GateError) {
        let now = session.state
        guard now != before else { return }
        if race != nil {
            let armed = now == .armed || now == .running
            let format = platform.camera.format
            try raceStep(.ready(armed, reason: armed ? "" : "gate " + now.name, gatePosition: configuration.detector.gatePosition,
                                fps: format.fps))
        }
        switch now {
        case .stabilising: try platform.lights.show(.stabilising, atNanos: platform.nowNanos)
        case .armed:
            try platform.lights.show(.armed, atNanos: platform.nowNanos)
            if before == .idle || before == .stabilising { startWatch?.learn() }
            switch configuration.startType {
            case .flying: say("gate armed: the first crossing starts the clock")
            case .touchRelease: say("gate armed: hold the touch pad at least 0.5 s; its release starts the clock")
            case .countdown: say("gate armed: tap the button for the countdown; GO starts the clock")
            case .voice: say("gate armed: tap the button for the voice start; GO starts the clock")
            case .inFrame: say("gate armed: learning the empty view; then stand still in view until \"ready\"; leaving the frame starts the clock")
            }
        default: break
        }
    }

    private mutating func handle(_ crossing: DetectedCrossing) throws(GateError) {
        if race != nil { return try raceCrossing(crossing) }
        guard let lap = session.record(crossing) else { return }
        let speed = Speed(metresPerSecond: crossing.velocityWidthsPerSecond.magnitude * configuration.viewWidthMetres)
        let startUncertainty = records.first?.uncertaintyMs ?? crossing.uncertaintyMs
        let record = CrossingRecord(
            sessionId: log.sessionId, runId: BoxLoop.runId(lap.run), lap: lap.lap, role: "solo",
            crossingTimeNanos: crossing.timeNanos, frameIndex: Int64(crossing.frameIndex),
            interpolationOffsetMs: crossing.interpolationOffsetMs, uncertaintyMs: crossing.uncertaintyMs,
            occupancyAtTrigger: crossing.occupancyAtTrigger, direction: crossing.direction,
            startTimeNanos: lap.startNanos, elapsedMs: Double(lap.elapsedNanos) / 1e6,
            splitTimeMs: lap.splitNanos.map { Double($0) / 1e6 },
            totalUncertaintyMs: configuration.startType == .inFrame
                ? TimingMath.combinedUncertaintyMs(startUncertaintyMs ?? 0, crossing.uncertaintyMs)
                : lap.lap == 0 || configuration.startType.isExternal ? crossing.uncertaintyMs
                : TimingMath.combinedUncertaintyMs(startUncertainty, crossing.uncertaintyMs),
            speedMps: speed.metresPerSecond, droppedFrames: platform.camera.droppedFrames, stable: !lap.disturbed,
            timestamp: platform.wallClockMillis, truthCrossingTimeNanos: platform.truthCrossing(nearNanos: crossing.timeNanos))
        var saved = record
        if let reaction = runReaction, reaction.run == lap.run, configuration.startType.isCalled {
            saved.reactionMs = reaction.reactionMs
            saved.falseStart = reaction.falseStart
        }
        let best = picker.stamp(&saved, external: configuration.startType.isExternal)
        // The tripod's motion from 1 s before the lap began (its start event,
        // the previous crossing; the first flying crossing: 1 s before it)
        // to the crossing, in a file of its own.
        let lapBegan = configuration.startType.isExternal ? lap.startNanos
            : crossing.timeNanos - (lap.splitNanos ?? 1_000_000_000)
        let from = lapBegan - 1_000_000_000
        // The tripod's trace is a companion file: failing to write it loses
        // no time, so it is said and the crossing recorded all the same.
        do {
            saved.stabilityTrace = try log.writeSideFile("stability-" + record.runId + "-lap" + String(lap.lap) + ".csv",
                                                         trace.csv(fromNanos: from, originNanos: crossing.timeNanos))
        } catch {
            warn("the tripod's trace of this crossing was not saved: " + error.message)
        }
        let line = saved.jsonLine()
        try log.append(line)
        records.append(saved)
        coachFeed?.run(line)
        try platform.lights.show(.crossing, atNanos: platform.nowNanos)
        say(ResultsTable.liveLine(saved, runs: configuration.startType.isExternal, units: configuration.speedUnits))
        if let line = best.line { say(line) }
        try speak(lap, best: best.remark, gainNanos: best.gainNanos)
        if configuration.startType.isExternal && session.state == .armed { say("ready for the next start") }
        if session.state == .idle {
            warn("the tripod moved during this run: gate disarmed; check the aim, then press the button to arm")
            try platform.lights.show(.error, atNanos: platform.nowNanos)
        }
        photosCrossing(saved)
    }

    /// The crossing's beep, then its time in words: each lap's split with a
    /// flying start (the crossing that starts the clock only beeps), each
    /// run's time with a start event; "best lap" or "best run" when it beats
    /// every earlier one of the session.
    private mutating func speak(_ lap: SoloLapSession.Lap, best: Phrase?, gainNanos: Int64?) throws(GateError) {
        let external = configuration.startType.isExternal
        let time = external ? lap.elapsedNanos : lap.splitNanos
        var remark: Phrase? = best
        let falseStart = runReaction.map { $0.run == lap.run && $0.falseStart } ?? false
        if remark == nil, let time, session.bestSplitNanos == time, session.lapCount >= 2, !falseStart {
            remark = external ? .bestRun : .bestLap
        }
        let sound = time.map { voice.crossing(lap: external ? nil : lap.lap, nanos: $0, remark: remark, gainNanos: remark == best ? gainNanos : nil) }
            ?? (program: StartCalls.crossing(words: nil, voice: configuration.voice), note: nil)
        try platform.speaker.play(sound.program, atNanos: platform.nowNanos)
        if let note = sound.note { say(note) }
    }

    func say(_ text: String) {
        console.line(DecimalText.clockLabel(platform.nowNanos) + " " + text)
        coachFeed?.line(text, warning: false)
    }

    /// A line that needs a person: the journal's warning priority.
    func warn(_ text: String) {
        console.warning(DecimalText.clockLabel(platform.nowNanos) + " " + text)
        coachFeed?.line(text, warning: true)
    }
}

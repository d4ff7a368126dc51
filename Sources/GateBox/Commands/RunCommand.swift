import GateCore
import GateDevices

/// `ts-gate run`: the box on its real devices, what the SD image's service
/// starts. Runs the same loop as the simulator until SIGINT or SIGTERM, then
/// closes the session's results cleanly. SIGHUP closes the session, reads
/// the board and configuration files again and opens the devices anew: a bad
/// edit is refused with its line and the box goes on with what it had. At
/// start, a bad edit is refused the same way when an earlier start kept a
/// good configuration (LastGoodSettings): the box runs on that one.
enum RunCommand {
    static func run(_ options: RunOptions, console: Console) -> Int32 {
        var settings: BoxSettings
        // Why the settings in use are not the file's, shown until fixed.
        var refusal: String?
        let lastGood = LastGoodSettings(dataDirectory: options.dataDirectory ?? BoxSettings().dataDirectory)
        do {
            settings = try options.sources.load()
            lastGood.keep(options.sources, console: console)
        } catch {
            guard let fallback = lastGood.load(options.sources) else {
                console.problem("ts-gate: " + error.message)
                return 2
            }
            settings = fallback
            refusal = LastGoodSettings.refusal(error)
            console.problem("ts-gate: " + refusal! + " (" + lastGood.path + ")")
        }
        let signals: SignalDescriptor
        do { signals = try SignalDescriptor.open() } catch {
            console.problem("ts-gate: signalfd: " + error.description)
            return 1
        }
        defer { signals.close() }
        let refused = settings.realTime ? RealTime.enable() : []
        if !refused.isEmpty {
            console.line("ts-gate: warning: running without real-time priority or locked memory ("
                + refused.joined(separator: "; ") + "); times stay exact (kernel stamps), only latency may vary")
        }
        while true {
            let end: SessionEnd
            do { end = try session(settings, refusal: refusal, options: options, signals: signals, console: console) } catch {
                console.problem("ts-gate: " + error.message)
                return 1
            }
            RunCommand.serviceSessionEnded(end)
            guard end == .reload else { return 0 }
            do {
                settings = try options.sources.load()
                refusal = nil
                lastGood.keep(options.sources, console: console)
                console.line("ts-gate: settings reloaded")
            } catch {
                refusal = error.message + "; reload refused, keeping the settings in use"
                console.problem("ts-gate: reload refused, keeping the settings in use: " + error.message)
            }
        }
    }

    /// One session on freshly opened devices.
    static func session(_ settings: BoxSettings, refusal: String?, options: RunOptions, signals: SignalDescriptor,
                        console: Console) throws(GateError) -> SessionEnd {
        let voice = VoiceFiles.load(directory: settings.voiceDirectory)
        let platform: LinuxPlatform
        do { platform = try LinuxPlatform(settings: settings, signals: signals, voice: voice.voice) } catch {
            throw GateError(error.subject, error.problem + " (ts-gate selftest checks every device)")
        }
        let store = ResultsStore(dataDirectory: options.dataDirectory ?? settings.dataDirectory)
        let log = try store.createSession()
        defer { log.close() }
        var detector = DetectorSettings()
        detector.gatePosition = settings.gatePosition
        let deviceId = settings.race == .solo ? "ts-gate-" + settings.board : RunRace.identity(settings)
        var configuration = BoxConfiguration(detector: detector, viewWidthMetres: settings.viewWidthMetres,
                                             deviceId: deviceId, simulated: false, seed: nil)
        configuration.race = try RunRace.setup(settings, deviceId: deviceId, console: console)
        configuration.stillNanos = Int64(settings.stillSeconds * 1e9)
        configuration.detection = settings.detection
        configuration.startType = settings.startType
        configuration.settingsRefused = refusal
        configuration.voiceSettings = settings.voice
        configuration.voice = voice.voice
        configuration.preset = settings.preset
        configuration.distanceMetres = settings.presetDistanceMetres
        configuration.speedUnits = settings.speedUnits
        configuration.photos = settings.photos
        console.line("ts-gate " + Version.text + ": board " + settings.board + ", results in " + log.path)
        if voice.trouble.isEmpty { console.line(voice.line) } else { console.warning(voice.line) }
        console.line("camera " + settings.cameraDevice + ": " + V4L2Controls.summary(platform.camera.controls))
        var loop = BoxLoop(platform: platform, configuration: configuration, log: log, console: console)
        RunCommand.serviceReady(&loop)
        defer { loop.releasePlatform() }
        loop.startStation(settings, dataDirectory: options.dataDirectory ?? settings.dataDirectory)
        return try loop.run()
    }
}

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
        // The button's preset gesture overrides the files' preset from then
        // on, through reloads, until the service restarts.
        var sources = options.sources
        var announcePreset = false
        // One PIN for the coach's page while the service runs: a browser
        // that entered it keeps control across reloads and new presets.
        let pinBits = KernelRandom.bits32()
        while true {
            let end: SessionEnd
            do {
                end = try session(settings, refusal: refusal, options: options, signals: signals, console: console,
                                  announcePreset: announcePreset, pinBits: pinBits)
            } catch {
                console.problem("ts-gate: " + error.message)
                return 1
            }
            RunCommand.serviceSessionEnded(end)
            announcePreset = false
            if case .preset(let id) = end {
                if let picked = pickedPreset(id, over: sources, console: console) {
                    settings = picked.settings
                    sources = picked.sources
                    announcePreset = true
                }
                continue
            }
            guard end == .reload else { return 0 }
            do {
                settings = try sources.load()
                refusal = nil
                lastGood.keep(options.sources, console: console)
                console.line("ts-gate: settings reloaded")
            } catch {
                refusal = error.message + "; reload refused, keeping the settings in use"
                console.problem("ts-gate: reload refused, keeping the settings in use: " + error.message)
            }
        }
    }

    /// The settings with the preset the button picked, or, when the files
    /// refuse it (a start.type it does not allow), with the next one they
    /// take, so the next triple tap moves on instead of back to the same
    /// refusal. Nil: no preset can be run with these files.
    static func pickedPreset(_ id: String, over sources: SettingsSources, console: Console) -> (settings: BoxSettings, sources: SettingsSources)? {
        var preset = Preset.named(id)
        for _ in 0..<Preset.all.count {
            guard let candidate = preset else { break }
            var picked = sources
            picked.preset = candidate.id
            do {
                let settings = try picked.load()
                console.line("ts-gate: preset " + candidate.id + " from the button")
                return (settings, picked)
            } catch {
                console.line("ts-gate: preset " + candidate.id + " from the button skipped: " + error.message)
            }
            preset = candidate.next
        }
        console.problem("ts-gate: no preset from the button fits the settings; keeping the settings in use")
        return nil
    }

    /// One session on freshly opened devices.
    static func session(_ settings: BoxSettings, refusal: String?, options: RunOptions, signals: SignalDescriptor,
                        console: Console, announcePreset: Bool = false, pinBits: UInt32) throws(GateError) -> SessionEnd {
        var voice = VoiceFiles.load(directory: settings.voiceDirectory)
        // The athletes' names join the voice before its sounds are rendered.
        let squad = Squad.load(dataDirectory: options.dataDirectory ?? settings.dataDirectory, voice: &voice.voice, console: console)
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
        configuration.squad = squad
        configuration.announcePreset = announcePreset
        configuration.photos = settings.photos
        console.line("ts-gate " + Version.text + ": board " + settings.board + ", results in " + log.path)
        if voice.trouble.isEmpty { console.line(voice.line) } else { console.warning(voice.line) }
        console.line("camera " + settings.cameraDevice + ": " + V4L2Controls.summary(platform.camera.controls))
        var loop = BoxLoop(platform: platform, configuration: configuration, log: log, console: console)
        RunCommand.serviceReady(&loop)
        defer { loop.releasePlatform() }
        loop.startStation(settings, dataDirectory: options.dataDirectory ?? settings.dataDirectory)
        // Without its page the box still times: said, not fatal.
        if let address = options.http ?? settings.httpListen {
            do { try loop.startHTTP(address, pinBits: pinBits) } catch { loop.warn("coach's page off: " + error.message) }
        }
        return try loop.run()
    }
}

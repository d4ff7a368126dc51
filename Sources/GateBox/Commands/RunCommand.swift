import GateCore
import GateDevices

/// `ts-gate run`: the box on its real devices, what the SD image's service
/// starts. Runs the same loop as the simulator until SIGINT or SIGTERM, then
/// closes the session's results cleanly.
enum RunCommand {
    static func run(_ options: RunOptions, console: Console) -> Int32 {
        let settings: BoxSettings
        do { settings = try options.sources.load() } catch {
            console.problem("ts-gate: " + error.message)
            return 2
        }
        let signals: SignalDescriptor
        do { signals = try SignalDescriptor.open() } catch {
            console.problem("ts-gate: signalfd: " + error.description)
            return 1
        }
        defer { signals.close() }
        let platform: LinuxPlatform
        do { platform = try LinuxPlatform(settings: settings, signals: signals) } catch {
            console.problem("ts-gate: " + error.message + " (ts-gate selftest checks every device)")
            return 1
        }
        let store = ResultsStore(dataDirectory: options.dataDirectory ?? settings.dataDirectory)
        let log: SessionLog
        do { log = try store.createSession() } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        defer { log.close() }
        var detector = DetectorSettings()
        detector.gatePosition = settings.gatePosition
        var configuration = BoxConfiguration(detector: detector, viewWidthMetres: settings.viewWidthMetres,
                                             deviceId: "ts-gate-" + settings.board, simulated: false, seed: nil)
        configuration.stillNanos = Int64(settings.stillSeconds * 1e9)
        configuration.detectionName = settings.detection.name
        configuration.startType = settings.startType
        console.line("ts-gate " + Version.text + ": board " + settings.board + ", results in " + log.path)
        var loop = BoxLoop(platform: platform, configuration: configuration, log: log, console: console)
        defer { loop.releasePlatform() }
        do {
            _ = try loop.run()
        } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        return 0
    }
}

import GateCore
import GateDevices
import GateSim

/// `ts-gate --simulate`: the whole box on simulated devices, on the same
/// loop as the real one; ends with the session's table.
enum SimulateCommand {
    static func run(_ options: SimulateOptions, console: Console) -> Int32 {
        if let race = options.race { return RaceSimulateCommand.run(options, race: race, console: console) }
        let dataDirectory = options.dataDirectory ?? defaultDataDirectory()
        let store = ResultsStore(dataDirectory: dataDirectory)
        let log: SessionLog
        do {
            log = try store.createSession()
        } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }
        defer { log.close() }
        // Without a signalfd (unusual) the session still runs; Ctrl-C then just kills it.
        let signals = try? SignalDescriptor.open()
        defer { signals?.close() }

        var voice = SimulateCommand.voice(options)
        var squad = Squad()
        if let count = options.athletes {
            do { squad = try SimulatedSquad.prepare(count: count, dataDirectory: dataDirectory, voice: &voice.voice, console: console) } catch {
                console.problem("ts-gate: " + error.message)
                return 1
            }
        }
        var simulation = options.simulation
        simulation.voice = voice.voice
        simulation.athletes = squad.athletes.count
        let scenario = Scenario(options: simulation)
        let platform = SimulatedPlatform(scenario: scenario, paced: !options.fast, signals: signals, console: console)
        var detector = DetectorSettings()
        detector.gatePosition = options.simulation.gatePosition
        var configuration = BoxConfiguration(detector: detector, viewWidthMetres: options.simulation.viewWidthMetres,
                                             deviceId: "ts-gate-sim", simulated: true, seed: options.simulation.seed)
        configuration.startType = options.simulation.startType
        configuration.detection = options.mode
        configuration.voiceSettings = simulation.voiceSettings
        configuration.voice = voice.voice
        configuration.preset = options.preset
        configuration.distanceMetres = options.preset?.metres
        configuration.squad = squad
        configuration.photos = options.photos
        console.line("ts-gate " + Version.text + ": simulating one box, seed " + String(options.simulation.seed)
            + ", " + String(options.simulation.runs) + (options.simulation.startType == .flying ? " laps, " : " " + options.simulation.startType.name + " runs, ") + (options.fast ? "fast (virtual clock)" : "real time (Ctrl-C stops)"))
        console.line(voice.line)
        var loop = BoxLoop(platform: platform, configuration: configuration, log: log, console: console)
        defer { loop.platform.release() }
        let end: SessionEnd
        do {
            // The PIN from the seed: a simulated session is the same every time.
            if let address = options.http {
                try loop.startHTTP(address, pinBits: UInt32(truncatingIfNeeded: (options.simulation.seed &* 0x9E37_79B9_7F4A_7C15) >> 32))
            }
            end = try loop.run()
        } catch {
            console.problem("ts-gate: " + error.message)
            return 1
        }

        console.line("")
        console.line(ResultsTable.render(session: loop.header, crossings: loop.records, ended: loop.endRecord))
        let detected = Set(loop.records.compactMap { $0.truthCrossingTimeNanos })
        let missed = scenario.truthNanos.filter { !detected.contains($0) }
        if end == .completed {
            if missed.isEmpty {
                console.line("every simulated crossing was detected (" + String(scenario.truthNanos.count) + " of " + String(scenario.truthNanos.count) + ")")
            } else {
                var text = "missed " + String(missed.count) + " of " + String(scenario.truthNanos.count) + " simulated crossings, at"
                for t in missed { text += " " + DecimalText.fixed(Double(t) / 1e9, places: 3) + " s" }
                console.line(text)
            }
        }
        for line in photoLines(loop) { console.line(line) }
        if !options.fast {
            console.line("real time: " + String(loop.platform.lateFrames) + " frames handed over more than a frame period late, the latest by "
                + DecimalText.fixed(Double(loop.platform.worstFrameDelayNanos) / 1e6, places: 2) + " ms")
        }
        if let line = startErrors(scenario, records: loop.records) { console.line(line) }
        for line in watchedStarts(scenario, loop: loop) { console.line(line) }
        console.line("results: " + log.path)
        return 0
    }

    /// What the photos cost: files and bytes per crossing, the encoder's
    /// slices, and the frame turns against the frame period (a turn longer
    /// than a period is a frame late on a real camera).
    static func photoLines<P>(_ loop: BoxLoop<P>) -> [String] {
        let turns = loop.frameTurns
        let period = loop.platform.camera.format.framePeriodNanos
        func ms(_ nanos: Int64) -> String { DecimalText.fixed(Double(nanos) / 1e6, places: 2) + " ms" }
        var lines = ["frame turns: " + String(turns.count) + ", mean " + ms(turns.totalNanos / Int64(max(1, turns.count)))
            + ", longest " + ms(turns.longestNanos) + ", " + String(turns.overPeriod) + " longer than a frame period ("
            + ms(period) + "); without a crossing's records: longest " + ms(turns.longestWithoutCrossingNanos) + ", "
            + String(turns.overPeriodWithoutCrossing) + " longer"]
        guard let stats = loop.photoStats else { return lines + ["photos: off"] }
        let crossings = Int64(max(1, stats.crossings))
        lines.append("photos: " + String(stats.crossings) + " crossings, " + String(stats.files) + " files, "
            + String(stats.bytes / 1024) + " KB (" + String(stats.bytes / crossings / 1024) + " KB per crossing); "
            + String(stats.slices) + " slices between frames, longest " + ms(stats.longestSliceNanos) + "; "
            + ms((stats.sliceNanos + stats.closingNanos) / crossings) + " of work per crossing")
        return lines
    }

    /// The voice's clips: --voice, else build/voice when run from the
    /// source tree (`make voice`), else the SD image's directory.
    static func voice(_ options: SimulateOptions) -> (voice: Voice, line: String, trouble: String) {
        let directory = options.voiceDirectory
            ?? (Directory.isDirectory("build/voice") ? "build/voice" : BoxSettings().voiceDirectory)
        return VoiceFiles.load(directory: directory)
    }

    /// Starts the camera watched, against the scenario's truth: each
    /// reaction's first movement and false-start verdict (the truth's
    /// verdict from the true movement), and the in-frame starts' error.
    static func watchedStarts<P>(_ scenario: Scenario, loop: BoxLoop<P>) -> [String] {
        var lines: [String] = []
        if scenario.options.startType.isCalled {
            var worst = 0.0, measured = 0, agreed = 0, within = 0
            for (run, go) in scenario.startNanos.enumerated() {
                let truth = scenario.movementNanos[run]
                let truthFalse = truth - go < ReactionRecord.falseStartNanos
                let reaction = loop.reactions.first { $0.goTimeNanos == go }
                    ?? loop.reactions.min { ($0.goTimeNanos - go).magnitude < ($1.goTimeNanos - go).magnitude }
                var line = "run " + String(run + 1) + ": true reaction " + DecimalText.signed(Double(truth - go) / 1e9, places: 3) + " s"
                    + (truthFalse ? " (false start)" : "") + "; box: "
                if let reaction, (reaction.goTimeNanos - go).magnitude < 100_000_000 {
                    line += reaction.text
                    if let error = reaction.movementErrorMs {
                        line += ", movement error " + DecimalText.signed(error, places: 1) + " ms (±"
                            + DecimalText.fixed(reaction.uncertaintyMs ?? 0, places: 1) + " stated)"
                        worst = max(worst, error.magnitude)
                        measured += 1
                        if error.magnitude <= reaction.uncertaintyMs ?? 0 { within += 1 }
                    }
                    if reaction.falseStart == truthFalse { agreed += 1 }
                } else {
                    line += "no reaction recorded"
                }
                lines.append(line)
            }
            lines.append("reactions: " + String(measured) + " of " + String(scenario.startNanos.count) + " measured, largest movement error "
                + DecimalText.fixed(worst, places: 1) + " ms, within the stated uncertainty in " + String(within)
                + "; false-start verdicts right in " + String(agreed) + " of " + String(scenario.startNanos.count))
        }
        if scenario.options.startType == .inFrame {
            var worst = 0.0, within = 0
            for record in loop.records {
                guard let truth = scenario.startNanos.min(by: { ($0 - record.startTimeNanos).magnitude < ($1 - record.startTimeNanos).magnitude })
                else { continue }
                let error = Double(record.startTimeNanos - truth) / 1e6
                let stated = loop.startUncertainties[record.runNumber] ?? 0
                if error.magnitude <= stated { within += 1 }
                worst = max(worst, error.magnitude)
                lines.append("run " + String(record.runNumber) + ": left the frame " + DecimalText.signed(error, places: 1)
                    + " ms from the truth (±" + DecimalText.fixed(stated, places: 1) + " stated)")
            }
            lines.append("in-frame starts: largest error " + DecimalText.fixed(worst, places: 1) + " ms; within the stated uncertainty in "
                + String(within) + " of " + String(loop.records.count))
        }
        return lines
    }

    /// Each run's start as recorded against the scenario's truth (the GO a
    /// countdown or voice start played, a pad's release).
    static func startErrors(_ scenario: Scenario, records: [CrossingRecord]) -> String? {
        guard !scenario.startNanos.isEmpty else { return nil }
        var matched = 0
        var worst: Int64 = 0
        for record in records {
            guard let truth = scenario.startNanos.min(by: { ($0 - record.startTimeNanos).magnitude < ($1 - record.startTimeNanos).magnitude })
            else { continue }
            matched += 1
            worst = max(worst, abs(record.startTimeNanos - truth))
        }
        return "starts: " + String(matched) + " timed runs of " + String(scenario.startNanos.count) + " starts; largest error against the true start "
            + DecimalText.fixed(Double(worst) / 1e6, places: 3) + " ms"
    }
}

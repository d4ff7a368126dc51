import GateCore
import GateSim

/// Parses `ts-gate ...` by hand: Embedded Swift has no ArgumentParser, and
/// the grammar is small. Every error names the option and what it accepts.
public enum ArgumentParser {
    public static func parse(_ rawArguments: [String]) throws(UsageError) -> Command {
        // "--option=value" is the same as "--option value".
        var arguments: [String] = []
        for argument in rawArguments {
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                arguments.append(String(argument[..<equals]))
                arguments.append(String(argument[argument.index(after: equals)...]))
            } else {
                arguments.append(argument)
            }
        }
        var cursor = Cursor(arguments: arguments)
        guard let first = cursor.peek() else { return .help }
        switch first {
        case "-h", "--help", "help": return .help
        case "-V", "--version", "version": return .version
        case "results":
            cursor.skip()
            return .results(try parseResults(&cursor))
        case "run":
            cursor.skip()
            var options = RunOptions()
            while let argument = cursor.next() {
                if try parseSettingsSource(argument, &cursor, into: &options.sources) { continue }
                if argument == "--preset" {
                    options.sources.preset = try preset(&cursor, argument).id
                    continue
                }
                if argument == "--http" {
                    options.http = try listenAddress(&cursor, argument)
                    continue
                }
                guard argument == "--data-dir" else { throw unknown(argument, accepted: "--board, --config, --data-dir, --preset, --http") }
                options.dataDirectory = try cursor.value(for: argument, accepts: "a directory path")
            }
            return .run(options)
        case "selftest":
            cursor.skip()
            var options = SelftestOptions()
            while let argument = cursor.next() {
                guard try parseSettingsSource(argument, &cursor, into: &options.sources) else {
                    throw unknown(argument, accepted: "--board, --config")
                }
            }
            return .selftest(options)
        case "peers":
            cursor.skip()
            var options = PeersOptions()
            while let argument = cursor.next() {
                switch argument {
                case "--scan": options.scan = true
                case "--controller": options.controller = try cursor.value(for: argument, accepts: "a controller such as hci0")
                case "--seconds": options.seconds = try cursor.decimal(for: argument, in: 1...120, accepts: "seconds to scan, 1 to 120")
                case "--forget": options.forget = try cursor.value(for: argument, accepts: "a bonded peer's address such as 00:AA:01:01:00:01")
                case "--data-dir": options.dataDirectory = try cursor.value(for: argument, accepts: "a directory path")
                default: throw unknown(argument, accepted: "--scan, --controller, --seconds, --forget, --data-dir")
                }
            }
            return .peers(options)
        case "ble-probe":
            cursor.skip()
            var options = BLEProbeOptions()
            var listen = false
            while let argument = cursor.next() {
                switch argument {
                case "--listen": listen = true
                case "--once": options.once = true
                case "--connect": options.connect = try cursor.value(for: argument, accepts: "a peer address (00:AA:01:01:00:01) or any")
                case "--controller": options.controller = try cursor.value(for: argument, accepts: "a controller such as hci0")
                case "--seconds": options.seconds = try cursor.decimal(for: argument, in: 1...600, accepts: "seconds, 1 to 600")
                case "--connect-timeout-ms":
                    options.connectTimeoutMillis = Int(try cursor.integer(for: argument, in: 100...60000, accepts: "milliseconds, 100 to 60000"))
                case "--message": options.message = try cursor.value(for: argument, accepts: "the text to send")
                case "--secure": options.secure = true
                case "--hold-ms": options.holdMillis = Int(try cursor.integer(for: argument, in: 0...600000, accepts: "milliseconds, 0 to 600000"))
                default: throw unknown(argument, accepted: "--listen, --once, --connect, --controller, --seconds, --connect-timeout-ms, --message, --secure, --hold-ms")
                }
            }
            guard listen != (options.connect != nil) else { throw UsageError("ble-probe takes either --listen or --connect ADDR|any") }
            return .bleProbe(options)
        case "render":
            cursor.skip()
            return .render(try parseRender(&cursor))
        case "presets":
            cursor.skip()
            if let extra = cursor.next() { throw unknown(extra, accepted: "nothing: ts-gate presets lists every preset") }
            return .presets
        case "calc":
            cursor.skip()
            return .calc(try parseCalc(&cursor))
        case "athletes":
            cursor.skip()
            return .athletes(try parseAthletes(&cursor))
        case "session":
            cursor.skip()
            return .session(try parseSessionNote(&cursor))
        case "export":
            cursor.skip()
            return .export(try parseExport(&cursor))
        case "replay":
            cursor.skip()
            return .replay(try parseReplay(&cursor))
        case "--simulate", "simulate":
            cursor.skip()
            return .simulate(try parseSimulate(&cursor))
        default:
            if first.hasPrefix("-") {
                // Options before --simulate are fine: ts-gate --fast --simulate.
                if arguments.contains("--simulate") {
                    let rest = arguments.filter { $0 != "--simulate" }
                    var c = Cursor(arguments: rest)
                    return .simulate(try parseSimulate(&c))
                }
                throw UsageError("unknown option '\(first)' (try 'ts-gate --help')")
            }
            throw UsageError("unknown command '\(first)' (commands: run, --simulate, replay, render, results, presets, calc, athletes, session, export, selftest, peers, --help, --version)")
        }
    }

    static func parseRaceOption(_ argument: String, _ cursor: inout Cursor, _ race: inout RaceSimulationOptions) throws(UsageError) {
        switch argument {
        case "--distance":
            race.distances = [try cursor.decimal(for: argument, in: 1...1000, accepts: "the finish's distance in metres, 1 to 1000")]
        case "--distances":
            let text = try cursor.value(for: argument, accepts: "each gate's metres from the start, rising, e.g. 30,60,100")
            var metres: [Double] = []
            for part in text.split(separator: ",") {
                guard let d = DecimalText.parseDouble(part), d > (metres.last ?? 0), d <= 1000 else {
                    throw UsageError("--distances expects rising metres from the start up to 1000, e.g. 30,60,100; got '" + text + "'")
                }
                metres.append(d)
            }
            race.distances = metres
        case "--interval-ms":
            race.intervalMs = try cursor.decimal(for: argument, in: 7.5...100, accepts: "a BLE connection interval from 7.5 to 100 ms")
        case "--drift-ppm":
            race.driftPPM = try cursor.decimal(for: argument, in: 0...200, accepts: "the clocks' largest rate difference, 0 to 200 ppm")
        case "--loss":
            race.lossPercent = try cursor.decimal(for: argument, in: 0...50, accepts: "a percentage of packets lost, 0 to 50")
        case "--link-drop":
            race.linkDropSeconds = try cursor.decimal(for: argument, in: 0.1...60, accepts: "seconds of silence on the links, 0.1 to 60")
        case "--plain-sync":
            race.plainSync = true
        default:   // --controller
            let name = try cursor.value(for: argument, accepts: "uart or usb")
            guard name == "uart" || name == "usb" else { throw UsageError("--controller expects uart or usb, got '" + name + "'") }
            race.usbController = name == "usb"
        }
    }

    /// `--mode M`, for --simulate and replay alike.
    static func detectionMode(_ cursor: inout Cursor, _ argument: String) throws(UsageError) -> DetectionMode {
        let name = try cursor.value(for: argument, accepts: DetectionMode.names)
        guard let mode = DetectionMode(name: name) else {
            throw UsageError(argument + " expects " + DetectionMode.names + ", got '" + name + "'")
        }
        return mode
    }

    /// `--preset ID`, for run and --simulate.
    static func preset(_ cursor: inout Cursor, _ argument: String) throws(UsageError) -> Preset {
        let id = try cursor.value(for: argument, accepts: "a preset's id: " + Preset.ids)
        guard let preset = Preset.named(id) else {
            throw UsageError(argument + ": no preset '" + id + "'; expected one of " + Preset.ids + " (ts-gate presets lists them)")
        }
        return preset
    }

    /// `--http ADDRESS:PORT`, for run and --simulate.
    static func listenAddress(_ cursor: inout Cursor, _ argument: String) throws(UsageError) -> ListenAddress {
        let text = try cursor.value(for: argument, accepts: ListenAddress.accepts)
        guard let address = ListenAddress(text) else { throw UsageError(argument + " expects " + ListenAddress.accepts + ", got '" + text + "'") }
        return address
    }

    static func parseSimulate(_ cursor: inout Cursor) throws(UsageError) -> SimulateOptions {
        var options = SimulateOptions()
        var startGiven = false, distancesGiven = false
        while let argument = cursor.next() {
            switch argument {
            case "--preset":
                options.preset = try preset(&cursor, argument)
            case "--seed":
                options.simulation.seed = UInt64(try cursor.integer(for: argument, in: 0...Int64.max, accepts: "a non-negative integer"))
            case "--runs":
                options.simulation.runs = Int(try cursor.integer(for: argument, in: 1...1000, accepts: "an integer from 1 to 1000 (laps after a flying start, or runs)"))
            case "--fps":
                options.simulation.fps = Int(try cursor.integer(for: argument, in: 30...1000, accepts: "an integer from 30 to 1000 (frames per second)"))
            case "--speed":
                options.simulation.speedMetresPerSecond = try cursor.decimal(for: argument, in: 2...12, accepts: "a speed in m/s from 2 to 12")
            case "--gate":
                options.simulation.gatePosition = try cursor.decimal(for: argument, in: 0.1...0.9, accepts: "a fraction of the image width from 0.1 to 0.9")
            case "--start":
                let name = try cursor.value(for: argument, accepts: StartType.names)
                guard let type = StartType(name: name) else {
                    throw UsageError("--start: expected " + StartType.names + ", got '" + name + "'")
                }
                options.simulation.startType = type
                startGiven = true
            case "--mode":
                options.mode = try detectionMode(&cursor, argument)
            case "--knock":
                let seconds = try cursor.decimal(for: argument, in: 0...600, accepts: "seconds into the session, from 0 to 600")
                options.simulation.knockNanos = Int64(seconds * 1e9)
            case "--data-dir":
                options.dataDirectory = try cursor.value(for: argument, accepts: "a directory path")
            case "--fast":
                options.fast = true
            case "--photos":
                let value = try cursor.value(for: argument, accepts: "on or off")
                guard value == "on" || value == "off" else { throw UsageError("--photos: expected on or off, got '" + value + "'") }
                options.photos.enabled = value == "on"
            case "--false-start":
                options.simulation.falseStart = true
            case "--athletes":
                options.athletes = Int(try cursor.integer(for: argument, in: 1...8, accepts: "the number of athletes taking turns, 1 to 8"))
            case "--voice":
                options.voiceDirectory = try cursor.value(for: argument, accepts: "the directory of the voice's WAV clips (make voice writes build/voice)")
            case "--http":
                options.http = try listenAddress(&cursor, argument)
            case "--soak":
                let hours = try cursor.decimal(for: argument, in: 0.01...24, accepts: "hours of flying laps, from 0.01 to 24")
                options.simulation.soakNanos = Int64(hours * 3600e9)
            case "--boxes":
                var race = options.race ?? RaceSimulationOptions()
                race.boxes = Int(try cursor.integer(for: argument, in: 1...4, accepts: "1 to 4 boxes (2-4 race; 1 times laps alone)"))
                options.race = race.boxes == 1 ? nil : race
            case "--distance", "--distances", "--interval-ms", "--drift-ppm", "--loss", "--link-drop", "--plain-sync", "--controller":
                var race = options.race ?? RaceSimulationOptions()
                try parseRaceOption(argument, &cursor, &race)
                options.race = race
                if argument == "--distance" || argument == "--distances" { distancesGiven = true }
            case "-h", "--help":
                throw UsageError("--help stands alone: try 'ts-gate --help'")
            default:
                throw unknown(argument, accepted: "--preset, --athletes, --seed, --runs, --fps, --speed, --gate, --start, --mode, --knock, --data-dir, --fast, --photos, --false-start, --voice, --http, --soak, "
                              + "--boxes, --distance, --distances, --interval-ms, --drift-ppm, --loss, --link-drop, --plain-sync, --controller")
            }
        }
        if let preset = options.preset { try applyPreset(preset, to: &options, startGiven: startGiven, distancesGiven: distancesGiven) }
        if options.simulation.soakNanos != nil && (options.race != nil || options.simulation.startType != .flying) {
            throw UsageError("--soak: a soak is one box timing flying laps; use it without --boxes and --start")
        }
        if options.race != nil && options.http != nil {
            throw UsageError("--http with --boxes: the coach's page serves one box; simulate it without --boxes")
        }
        if options.race != nil && options.simulation.startType == .voice {
            throw UsageError("--start voice with --boxes: the race simulator calls countdowns, not voice starts (use --start countdown)")
        }
        if options.race != nil && options.simulation.startType == .inFrame {
            throw UsageError("--start in-frame with --boxes: an in-frame start is one box's (agility drills); use it without --boxes")
        }
        if options.athletes != nil && (options.race != nil || !options.simulation.startType.isExternal || options.simulation.startType == .inFrame) {
            throw UsageError("--athletes: athletes take turns at runs from a start event on one box: use it with --start touch-release, countdown or voice (or a preset of those), without --boxes")
        }
        if options.simulation.falseStart && (options.race != nil || !options.simulation.startType.isCalled) {
            throw UsageError("--false-start: the athlete goes early on a called start of one box: use it with --start countdown or --start voice, without --boxes")
        }
        if var race = options.race {
            // --distance D: the finish at D, lap gates evenly between.
            if race.distances.count == 1 && race.boxes > 2 {
                let finish = race.distances[0]
                race.distances = (1..<race.boxes).map { finish * Double($0) / Double(race.boxes - 1) }
            }
            guard race.distances.count == race.boxes - 1 else {
                throw UsageError("--distances gives " + String(race.distances.count) + " gates after the start for "
                                 + String(race.boxes) + " boxes: expected " + String(race.boxes - 1))
            }
            options.race = race
        }
        return options
    }

    /// A preset on the simulator: its start type unless --start names one it
    /// allows; a flying preset is a race of its boxes (its clock starts at
    /// the first gate); --boxes N places its gates unless --distance(s) do.
    static func applyPreset(_ preset: Preset, to options: inout SimulateOptions, startGiven: Bool, distancesGiven: Bool) throws(UsageError) {
        if startGiven {
            guard preset.startTypes.contains(options.simulation.startType) else {
                throw UsageError("--preset " + preset.id + " with --start " + options.simulation.startType.name + ": the preset takes " + preset.startTypeNames)
            }
        } else {
            options.simulation.startType = preset.defaultStartType
        }
        // One box at the finish: the athlete runs the preset's distance from the start.
        if let metres = preset.metres { options.simulation.dashMetres = metres }
        if preset.needsStartGate && options.race == nil { options.race = RaceSimulationOptions() }
        guard var race = options.race else { return }
        guard preset.maxDevices > 1 else {
            throw UsageError("--preset " + preset.id + " with --boxes " + String(race.boxes) + ": the preset is one box's (" + preset.name + ")")
        }
        guard (preset.minDevices...preset.maxDevices).contains(race.boxes) else {
            throw UsageError("--preset " + preset.id + " with --boxes " + String(race.boxes) + ": the preset takes "
                + String(preset.minDevices) + (preset.maxDevices > preset.minDevices ? "-" + String(preset.maxDevices) : "") + " boxes")
        }
        if !distancesGiven { race.distances = Array(preset.gates(boxes: race.boxes).dropFirst()) }
        options.race = race
    }

    static func parseResults(_ cursor: inout Cursor) throws(UsageError) -> ResultsOptions {
        var options = ResultsOptions()
        while let argument = cursor.next() {
            switch argument {
            case "--data-dir":
                options.dataDirectory = try cursor.value(for: argument, accepts: "a directory path")
            case "--csv":
                options.csv = true
            case "--session":
                options.session = try cursor.value(for: argument, accepts: "a session id such as session-0001")
            case "--units":
                let text = try cursor.value(for: argument, accepts: SpeedUnit.names)
                guard let units = SpeedUnit.list(text) else { throw UsageError("--units expects " + SpeedUnit.names + ", got '" + text + "'") }
                options.speedUnits = units
            default:
                if try parseHistoryOption(argument, &cursor, into: &options.query) { continue }
                throw unknown(argument, accepted: "--data-dir, --csv, --session, --units, " + historyOptionNames)
            }
        }
        return options
    }

    /// --board FILE and --config FILE, shared by the commands that use a box's settings.
    static func parseSettingsSource(_ argument: String, _ cursor: inout Cursor,
                                    into sources: inout SettingsSources) throws(UsageError) -> Bool {
        switch argument {
        case "--board": sources.boardFile = try cursor.value(for: argument, accepts: "a board file such as board/rpi4/board.conf")
        case "--config": sources.configFile = try cursor.value(for: argument, accepts: "a configuration file (key = value lines)")
        default: return false
        }
        return true
    }

    static func parseRender(_ cursor: inout Cursor) throws(UsageError) -> RenderOptions {
        var options = RenderOptions()
        while let argument = cursor.next() {
            switch argument {
            case "--list": options.list = true
            case "--seed":
                options.seed = UInt64(try cursor.integer(for: argument, in: 0...Int64.max, accepts: "a non-negative integer"))
            case "--out":
                options.output = try cursor.value(for: argument, accepts: "a file name ending in .y4m")
            case "--raw": options.raw = true
            default:
                if argument.hasPrefix("-") { throw unknown(argument, accepted: "--list, --seed, --out, --raw") }
                guard options.clip == nil else { throw UsageError("render takes one clip name, got '\(options.clip!)' and '\(argument)'") }
                options.clip = argument
            }
        }
        if !options.list && options.clip == nil {
            throw UsageError("render needs a clip name (see 'ts-gate render --list') or --list")
        }
        return options
    }

    static func parseReplay(_ cursor: inout Cursor) throws(UsageError) -> ReplayOptions {
        var file: String?
        var options = ReplayOptions(file: "")
        while let argument = cursor.next() {
            switch argument {
            case "--gate":
                options.gatePosition = try cursor.decimal(for: argument, in: 0.1...0.9, accepts: "a fraction of the image width from 0.1 to 0.9")
            case "--exposure-ms":
                options.exposureNanos = nanos(milliseconds: try cursor.decimal(for: argument, in: 0...100, accepts: "a time in milliseconds from 0 to 100"))
            case "--readout-ms":
                options.readoutNanos = nanos(milliseconds: try cursor.decimal(for: argument, in: 0...100, accepts: "a time in milliseconds from 0 to 100"))
            case "--mode":
                options.mode = try detectionMode(&cursor, argument)
            case "--json":
                options.json = true
            case "--fps":
                options.frameRate = try frameRate(&cursor, argument)
            case "--images":
                options.imagesDirectory = try cursor.value(for: argument, accepts: "a directory for the PNG pictures")
            case "-h", "--help":
                throw UsageError("--help stands alone: try 'ts-gate --help'")
            default:
                if file == nil && !argument.hasPrefix("-") {
                    file = argument
                    continue
                }
                throw unknown(argument, accepted: "FILE, --gate, --exposure-ms, --readout-ms, --mode, --fps, --json, --images")
            }
        }
        guard let file else {
            throw UsageError("replay needs a file: a YUV4MPEG2 clip, an MJPEG AVI or a raw MJPEG stream (ts-gate replay FILE [options])")
        }
        options.file = file
        return options
    }

    /// `--fps N` or `--fps N/D` (120000/1001 for 119.88): a clip's exact rate.
    static func frameRate(_ cursor: inout Cursor, _ argument: String) throws(UsageError) -> FrameRate {
        let accepts = "frames per second as N or N/D, from 1 to 10000 (e.g. 120 or 120000/1001)"
        let text = try cursor.value(for: argument, accepts: accepts)
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        var terms: [UInt32] = []
        for part in parts {
            var value: UInt64 = 0
            for digit in part.utf8 where value <= UInt64(UInt32.max) {
                guard digit >= 0x30 && digit <= 0x39 else { value = 0; break }
                value = value * 10 + UInt64(digit - 0x30)
            }
            guard value > 0 && value <= UInt64(UInt32.max) else { break }
            terms.append(UInt32(value))
        }
        guard terms.count == parts.count && (terms.count == 1 || terms.count == 2) else {
            throw UsageError(argument + " expects " + accepts + ", got '" + text + "'")
        }
        let rate = FrameRate(numerator: terms[0], denominator: terms.count == 2 ? terms[1] : 1)
        guard rate.framesPerSecond >= 1 && rate.framesPerSecond <= 10000 else {
            throw UsageError(argument + " expects " + accepts + ", got '" + text + "'")
        }
        return rate
    }

    static func nanos(milliseconds: Double) -> Int64 { Int64((milliseconds * 1e6).rounded()) }

    static func unknown(_ argument: String, accepted: String) -> UsageError {
        if argument.hasPrefix("-") {
            return UsageError("unknown option '\(argument)' (accepted here: \(accepted))")
        }
        return UsageError("unexpected argument '\(argument)' (accepted here: \(accepted))")
    }

    struct Cursor {
        let arguments: [String]
        var index = 0

        func peek() -> String? { index < arguments.count ? arguments[index] : nil }
        mutating func skip() { index += 1 }
        mutating func next() -> String? {
            defer { index += 1 }
            return peek()
        }

        /// The value of `--option value` or `--option=value`.
        mutating func value(for option: String, accepts: String) throws(UsageError) -> String {
            guard let value = next(), !value.hasPrefix("--") else {
                throw UsageError("\(option) needs a value: \(accepts)")
            }
            return value
        }

        mutating func integer(for option: String, in range: ClosedRange<Int64>, accepts: String) throws(UsageError) -> Int64 {
            let text = try value(for: option, accepts: accepts)
            guard let n = DecimalText.parseInt(Substring(text)), range.contains(n) else {
                throw UsageError("\(option) expects \(accepts), got '\(text)'")
            }
            return n
        }

        mutating func decimal(for option: String, in range: ClosedRange<Double>, accepts: String) throws(UsageError) -> Double {
            let text = try value(for: option, accepts: accepts)
            guard let d = DecimalText.parseDouble(Substring(text)), range.contains(d) else {
                throw UsageError("\(option) expects \(accepts), got '\(text)'")
            }
            return d
        }
    }
}

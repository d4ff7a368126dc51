/// Everything the box needs to know about its hardware and how to time,
/// from a board file (board/<name>/board.conf) overridden by the user's
/// configuration file. Every key is listed in `BoxSettings.keys`, with what
/// it accepts; an unknown key or a bad value is refused at start.
public struct BoxSettings: Equatable, Sendable {
    public var board = "unnamed"
    // Camera (V4L2).
    public var cameraDevice = "/dev/video0"
    public var cameraWidth = 640
    public var cameraHeight = 480
    public var cameraFps = 120
    public var cameraFormat = PixelFormat.grey
    /// vivid's HDMI input and other DV inputs need an input index and timings.
    public var cameraInput: Int?
    public var cameraReadoutMs = 0.0
    public var cameraExposureMs = 1.0
    // IMU (I2C).
    public var imuBus = 1
    /// nil: probe the known addresses of the supported chips.
    public var imuAddress: Int?
    public var imuRateHz = 100
    public var stillSeconds = 1.0
    // GPIO (libgpiod).
    public var gpioChip = "gpiochip0"
    public var buttonLine = 17
    public var ledLine = 27
    public var buzzerLine = 22
    /// The touch pad of touch-release starts, wired like the button; nil: none fitted.
    public var touchLine: Int?
    // Speaker (ALSA kernel PCM).
    public var audioCard = 0
    public var audioDevice = 0
    // Timing.
    public var gatePosition = 0.5
    public var startType = StartType.flying
    /// Where start.type was set, for the one error that spans two keys.
    private var startTypeFile = ""
    private var startTypeLine = 0
    /// Where a Wi-Fi key was last set: the name needs the passphrase and back.
    private var wifiFile = ""
    private var wifiLine = 0
    public var detection = DetectionMode.photoFinish
    public var viewWidthMetres = 4.0
    public var dataDirectory = "/var/lib/ts-gate"
    /// SCHED_FIFO and mlockall for the loop, where permitted.
    public var realTime = true
    /// Devices whose failure makes `selftest` fail; speaker and IMU may be optional on some boards.
    public var required: [String] = ["camera", "imu", "buttons", "lights", "speaker"]
    /// The controller `run` serves the GATT service on: nil the first one
    /// the kernel lists, "hciN" that one; `bluetoothOff` none at all.
    public var bluetoothController: String?
    public var bluetoothOff = false
    // A race of boxes over BLE (seed 002): alone, the host, or a box that joins it.
    public var race = RaceMode.solo
    /// The host's gates, metres from the start: the start at 0 first, the finish last.
    public var raceGatesMetres: [Double] = [0, 30]
    /// The gate this box holds: "start", "lap" or "finish"; nil: the host
    /// the start, a joiner the finish.
    public var raceRole: String?
    /// The 6-digit session code; nil: the host draws one and logs it, a
    /// joiner joins only a host it has bonded with (the 5 s hold).
    public var raceSession: String?
    /// The SD image's debug access, read by its boot script
    /// (image/overlay/usr/lib/ts-gate/debug-access.sh); the box itself only
    /// checks the values, so a typo is refused by its line like any other.
    public var debugConsole = false
    public var debugSSH = false
    /// The SD image's Wi-Fi access point for the coach's phone, read by its
    /// boot script (image/overlay/usr/lib/ts-gate/wifi-ap.sh): on when both
    /// the name and the passphrase are given.
    public var wifiSSID: String?
    public var wifiPassphrase: String?
    public var wifiCountry: String?
    public var wifiChannel = 6
    /// Where the coach's page is served (`http`); nil: no web server.
    public var httpListen: ListenAddress?
    /// How starts are called (voice start delays, the GO sound) and whether times are spoken.
    public var voice = VoiceSettings()
    /// The voice's WAV clips (`make voice`; the SD image's /usr/share/ts-gate/voice).
    public var voiceDirectory = "/usr/share/ts-gate/voice"
    /// The test a coach picked (`preset`): it sets the start type and the
    /// race's gates unless start.type or race.gates say otherwise.
    public var preset: Preset?
    /// A selectable preset's distance (Flying Sprint: 10, 20 or 30 m).
    public var presetMetres: Double?
    /// How speeds are shown in tables and live lines (`speed.units`).
    public var speedUnits = SpeedUnit.standard
    /// Photos of every crossing (`photos`, `photos.*`).
    public var photos = PhotoSettings()
    /// Which keys were set explicitly, and where the preset was, so that a
    /// preset fills in only what the files leave out, whatever the order.
    private var startTypeGiven = false
    private var raceGatesGiven = false
    private var presetFile = ""
    private var presetLine = 0

    /// The distance the preset times, metres (its choice when selectable).
    public var presetDistanceMetres: Double? { presetMetres ?? preset?.metres }

    public init() {}

    public enum RaceMode: Equatable, Sendable {
        case solo, host, join
        public var name: String {
            switch self {
            case .solo: return "solo"
            case .host: return "host"
            case .join: return "join"
            }
        }
    }

    public enum PixelFormat: Equatable, Sendable {
        case grey, yuyv, mjpeg
        public var name: String {
            switch self {
            case .grey: return "GREY"
            case .yuyv: return "YUYV"
            case .mjpeg: return "MJPEG"
            }
        }
    }

    /// Each key, what it accepts (shown in errors and in the shipped example).
    public static let keys: [(key: String, accepts: String)] = [
        ("board", "a name"),
        ("camera.device", "a V4L2 device path such as /dev/video0"),
        ("camera.width", "an integer from 160 to 1920"),
        ("camera.height", "an integer from 120 to 1080"),
        ("camera.fps", "an integer from 30 to 1000"),
        ("camera.format", "GREY, YUYV or MJPEG"),
        ("camera.input", "an input index from 0 to 15"),
        ("camera.readout_ms", "milliseconds from 0 to 50"),
        ("camera.exposure_ms", "milliseconds from 0.05 to 30"),
        ("imu.bus", "an I2C bus number from 0 to 255"),
        ("imu.address", "auto, or an address such as 0x68 (MPU-6050 0x68/0x69, ADXL345 0x53, LIS3DH 0x18/0x19)"),
        ("imu.rate_hz", "an integer from 100 to 1000"),
        ("imu.still_s", "seconds from 0.2 to 10"),
        ("gpio.chip", "a GPIO chip name such as gpiochip0"),
        ("gpio.button", "a line offset from 0 to 511"),
        ("gpio.led", "a line offset from 0 to 511"),
        ("gpio.buzzer", "a line offset from 0 to 511"),
        ("gpio.touch", "a line offset from 0 to 511, or none (the touch pad of touch-release starts)"),
        ("audio.device", "hw:CARD,DEVICE with numbers, such as hw:0,0"),
        ("gate.position", "a fraction of the image width from 0.1 to 0.9"),
        ("start.type", StartType.names),
        ("start.go", GoSound.names + ": GO in a countdown and a voice start"),
        ("start.prestart_s", "seconds from the tap to \"On your marks\", a range from 1 to 30 such as 3-5"),
        ("start.marks_to_set_s", "seconds from \"On your marks\" to \"Set\", a range from 3 to 20 such as 8-12"),
        ("start.set_to_go_s", "seconds from \"Set\" to GO, a range from 0.5 to 5.0 such as 1.5-2.3"),
        ("announce", "on or off (say each run's or lap's time after its crossing)"),
        ("announce.units", "on or off (say \"seconds\" after the time)"),
        ("voice.dir", "the directory of the voice's WAV clips, such as /usr/share/ts-gate/voice"),
        ("preset", "a preset's id (ts-gate presets lists them): " + Preset.ids),
        ("preset.distance_m", "the distance of a preset that offers a choice, in metres (flying: 10, 20 or 30)"),
        ("speed.units", SpeedUnit.names),
        ("photos", "on or off (each crossing's photo-finish strip and frames as PNG beside the results)"),
        ("photos.frames_before", "scrub frames kept before the crossing frame, from 0 to 10"),
        ("photos.frames_after", "scrub frames kept after the crossing frame, from 0 to 10"),
        ("photos.max_mb", "megabytes the photos of every session may take on the card, from 1 to 1000000"),
        ("detection.mode", DetectionMode.names),
        ("view.width_m", "metres of lane across the image, from 0.5 to 50"),
        ("results.dir", "a directory path"),
        ("realtime", "on or off (SCHED_FIFO priority and locked memory for the loop, where permitted)"),
        ("bluetooth", "auto, off, or a controller such as hci1 (the one `run` serves the GATT service on)"),
        ("race", "solo, host (this box holds the race's plan and other boxes join it over BLE) or join (this box joins a host)"),
        ("race.gates", "2 to 4 distances in metres from the start, comma-separated, 0 first and increasing, such as 0, 30"),
        ("race.role", "start, lap or finish: the gate this box holds"),
        ("race.session", "auto (a host draws a 6-digit code and logs it; a joiner joins only a host it has bonded with) or a 6-digit code such as 482913"),
        ("required", "a comma-separated list of camera, imu, buttons, lights, speaker, bluetooth (or none)"),
        ("debug.console", "off or on (SD image: a root shell on the serial console, for a person with the board open)"),
        ("debug.ssh", "off or on (SD image: SSH as root with the keys in authorized_keys on the boot partition)"),
        ("wifi.ssid", "the access point's name, 1 to 32 bytes without '#' (SD image: the coach's phone joins it)"),
        ("wifi.passphrase", "8 to 63 printable ASCII characters without '#' (WPA2)"),
        ("wifi.country", "the country whose radio rules apply, two capital letters such as GB or US"),
        ("wifi.channel", "a 2.4 GHz channel from 1 to 13"),
        ("http", "off, or " + ListenAddress.accepts + ": serves the coach's page"),
    ]

    /// Applies `entries` (a board file, then the configuration over it).
    public mutating func apply(_ entries: [KeyValueEntry], file: String) throws(ConfigError) {
        for e in entries {
            func bad() -> ConfigError {
                let accepts = BoxSettings.keys.first { $0.key == e.key }?.accepts ?? ""
                return ConfigError(file: file, line: e.line, problem: e.key + " = " + e.value + ": expected " + accepts)
            }
            func int(_ range: ClosedRange<Int>) throws(ConfigError) -> Int {
                guard let v = DecimalText.parseInt(Substring(e.value)), range.contains(Int(v)) else { throw bad() }
                return Int(v)
            }
            func decimal(_ range: ClosedRange<Double>) throws(ConfigError) -> Double {
                guard let v = DecimalText.parseDouble(Substring(e.value)), range.contains(v) else { throw bad() }
                return v
            }
            /// "8-12" (or one value, "10"): inside `bounds`, low first.
            func range(_ bounds: ClosedRange<Double>) throws(ConfigError) -> ClosedRange<Double> {
                let parts = e.value.split(separator: "-", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count),
                      let low = DecimalText.parseDouble(KeyValueFile.trimmed(parts[0])),
                      let high = DecimalText.parseDouble(KeyValueFile.trimmed(parts[parts.count - 1])),
                      bounds.contains(low), bounds.contains(high), low <= high else { throw bad() }
                return low...high
            }
            switch e.key {
            case "board": board = e.value
            case "camera.device": guard e.value.hasPrefix("/") else { throw bad() }; cameraDevice = e.value
            case "camera.width": cameraWidth = try int(160...1920)
            case "camera.height": cameraHeight = try int(120...1080)
            case "camera.fps": cameraFps = try int(30...1000)
            case "camera.format":
                switch e.value {
                case "GREY": cameraFormat = .grey
                case "YUYV": cameraFormat = .yuyv
                case "MJPEG": cameraFormat = .mjpeg
                default: throw bad()
                }
            case "camera.input": cameraInput = try int(0...15)
            case "camera.readout_ms": cameraReadoutMs = try decimal(0...50)
            case "camera.exposure_ms": cameraExposureMs = try decimal(0.05...30)
            case "imu.bus": imuBus = try int(0...255)
            case "imu.address":
                if e.value == "auto" { imuAddress = nil; continue }
                guard e.value.hasPrefix("0x"), let v = BoxSettings.parseHex(e.value.dropFirst(2)),
                      [0x68, 0x69, 0x53, 0x18, 0x19].contains(v) else { throw bad() }
                imuAddress = v
            case "imu.rate_hz": imuRateHz = try int(100...1000)
            case "imu.still_s": stillSeconds = try decimal(0.2...10)
            case "gpio.chip": gpioChip = e.value
            case "gpio.button": buttonLine = try int(0...511)
            case "gpio.led": ledLine = try int(0...511)
            case "gpio.buzzer": buzzerLine = try int(0...511)
            case "gpio.touch":
                if e.value == "none" { touchLine = nil; continue }
                touchLine = try int(0...511)
            case "audio.device":
                guard e.value.hasPrefix("hw:") else { throw bad() }
                let parts = e.value.dropFirst(3).split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let card = DecimalText.parseInt(parts[0]), let device = DecimalText.parseInt(parts[1]),
                      (0...31).contains(card), (0...31).contains(device) else { throw bad() }
                audioCard = Int(card); audioDevice = Int(device)
            case "gate.position": gatePosition = try decimal(0.1...0.9)
            case "start.type":
                guard let type = StartType(name: e.value) else { throw bad() }
                startType = type
                startTypeFile = file
                startTypeLine = e.line
                startTypeGiven = true
            case "start.go":
                guard let go = GoSound(name: e.value) else { throw bad() }
                voice.go = go
            case "start.prestart_s": voice.preStartSeconds = try range(1...30)
            case "start.marks_to_set_s": voice.marksToSetSeconds = try range(3...20)
            case "start.set_to_go_s": voice.setToGoSeconds = try range(0.5...5)
            case "announce", "announce.units":
                guard e.value == "on" || e.value == "off" else { throw bad() }
                if e.key == "announce" { voice.announce = e.value == "on" } else { voice.announceUnits = e.value == "on" }
            case "preset":
                guard let named = Preset.named(e.value) else {
                    throw ConfigError(file: file, line: e.line, problem: "preset = " + e.value
                        + ": no such preset; expected one of " + Preset.ids + " (ts-gate presets lists them)")
                }
                preset = named
                presetFile = file; presetLine = e.line
            case "preset.distance_m": presetMetres = try decimal(1...1000)
            case "speed.units":
                guard let units = SpeedUnit.list(e.value) else { throw bad() }
                speedUnits = units
            case "photos":
                guard e.value == "on" || e.value == "off" else { throw bad() }
                photos.enabled = e.value == "on"
            case "photos.frames_before": photos.framesBefore = try int(0...PhotoSettings.maximumScrubFrames)
            case "photos.frames_after": photos.framesAfter = try int(0...PhotoSettings.maximumScrubFrames)
            case "photos.max_mb": photos.maxMegabytes = try int(1...1_000_000)
            case "voice.dir": guard e.value.hasPrefix("/") || e.value.hasPrefix(".") else { throw bad() }; voiceDirectory = e.value
            case "detection.mode":
                guard let mode = DetectionMode(name: e.value) else { throw bad() }
                detection = mode
            case "view.width_m": viewWidthMetres = try decimal(0.5...50)
            case "results.dir": dataDirectory = e.value
            case "realtime":
                switch e.value {
                case "on": realTime = true
                case "off": realTime = false
                default: throw bad()
                }
            case "bluetooth":
                switch e.value {
                case "auto": bluetoothController = nil; bluetoothOff = false
                case "off": bluetoothController = nil; bluetoothOff = true
                default:
                    guard e.value.hasPrefix("hci"), DecimalText.parseInt(Substring(e.value.dropFirst(3))) != nil else { throw bad() }
                    bluetoothController = e.value; bluetoothOff = false
                }
            case "race":
                switch e.value {
                case "solo": race = .solo
                case "host": race = .host
                case "join": race = .join
                default: throw bad()
                }
            case "race.gates":
                var metres: [Double] = []
                for item in e.value.split(separator: ",") {
                    guard let m = DecimalText.parseDouble(KeyValueFile.trimmed(item)), m >= 0, m <= 10_000,
                          metres.last.map({ m > $0 }) ?? (m == 0) else { throw bad() }
                    metres.append(m)
                }
                guard (2...4).contains(metres.count) else { throw bad() }
                raceGatesMetres = metres
                raceGatesGiven = true
            case "race.role":
                guard ["start", "lap", "finish"].contains(e.value) else { throw bad() }
                raceRole = e.value
            case "race.session":
                if e.value == "auto" { raceSession = nil; continue }
                guard e.value.utf8.count == 6, e.value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw bad() }
                raceSession = e.value
            case "required":
                if e.value == "none" { required = []; continue }
                var list: [String] = []
                for item in e.value.split(separator: ",") {
                    let name = String(KeyValueFile.trimmed(item))
                    guard ["camera", "imu", "buttons", "lights", "speaker", "bluetooth"].contains(name) else { throw bad() }
                    list.append(name)
                }
                required = list
            case "wifi.ssid":
                guard (1...32).contains(e.value.utf8.count), e.value.utf8.allSatisfy({ $0 >= 32 && $0 != 127 }) else { throw bad() }
                wifiSSID = e.value
                wifiFile = file; wifiLine = e.line
            case "wifi.passphrase":
                guard (8...63).contains(e.value.utf8.count), e.value.utf8.allSatisfy({ $0 >= 32 && $0 < 127 }) else { throw bad() }
                wifiPassphrase = e.value
                wifiFile = file; wifiLine = e.line
            case "wifi.country":
                guard e.value.utf8.count == 2, e.value.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else { throw bad() }
                wifiCountry = e.value
            case "wifi.channel": wifiChannel = try int(1...13)
            case "http":
                if e.value == "off" { httpListen = nil; continue }
                guard let address = ListenAddress(e.value) else { throw bad() }
                httpListen = address
            case "debug.console", "debug.ssh":
                guard e.value == "on" || e.value == "off" else { throw bad() }
                if e.key == "debug.console" { debugConsole = e.value == "on" } else { debugSSH = e.value == "on" }
            default:
                throw ConfigError(file: file, line: e.line, problem: "unknown key '" + e.key
                    + "' (known keys: " + BoxSettings.keys.map { $0.key }.joined(separator: ", ") + ")")
            }
        }
        applyPreset()
    }

    /// What the preset sets that no key overrides: its start type, and a
    /// host's gates (the preset's layout for its fewest boxes; race.gates
    /// adds splits). Run after each file, so either file may name it.
    private mutating func applyPreset() {
        guard let preset else { return }
        // Without a touch pad fitted, the preset's next start type: the box calls it.
        if !startTypeGiven {
            startType = preset.startTypes.first { $0 != .touchRelease || touchLine != nil } ?? preset.defaultStartType
        }
        if !raceGatesGiven, presetDistanceMetres != nil {
            raceGatesMetres = preset.gates(boxes: preset.minDevices, finish: presetDistanceMetres)
        }
    }

    /// What a preset asks of the other keys: a start type it allows, a
    /// distance among its choices, gates that end at its finish, and, on a
    /// box alone, a preset one box can time (`PresetAlone`).
    func validatePreset() throws(ConfigError) {
        guard let preset else {
            if presetMetres != nil {
                throw ConfigError(file: presetFile, line: presetLine, problem: "preset.distance_m needs preset = flying, the preset with a choice of distance")
            }
            return
        }
        func refuse(_ problem: String) -> ConfigError { ConfigError(file: presetFile, line: presetLine, problem: problem) }
        if let m = presetMetres, !preset.choices.contains(m) {
            throw refuse("preset.distance_m = " + DecimalText.fixed(m, places: 1) + ": preset " + preset.id
                + (preset.choices.isEmpty ? " has a set distance (" + preset.distanceText + ")"
                    : " offers " + preset.distanceText))
        }
        if !preset.startTypes.contains(startType) {
            throw refuse("preset = " + preset.id + " with start.type = " + startType.name + ": the preset takes " + preset.startTypeNames)
        }
        if race == .host, let finish = presetDistanceMetres, (raceGatesMetres.last! - finish).magnitude > 0.001 {
            throw refuse("preset = " + preset.id + " finishes at " + Preset.distanceText(metres: finish, yards: preset.yards)
                + " but race.gates ends at " + DecimalText.fixed(raceGatesMetres.last!, places: 2) + " m")
        }
        if race == .solo, let reason = PresetAlone.refusal(preset) { throw refuse(reason) }
    }

    /// What no single key can check, once every file is applied: a
    /// touch-release start needs a touch pad; an access point needs both
    /// its name and its passphrase.
    public func validate() throws(ConfigError) {
        if (wifiSSID == nil) != (wifiPassphrase == nil) {
            throw ConfigError(file: wifiFile, line: wifiLine, problem: wifiSSID == nil
                ? "wifi.passphrase needs wifi.ssid, the access point's name" : "wifi.ssid needs wifi.passphrase (8 to 63 characters): the box's access point is never open")
        }
        try validatePreset()
        if startType == .touchRelease && touchLine == nil {
            throw ConfigError(file: startTypeFile, line: startTypeLine,
                              problem: "start.type = touch-release needs gpio.touch, the touch pad's line (set in the board or configuration file)")
        }
    }

    static func parseHex(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 4 else { return nil }
        var v = 0
        for c in text.unicodeScalars {
            switch c {
            case "0"..."9": v = v * 16 + Int(c.value - 48)
            case "a"..."f": v = v * 16 + Int(c.value - 87)
            case "A"..."F": v = v * 16 + Int(c.value - 55)
            default: return nil
            }
        }
        return v
    }
}

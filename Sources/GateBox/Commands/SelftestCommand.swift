import GateCore
import GateDevices

/// `ts-gate selftest`: opens every device the board and configuration name,
/// asks each what it is, and prints one row per device. Exits 1 if a device
/// the settings mark as required is missing or wrong.
enum SelftestCommand {
    struct Row {
        var device: String
        var found: Bool
        var details: String
        var problem: String
    }

    static func run(_ sources: SettingsSources, console: Console) -> Int32 {
        let settings: BoxSettings
        do { settings = try sources.load() } catch {
            console.problem("ts-gate: " + error.message)
            return 2
        }
        let rows = [camera(settings), imu(settings), gpio(settings, role: "buttons"), gpio(settings, role: "lights"), speaker(settings), voice(settings), bluetooth()]
        console.line("selftest of board " + settings.board)
        let widths = [10, 6, 52]
        console.line(DecimalText.padRight("device", widths[0]) + DecimalText.padRight("found", widths[1])
            + DecimalText.padRight("details", widths[2]) + "problem")
        var failed = false
        for row in rows {
            let required = settings.required.contains(row.device)
            if !row.found && required { failed = true }
            console.line(DecimalText.padRight(row.device, widths[0]) + DecimalText.padRight(row.found ? "yes" : "NO", widths[1])
                + DecimalText.padRight(row.details, widths[2]) + (row.problem.isEmpty ? "" : row.problem + (required ? "" : " (optional)")))
        }
        console.line(failed ? "selftest FAILED: a required device is missing or wrong" : "selftest passed")
        return failed ? 1 : 0
    }

    static func camera(_ s: BoxSettings) -> Row {
        do {
            let device = try V4L2Device.open(s.cameraDevice)
            defer { device.close() }
            let cap = try device.capability()
            let formats = try device.captureFormats()
            let wanted = s.cameraFormat == .mjpeg ? "MJPG" : s.cameraFormat.name
            // Only the formats the box can read luma from (a device may list dozens).
            let usable = formats.filter { ["GREY", "YUYV", "MJPG"].contains($0) }
            var details = s.cameraDevice + " " + cap.driver + " \"" + cap.card + "\" " + (usable.isEmpty ? "no GREY, YUYV or MJPG" : usable.joined(separator: ","))
            if !cap.canCapture || !cap.canStream {
                return Row(device: "camera", found: false, details: details, problem: "not a streaming capture device")
            }
            if s.cameraFormat == .mjpeg {
                // libv4l2 decodes MJPEG, and converts from anything else it knows.
                details += formats.contains(wanted) ? "; MJPEG decoded by libv4l2" : "; no MJPG: libv4l2 converts from what it sends"
            } else if !formats.contains(wanted) {
                return Row(device: "camera", found: false, details: details, problem: "does not offer " + wanted)
            }
            device.close()
            return stream(s, details: details)
        } catch {
            return Row(device: "camera", found: false, details: s.cameraDevice, problem: error.problem)
        }
    }

    /// Streams about a second and measures the rate from the kernel's
    /// own timestamps: proves the mmap path and the time base.
    static func stream(_ s: BoxSettings, details: String) -> Row {
        var camera: V4L2Camera
        do { camera = try V4L2Camera(settings: s) } catch {
            return Row(device: "camera", found: false, details: details, problem: error.problem)
        }
        defer { camera.stop() }
        var poller = Poller(capacity: 1)
        defer { poller.release() }
        let slot = poller.register(camera.device.descriptor)
        var first: Int64?, last: Int64 = 0, frames = 0, backwards = false
        let deadline = MonotonicClock.nowNanos() + 3_000_000_000
        while frames < max(10, camera.format.fps) && MonotonicClock.nowNanos() < deadline {
            let ready: Int
            do { ready = try poller.wait(timeoutMillis: 500) } catch {
                return Row(device: "camera", found: false, details: details, problem: "poll: " + error.description)
            }
            guard ready > 0, poller.isReadable(slot) else { continue }
            do {
                while let frame = try camera.dequeue() {
                    if first == nil { first = frame.timestampNanos }
                    if frame.timestampNanos <= last { backwards = true }
                    last = frame.timestampNanos
                    frames += 1
                    try camera.requeue()
                }
            } catch {
                return Row(device: "camera", found: false, details: details, problem: error.message)
            }
        }
        guard frames >= 2, let first else {
            return Row(device: "camera", found: false, details: details, problem: "streamed " + String(frames) + " frames in 3 s")
        }
        // Frame periods between the first and last stamps, dropped frames included.
        let rate = Double(frames - 1 + camera.droppedFrames) / (Double(last - first) / 1e9)
        let measured = details + "; " + String(frames) + " frames at " + DecimalText.fixed(rate, places: 1) + " fps ("
            + camera.timestampSource + " stamps), " + String(camera.droppedFrames) + " dropped; "
            + V4L2Controls.summary(camera.controls)
        if backwards { return Row(device: "camera", found: false, details: measured, problem: "timestamps went backwards") }
        if rate < 0.8 * Double(camera.format.fps) {
            return Row(device: "camera", found: true, details: measured, problem: "delivers " + DecimalText.fixed(rate, places: 1)
                + " fps of the " + String(camera.format.fps) + " asked for")
        }
        return Row(device: "camera", found: true, details: measured, problem: "")
    }

    static func imu(_ s: BoxSettings) -> Row {
        var sensor: I2CAccelerometer
        do { sensor = try I2CAccelerometer(bus: s.imuBus, address: s.imuAddress) } catch {
            return Row(device: "imu", found: false, details: "/dev/i2c-" + String(s.imuBus), problem: error.problem)
        }
        defer { sensor.close() }
        let details = "/dev/i2c-" + String(s.imuBus) + " " + sensor.chip.name + " at " + I2CBus.hex(sensor.address)
        do {
            // One reading proves the data path; at rest it is gravity, about 1 g.
            let a = try sensor.sample()
            let magnitude = (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot()
            let row = Row(device: "imu", found: true, details: details + ", |a| = " + DecimalText.fixed(magnitude, places: 2) + " g", problem: "")
            if magnitude < 0.5 || magnitude > 1.5 {
                return Row(device: "imu", found: true, details: row.details, problem: "reads " + DecimalText.fixed(magnitude, places: 2)
                    + " g at rest, expected about 1 g: check the chip's mounting and power")
            }
            return row
        } catch {
            return Row(device: "imu", found: false, details: details, problem: error.problem)
        }
    }

    static func gpio(_ s: BoxSettings, role: String) -> Row {
        var lines = role == "buttons" ? [("button", s.buttonLine)] : [("led", s.ledLine), ("buzzer", s.buzzerLine)]
        if role == "buttons", let touch = s.touchLine { lines.append(("touch", touch)) }
        do {
            let chip = try GPIOChip(name: s.gpioChip)
            var details = s.gpioChip + " \"" + chip.label + "\""
            for (what, offset) in lines {
                let info = try chip.lineInfo(offset)
                details += " " + what + "=" + String(offset) + (info.name.isEmpty ? "" : "(" + info.name + ")")
                if let consumer = info.consumer {
                    return Row(device: role, found: false, details: details, problem: "line " + String(offset) + " is held by " + consumer)
                }
            }
            return Row(device: role, found: true, details: details, problem: "")
        } catch {
            return Row(device: role, found: false, details: s.gpioChip, problem: error.subject + ": " + error.problem)
        }
    }

    static func speaker(_ s: BoxSettings) -> Row {
        do {
            let pcm = try PCMDevice.open(card: s.audioCard, device: s.audioDevice)
            defer { pcm.close() }
            let info = try pcm.info()
            return Row(device: "speaker", found: true, details: pcm.path + " \"" + info.name + "\"", problem: "")
        } catch {
            return Row(device: "speaker", found: false, details: PCMDevice.path(card: s.audioCard, device: s.audioDevice), problem: error.problem)
        }
    }

    /// The spoken words' clips (optional: without them starts are called
    /// with beeps and times are not said).
    static func voice(_ s: BoxSettings) -> Row {
        let loaded = VoiceFiles.load(directory: s.voiceDirectory)
        let count = String(loaded.voice.clipCount) + " of " + String(Phrase.count) + " clips in " + s.voiceDirectory
        return Row(device: "voice", found: loaded.trouble.isEmpty, details: count, problem: loaded.trouble)
    }

    /// Every controller the kernel has, powered on through mgmt as the box
    /// will (LE, bondable, Secure Connections): proves the management
    /// socket may change settings, which reading them does not.
    static func bluetooth() -> Row {
        let socket: MgmtSocket
        do { socket = try MgmtSocket.open() } catch {
            return Row(device: "bluetooth", found: false, details: "mgmt", problem: error.problem)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { socket.close(); buffer.deallocate() }
        let indexes: [UInt16]
        do { indexes = try BLEStation.indexList(socket, buffer) } catch {
            return Row(device: "bluetooth", found: false, details: "mgmt", problem: error.problem)
        }
        guard !indexes.isEmpty else {
            return Row(device: "bluetooth", found: false, details: "mgmt", problem: "no hci device: the kernel sees no Bluetooth controller")
        }
        var parts: [String] = []
        for index in indexes {
            var station = BLEStation(socket: socket, controller: BluetoothController(index: index), buffer: buffer)
            do throws(GateError) {
                station.controller.readInfo()
                _ = try station.settle(timeoutMillis: 2000)
                guard let info = station.controller.info else { throw GateError(station.controller.deviceName, "no controller information") }
                guard info.supported.contains(.le) else {
                    return Row(device: "bluetooth", found: false, details: BLEStation.describe(info), problem: "no LE: the box needs a Bluetooth 4.0 (LE) controller")
                }
                if !info.current.contains(.powered) || !info.current.contains(.le) {
                    station.controller.powerOn()
                    _ = try station.settle(timeoutMillis: 5000)
                }
                guard let now = station.controller.info else { throw GateError(station.controller.deviceName, "no controller information") }
                parts.append(BLEStation.describe(now))
                if !now.current.contains(.powered) {
                    return Row(device: "bluetooth", found: false, details: parts.joined(separator: "; "), problem: now.deviceName + " did not power on")
                }
            } catch {
                parts.append("hci" + String(index))
                return Row(device: "bluetooth", found: false, details: parts.joined(separator: "; "), problem: "mgmt refused: " + error.message)
            }
        }
        return Row(device: "bluetooth", found: true, details: parts.joined(separator: "; "), problem: "")
    }
}

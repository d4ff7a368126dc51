import GateCore

/// The box on its real devices: every source is a descriptor in one poll()
/// (house rule 2): the camera's node, the IMU's sampling timerfd, the
/// button's and touch pad's line-event fds, the lights' pattern timerfd, the
/// speaker's PCM (only while it streams) and the signalfd.
/// The lights' timer is the lights' own business and never wakes the loop.
public struct LinuxPlatform: GatePlatform {
    public var camera: V4L2Camera
    public var motion: I2CAccelerometer
    public var buttons: GPIOButtons
    public var lights: GPIOLights
    public var speaker: PCMSpeaker
    /// No BLE yet (the BLE link issue): a box on Linux races alone.
    public var link = NoLink()
    private let signals: SignalDescriptor
    private let sampling: TimerDescriptor
    /// Ticks once a second while the camera is lost, to try opening it again.
    private let reopening: TimerDescriptor
    private let settings: BoxSettings
    public private(set) var cameraIsLost = false
    private var poller: Poller
    private let cameraSlot: Int, samplingSlot: Int, lightsSlot: Int, speakerSlot: Int, signalSlot: Int, reopenSlot: Int
    private var buttonSlots: [Int] = []
    /// Descriptors the loop's sources asked to watch.
    private var watched = WatchedDescriptors()
    /// Room for the GATT station (mgmt, the ATT listener and a few links)
    /// and the coach's page (its listener and connections).
    public static let watchCapacity = 10 + 1 + HTTPServerLimits.connections

    /// Opens every device the settings name; the first that fails is named.
    public init(settings: BoxSettings, signals: SignalDescriptor, voice: Voice = Voice()) throws(GateError) {
        let chip = try GPIOChip(name: settings.gpioChip)
        var controls: [(control: Control, offset: Int)] = [(.button, settings.buttonLine)]
        if let touch = settings.touchLine { controls.append((.touchPad, touch)) }
        buttons = try GPIOButtons(chip: chip, lines: controls)
        lights = try GPIOLights(chip: chip, ledOffset: settings.ledLine, buzzerOffset: settings.buzzerLine)
        speaker = try PCMSpeaker(card: settings.audioCard, device: settings.audioDevice, voice: voice)
        motion = try I2CAccelerometer(bus: settings.imuBus, address: settings.imuAddress)
        do {
            sampling = try TimerDescriptor.open()
            try sampling.schedule(firstNanos: 1_000_000_000 / Int64(settings.imuRateHz),
                                  intervalNanos: 1_000_000_000 / Int64(settings.imuRateHz))
        } catch {
            throw GateError("timerfd", error, doing: "starting the IMU sampling timer")
        }
        do { reopening = try TimerDescriptor.open() } catch {
            throw GateError("timerfd", error, doing: "creating the camera's reopen timer")
        }
        camera = try V4L2Camera(settings: settings)
        self.settings = settings
        self.signals = signals
        poller = Poller(capacity: 6 + buttons.inputs.count + LinuxPlatform.watchCapacity)
        cameraSlot = poller.register(camera.device.descriptor)
        samplingSlot = poller.register(sampling.descriptor)
        for input in buttons.inputs { buttonSlots.append(poller.register(input.descriptor)) }
        lightsSlot = poller.register(lights.timer.descriptor)
        speakerSlot = poller.registerForOutput(speaker.pcm.descriptor)
        signalSlot = poller.register(signals.descriptor)
        reopenSlot = poller.register(reopening.descriptor)
    }

    public mutating func cameraLost() {
        guard !cameraIsLost else { return }
        cameraIsLost = true
        poller.setEnabled(cameraSlot, false)
        camera.stop()
        _ = try? reopening.schedule(firstNanos: 1_000_000_000, intervalNanos: 1_000_000_000)
    }

    /// One attempt to open the lost camera with the same settings.
    private mutating func reopenCamera() -> Bool {
        guard let again = try? V4L2Camera(settings: settings) else { return false }
        camera = again
        cameraIsLost = false
        poller.replace(cameraSlot, with: camera.device.descriptor)
        _ = try? reopening.schedule(firstNanos: 0, intervalNanos: 0)
        return true
    }

    /// Stops streaming and closes what the loop does not (the lights and
    /// speaker close with their objects).
    public mutating func release() {
        if !cameraIsLost { camera.stop() }
        motion.close()
        sampling.close()
        reopening.close()
        poller.release()
    }

    public mutating func watch(_ descriptor: FileDescriptor, for owner: WatchOwner) -> Int? {
        watched.watch(descriptor, for: owner, in: &poller)
    }

    public mutating func setWatchesOutput(_ slot: Int, _ output: Bool) {
        poller.setWaitsForOutput(slot, output)
    }

    public mutating func unwatch(_ slot: Int) {
        watched.unwatch(slot, in: &poller)
    }

    public var nowNanos: Int64 { MonotonicClock.nowNanos() }
    public var wallClockMillis: Int64 { MonotonicClock.unixMillis() }
    public func truthCrossing(nearNanos: Int64) -> Int64? { nil }

    public mutating func wait() throws(GateError) -> ReadySources {
        while true {
            poller.setEnabled(speakerSlot, speaker.isStreaming)
            do {
                guard try poller.wait(timeoutMillis: -1) > 0 else { continue }
            } catch {
                throw GateError("poll", error, doing: "waiting for the devices")
            }
            var ready: ReadySources = []
            if poller.isReadable(cameraSlot) { ready.insert(.camera) }
            if poller.isReadable(samplingSlot) {
                // One sample per wake-up, however many periods passed: the filter wants now.
                do { if try sampling.expirations() > 0 { ready.insert(.motion) } } catch {
                    throw GateError("timerfd", error, doing: "reading the IMU timer")
                }
            }
            for slot in buttonSlots where poller.isReadable(slot) { ready.insert(.buttons) }
            if poller.isWritable(speakerSlot) { ready.insert(.speaker) }
            if poller.isReadable(signalSlot) { ready.insert(.signal) }
            ready.formUnion(watched.ready(in: poller))
            if poller.isReadable(lightsSlot) { try lights.advance(atNanos: nowNanos) }
            if poller.isReadable(reopenSlot) {
                _ = try? reopening.expirations()
                if cameraIsLost && reopenCamera() { ready.insert(.cameraBack) }
            }
            if !ready.isEmpty { return ready }
        }
    }

    public mutating func nextSignal() throws(GateError) -> SignalDescriptor.Received? {
        do { return try signals.next() } catch { throw GateError("signalfd", error, doing: "reading a signal") }
    }
}

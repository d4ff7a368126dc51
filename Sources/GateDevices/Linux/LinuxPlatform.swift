import GateCore

/// The box on its real devices: every source is a descriptor in one poll()
/// (house rule 2): the camera's node, the IMU's sampling timerfd, the
/// button's line-event fd, the lights' pattern timerfd and the signalfd.
/// The lights' timer is the lights' own business and never wakes the loop.
public struct LinuxPlatform: GatePlatform {
    public var camera: V4L2Camera
    public var motion: I2CAccelerometer
    public var buttons: GPIOButtons
    public var lights: GPIOLights
    public var speaker: PCMSpeaker
    private let signals: SignalDescriptor
    private let sampling: TimerDescriptor
    private var poller: Poller
    private let cameraSlot: Int, samplingSlot: Int, buttonSlot: Int, lightsSlot: Int, signalSlot: Int

    /// Opens every device the settings name; the first that fails is named.
    public init(settings: BoxSettings, signals: SignalDescriptor) throws(GateError) {
        let chip = try GPIOChip(name: settings.gpioChip)
        buttons = try GPIOButtons(chip: chip, offset: settings.buttonLine)
        lights = try GPIOLights(chip: chip, ledOffset: settings.ledLine, buzzerOffset: settings.buzzerLine)
        speaker = try PCMSpeaker(card: settings.audioCard, device: settings.audioDevice)
        motion = try I2CAccelerometer(bus: settings.imuBus, address: settings.imuAddress)
        do {
            sampling = try TimerDescriptor.open()
            try sampling.schedule(firstNanos: 1_000_000_000 / Int64(settings.imuRateHz),
                                  intervalNanos: 1_000_000_000 / Int64(settings.imuRateHz))
        } catch {
            throw GateError("timerfd", error, doing: "starting the IMU sampling timer")
        }
        camera = try V4L2Camera(settings: settings)
        self.signals = signals
        poller = Poller(capacity: 5)
        cameraSlot = poller.register(camera.device.descriptor)
        samplingSlot = poller.register(sampling.descriptor)
        buttonSlot = poller.register(buttons.descriptor)
        lightsSlot = poller.register(lights.timer.descriptor)
        signalSlot = poller.register(signals.descriptor)
    }

    /// Stops streaming and closes what the loop does not (the lights and
    /// speaker close with their objects).
    public mutating func release() {
        camera.stop()
        motion.close()
        sampling.close()
        poller.release()
    }

    public var nowNanos: Int64 { MonotonicClock.nowNanos() }
    public var wallClockMillis: Int64 { MonotonicClock.unixMillis() }
    public func truthCrossing(nearNanos: Int64) -> Int64? { nil }

    public mutating func wait() throws(GateError) -> ReadySources {
        while true {
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
            if poller.isReadable(buttonSlot) { ready.insert(.buttons) }
            if poller.isReadable(signalSlot) { ready.insert(.signal) }
            if poller.isReadable(lightsSlot) { try lights.advance(atNanos: nowNanos) }
            if !ready.isEmpty { return ready }
        }
    }

    public mutating func nextSignal() throws(GateError) -> SignalDescriptor.Received? {
        do { return try signals.next() } catch { throw GateError("signalfd", error, doing: "reading a signal") }
    }
}

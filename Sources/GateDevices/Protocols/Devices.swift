import GateCore

// The small protocols every device of the box sits behind (house rule 5).
// A Linux implementation talks to the kernel; the simulator implements the
// same protocol on a virtual clock. The loop is generic over them: no
// existentials, so the firmware compiles as Embedded Swift.

/// What a camera delivers: size, rate and the sensor's timing.
public struct FrameFormat: Equatable {
    public var width: Int
    public var height: Int
    public var fps: Int
    /// Top row to bottom row readout (rolling shutter), nanoseconds.
    public var readoutNanos: Int64
    public var exposureNanos: Int64

    public init(width: Int, height: Int, fps: Int, readoutNanos: Int64, exposureNanos: Int64) {
        self.width = width; self.height = height; self.fps = fps
        self.readoutNanos = readoutNanos; self.exposureNanos = exposureNanos
    }

    public var framePeriodNanos: Int64 { 1_000_000_000 / Int64(fps) }
}

/// A camera streaming into buffers it owns: dequeue a filled one, use it in
/// place, give it back. Nothing is copied or allocated per frame.
public protocol FrameSource {
    var format: FrameFormat { get }
    /// Frames lost so far, found from gaps in the sequence numbers.
    var droppedFrames: Int { get }
    /// The next filled buffer as a luma view stamped in the detector's time
    /// base, or nil when none is ready (EAGAIN: back to poll).
    mutating func dequeue() throws(GateError) -> LumaFrame?
    /// Returns the buffer of the last dequeued frame to the device.
    mutating func requeue() throws(GateError)
}

/// An accelerometer on the box, read when its sampling timer fires.
public protocol MotionSensor {
    mutating func sample() throws(GateError) -> AccelSample
}

/// The box's inputs: the one button (gestures) and the optional touch pad.
public enum Control: Equatable, Sendable {
    case button
    case touchPad

    public var name: String {
        switch self {
        case .button: return "button"
        case .touchPad: return "touch pad"
        }
    }
}

/// One edge of a control, stamped by the kernel.
public struct ButtonEdge: Equatable {
    public var control: Control
    public var pressed: Bool
    public var timestampNanos: Int64
    public init(control: Control, pressed: Bool, timestampNanos: Int64) {
        self.control = control; self.pressed = pressed; self.timestampNanos = timestampNanos
    }
}

public protocol ButtonInput {
    /// The next pending edge, or nil when none is pending.
    mutating func nextEdge() throws(GateError) -> ButtonEdge?
}

/// What the LED and buzzer say. Each pattern is distinct by ear and by eye.
public enum IndicatorPattern: Equatable {
    case off
    /// Slow blink: waiting for the tripod to be still.
    case stabilising
    /// Steady light: ready for a crossing.
    case armed
    /// Short flash and beep: a crossing was timed.
    case crossing
    /// Fast blink and long buzz: something needs a person.
    case error
    /// Double blink each second, two chirps at first: pairing mode (60 s).
    case pairing
    /// Three long flashes and buzzes, then back: a false start.
    case falseStart

    public var name: String {
        switch self {
        case .off: return "off"
        case .stabilising: return "stabilising"
        case .armed: return "armed"
        case .crossing: return "crossing"
        case .error: return "error"
        case .pairing: return "pairing"
        case .falseStart: return "false start"
        }
    }
}

public protocol Indicator {
    mutating func show(_ pattern: IndicatorPattern, atNanos: Int64) throws(GateError)
}

/// The speaker. Sounds stream from the loop: `service` feeds the device
/// whenever the platform reports `.speaker` ready.
public protocol SoundOutput {
    /// Plays `program` from now, in place of what plays. A program with a
    /// mark (a start's GO) is never cut short by one without: that one is
    /// skipped and counted.
    mutating func play(_ program: SoundProgram, atNanos: Int64) throws(GateError)
    /// Silences what plays (a start called off before its GO).
    mutating func stop(atNanos: Int64) throws(GateError)
    /// Where the GO instant comes from, for the start record ("pcm-status").
    var clockSource: String { get }
    /// Whether a sound is still being fed (the platform then waits for the device too).
    var isStreaming: Bool { get }
    /// Feeds the device; returns the program's mark instant (the GO) once
    /// it has left the speaker, on the monotonic clock.
    mutating func service(atNanos: Int64) throws(GateError) -> Int64?
}

/// Which sources are ready after a wait.
public struct ReadySources: OptionSet, Equatable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let camera = ReadySources(rawValue: 1 << 0)
    public static let motion = ReadySources(rawValue: 1 << 1)
    public static let buttons = ReadySources(rawValue: 1 << 2)
    public static let signal = ReadySources(rawValue: 1 << 3)
    /// The speaker has room for more of the sound it plays.
    public static let speaker = ReadySources(rawValue: 1 << 5)
    /// The camera, lost earlier, has been opened again and streams.
    public static let cameraBack = ReadySources(rawValue: 1 << 6)
    /// A simulated session has played its whole scenario.
    public static let scenarioEnd = ReadySources(rawValue: 1 << 4)
    /// A link to another box has something (`PeerLink.nextEvent`).
    public static let link = ReadySources(rawValue: 1 << 7)
    /// The race's own timer (heartbeats, clock sync pings) is due.
    public static let raceTimer = ReadySources(rawValue: 1 << 8)
    /// A descriptor a loop source asked the platform to watch (`watch`):
    /// the GATT station's mgmt socket, ATT listener or one of its links.
    public static let station = ReadySources(rawValue: 1 << 9)
    /// A descriptor the coach's page server asked to watch: its listener
    /// or one of its connections.
    public static let http = ReadySources(rawValue: 1 << 10)
}

/// Which source of the loop a watched descriptor belongs to: its readiness
/// comes back under that source's flag, so one source's traffic never
/// makes another look at its sockets.
public enum WatchOwner: Equatable, Sendable {
    case station
    case http

    public var ready: ReadySources {
        switch self {
        case .station: return .station
        case .http: return .http
        }
    }
}

/// What a source needs to put its own descriptors in the loop's one wait.
public protocol DescriptorWatcher {
    /// Adds a descriptor a source of the loop owns to the one wait, for
    /// input (its readiness comes back as `owner.ready`); nil when the
    /// platform has no room or no real descriptors.
    mutating func watch(_ descriptor: FileDescriptor, for owner: WatchOwner) -> Int?
    /// Waits on a watched slot for room to write instead of input (a reply
    /// the kernel could not take at once), or back.
    mutating func setWatchesOutput(_ slot: Int, _ output: Bool)
    /// Takes a watched descriptor out of the wait, before its owner closes it.
    mutating func unwatch(_ slot: Int)
}

/// Everything the loop drives, and the one wait that serves them all.
public protocol GatePlatform: DescriptorWatcher {
    associatedtype Camera: FrameSource
    associatedtype Motion: MotionSensor
    associatedtype Buttons: ButtonInput
    associatedtype Lights: Indicator
    associatedtype Speaker: SoundOutput
    associatedtype Link: PeerLink

    var camera: Camera { get set }
    var motion: Motion { get set }
    var buttons: Buttons { get set }
    var lights: Lights { get set }
    var speaker: Speaker { get set }
    var link: Link { get set }

    /// Blocks until at least one source is ready.
    mutating func wait() throws(GateError) -> ReadySources
    /// The same, and back by `deadlineNanos` (monotonic) when the loop has
    /// something of its own due then (the button's taps becoming a
    /// gesture); may return nothing ready. By default only `wait()`: on the
    /// box the IMU's sampling timer wakes the loop every 10 ms anyway.
    mutating func wait(deadlineNanos: Int64?) throws(GateError) -> ReadySources
    /// The camera went away (its dequeue failed with `isDeviceGone`): close
    /// it and try to open it again from time to time; `.cameraBack` says
    /// when that worked.
    mutating func cameraLost()
    /// The pending signal, once `.signal` was ready.
    mutating func nextSignal() throws(GateError) -> SignalDescriptor.Received?
    /// The platform's monotonic time (virtual in a simulation): for scheduling only.
    var nowNanos: Int64 { get }
    /// Wall-clock Unix milliseconds for records (virtual in a simulation).
    var wallClockMillis: Int64 { get }
    /// The simulator's truth for the crossing nearest `nanos`; nil on real devices.
    func truthCrossing(nearNanos: Int64) -> Int64?
    /// The simulator's truth for an athlete's first movement nearest `nanos`.
    func truthMovement(nearNanos: Int64) -> Int64?
}

extension GatePlatform {
    public mutating func wait(deadlineNanos: Int64?) throws(GateError) -> ReadySources { try wait() }
    public func truthMovement(nearNanos: Int64) -> Int64? { nil }
    public mutating func watch(_ descriptor: FileDescriptor, for owner: WatchOwner) -> Int? { nil }
    public mutating func setWatchesOutput(_ slot: Int, _ output: Bool) {}
    public mutating func unwatch(_ slot: Int) {}
    /// The GATT station's descriptors.
    public mutating func watch(_ descriptor: FileDescriptor) -> Int? { watch(descriptor, for: .station) }
}

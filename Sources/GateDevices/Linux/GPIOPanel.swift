import CGateShim

/// The button through libgpiod: both edges as line events, each stamped by
/// the kernel on CLOCK_MONOTONIC (the release that starts a touch-release
/// run is that stamp, not the time the loop read it). Wired to ground with
/// the internal pull-up, so the line is requested active-low: rising = pressed.
/// Edges within `debounceNanos` of the last accepted one are contact bounce.
public final class GPIOButtons: ButtonInput {
    public let chip: GPIOChip
    public let offset: Int
    private let line: OpaquePointer
    public let descriptor: FileDescriptor
    private var lastNanos: Int64?
    private var pressed = false
    public static let debounceNanos: Int64 = 20_000_000

    public init(chip: GPIOChip, offset: Int) throws(GateError) {
        let subject = "/dev/" + chip.name + " line " + String(offset)
        guard let line = chip.line(offset) else { throw GateError(subject, "no such line") }
        let flags = Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW | GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        guard gpiod_line_request_both_edges_events_flags(line, "ts-gate", flags) == 0 else {
            throw GateError(subject, Errno.current, doing: "requesting the button's edge events")
        }
        self.chip = chip
        self.offset = offset
        self.line = line
        descriptor = FileDescriptor(rawValue: gpiod_line_event_get_fd(line))
    }

    deinit { gpiod_line_release(line) }

    public func nextEdge() throws(GateError) -> ButtonEdge? {
        while true {
            var ready = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return nil }
            var event = gpiod_line_event()
            guard gpiod_line_event_read(line, &event) == 0 else {
                throw GateError("/dev/" + chip.name + " line " + String(offset), Errno.current, doing: "reading a button edge")
            }
            let nanos = Int64(event.ts.tv_sec) * 1_000_000_000 + Int64(event.ts.tv_nsec)
            let isPress = event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE)
            // Bounce: too soon after the last edge, or the same state again.
            if let last = lastNanos, nanos - last < GPIOButtons.debounceNanos { continue }
            if isPress == pressed { continue }
            lastNanos = nanos
            pressed = isPress
            return ButtonEdge(button: 0, pressed: isPress, timestampNanos: nanos)
        }
    }
}

/// The LED and buzzer as output lines, stepped through their patterns by
/// one timerfd (the platform polls it and calls `advance`).
public final class GPIOLights: Indicator {
    private let led: OpaquePointer
    private let buzzer: OpaquePointer
    public let timer: TimerDescriptor
    public private(set) var sequencer = IndicatorSequencer()
    private let subject: String

    public init(chip: GPIOChip, ledOffset: Int, buzzerOffset: Int) throws(GateError) {
        subject = "/dev/" + chip.name
        guard let led = chip.line(ledOffset), let buzzer = chip.line(buzzerOffset) else {
            throw GateError(subject, "no line " + String(ledOffset) + " or " + String(buzzerOffset))
        }
        guard gpiod_line_request_output(led, "ts-gate", 0) == 0 else {
            throw GateError(subject + " line " + String(ledOffset), Errno.current, doing: "requesting the LED output")
        }
        guard gpiod_line_request_output(buzzer, "ts-gate", 0) == 0 else {
            let errno = Errno.current
            gpiod_line_release(led)
            throw GateError(subject + " line " + String(buzzerOffset), errno, doing: "requesting the buzzer output")
        }
        do { timer = try TimerDescriptor.open() } catch {
            gpiod_line_release(led); gpiod_line_release(buzzer)
            throw GateError("timerfd", error, doing: "creating the LED timer")
        }
        self.led = led
        self.buzzer = buzzer
    }

    deinit {
        _ = gpiod_line_set_value(led, 0)
        _ = gpiod_line_set_value(buzzer, 0)
        gpiod_line_release(led)
        gpiod_line_release(buzzer)
        timer.close()
    }

    public func show(_ pattern: IndicatorPattern, atNanos nanos: Int64) throws(GateError) {
        sequencer.show(pattern, atNanos: nanos)
        try advance(atNanos: nanos)
    }

    /// Sets the lines for `nanos` and arms the timer for the next change.
    public func advance(atNanos nanos: Int64) throws(GateError) {
        _ = try? timer.expirations()
        let out = sequencer.output(atNanos: nanos)
        guard gpiod_line_set_value(led, out.led ? 1 : 0) == 0, gpiod_line_set_value(buzzer, out.buzzer ? 1 : 0) == 0 else {
            throw GateError(subject, Errno.current, doing: "setting the LED and buzzer")
        }
        do {
            try timer.schedule(firstNanos: out.nextChangeNanos.map { max(1, $0 - nanos) } ?? 0, intervalNanos: 0)
        } catch {
            throw GateError("timerfd", error, doing: "arming the LED timer")
        }
    }
}

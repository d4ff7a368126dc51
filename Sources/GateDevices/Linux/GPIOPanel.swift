import CGateShim
import GateCore

/// The button and the touch pad through libgpiod: both edges as line
/// events, each stamped by the kernel on CLOCK_MONOTONIC (the release that
/// starts a touch-release run is that stamp, not the time the loop read it).
/// Each is wired to ground with the internal pull-up, so its line is
/// requested active-low: rising = pressed. Each line's events go through an
/// EdgeDebouncer (20 ms window).
///
/// Errno table: EBUSY on request (another program holds the line), EINVAL
/// (the chip cannot do edge events or bias), and on read EAGAIN (nothing
/// pending: back to poll); anything else names the line.
public final class GPIOButtons: ButtonInput {
    public let chip: GPIOChip
    /// One per control, in the order given.
    public let inputs: [Input]

    public final class Input {
        public let control: Control
        public let offset: Int
        public let descriptor: FileDescriptor
        fileprivate let line: OpaquePointer
        fileprivate var debouncer = EdgeDebouncer()
        /// The second of two transitions one event released, returned next.
        fileprivate var queued: EdgeDebouncer.Transition?

        fileprivate init(control: Control, offset: Int, line: OpaquePointer) {
            self.control = control
            self.offset = offset
            self.line = line
            descriptor = FileDescriptor(rawValue: gpiod_line_event_get_fd(line))
        }
    }

    public init(chip: GPIOChip, lines: [(control: Control, offset: Int)]) throws(GateError) {
        var inputs: [Input] = []
        for (control, offset) in lines {
            let subject = "/dev/" + chip.name + " line " + String(offset) + " (" + control.name + ")"
            guard let line = chip.line(offset) else {
                for input in inputs { gpiod_line_release(input.line) }
                throw GateError(subject, "no such line")
            }
            let flags = Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW | GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
            guard gpiod_line_request_both_edges_events_flags(line, "ts-gate", flags) == 0 else {
                let errno = Errno.current
                for input in inputs { gpiod_line_release(input.line) }
                throw GateError(subject, errno, doing: "requesting the " + control.name + "'s edge events")
            }
            inputs.append(Input(control: control, offset: offset, line: line))
        }
        self.chip = chip
        self.inputs = inputs
    }

    deinit { for input in inputs { gpiod_line_release(input.line) } }

    public func nextEdge() throws(GateError) -> ButtonEdge? {
        for input in inputs {
            if let edge = try next(from: input) { return edge }
        }
        return nil
    }

    private func next(from input: Input) throws(GateError) -> ButtonEdge? {
        if let queued = input.queued {
            input.queued = nil
            return ButtonEdge(control: input.control, pressed: queued.pressed, timestampNanos: queued.nanos)
        }
        while true {
            var ready = pollfd(fd: input.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return nil }
            var event = gpiod_line_event()
            guard gpiod_line_event_read(input.line, &event) == 0 else {
                let errno = Errno.current
                if errno == .wouldBlock || errno == .interrupted { return nil }
                throw GateError("/dev/" + chip.name + " line " + String(input.offset), errno,
                                doing: "reading a " + input.control.name + " edge")
            }
            let nanos = Int64(event.ts.tv_sec) * 1_000_000_000 + Int64(event.ts.tv_nsec)
            let isPress = event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE)
            let out = input.debouncer.edge(pressed: isPress, atNanos: nanos)
            guard let first = out.first else { continue }
            input.queued = out.second
            return ButtonEdge(control: input.control, pressed: first.pressed, timestampNanos: first.nanos)
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

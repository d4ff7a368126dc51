/// Contact bounce filter for one two-state input (the button, the touch
/// pad), fed the kernel's edge events in order.
///
/// An edge away from the accepted state is taken at once, with its own
/// stamp, unless it comes within `windowNanos` of the last accepted edge:
/// then it is held back as possible bounce. It was bounce if the line comes
/// back within the window; if the line stays there a whole window, it was a
/// real change that came soon after the last (a pad touched again 8 ms after
/// it was let go), and it is reported with its own stamp when the next edge
/// shows it. Dropping it instead would leave the filter out of step with the
/// line, and the real release that follows would look like a repeat and be
/// lost too: the VM rig's touch scenario caught exactly that.
///
/// A repeated edge of the state already accepted is dropped (the kernel
/// samples the level for both-edge events, so two events can read alike).
public struct EdgeDebouncer {
    public struct Transition: Equatable, Sendable {
        public let pressed: Bool
        public let nanos: Int64

        public init(pressed: Bool, nanos: Int64) {
            self.pressed = pressed
            self.nanos = nanos
        }
    }

    /// What one edge released: nothing, one transition, or a held-back one
    /// followed by this edge's.
    public struct Output: Equatable, Sendable {
        public let first: Transition?
        public let second: Transition?

        static let none = Output(first: nil, second: nil)
    }

    public static let defaultWindowNanos: Int64 = 20_000_000
    public let windowNanos: Int64
    /// The accepted state; the line starts released.
    public private(set) var pressed = false
    private var acceptedNanos: Int64?
    /// The stamp of an edge away from `pressed` that came within the window.
    private var heldBackNanos: Int64?

    public init(windowNanos: Int64 = EdgeDebouncer.defaultWindowNanos) {
        self.windowNanos = windowNanos
    }

    public mutating func edge(pressed isPress: Bool, atNanos nanos: Int64) -> Output {
        if isPress != pressed {
            if let last = acceptedNanos, nanos - last < windowNanos {
                if heldBackNanos == nil { heldBackNanos = nanos }
                return .none
            }
            heldBackNanos = nil
            return Output(first: accept(isPress, nanos), second: nil)
        }
        guard let away = heldBackNanos else { return .none }
        heldBackNanos = nil
        if nanos - away < windowNanos { return .none }
        return Output(first: accept(!isPress, away), second: accept(isPress, nanos))
    }

    private mutating func accept(_ isPress: Bool, _ nanos: Int64) -> Transition {
        pressed = isPress
        acceptedNanos = nanos
        return Transition(pressed: isPress, nanos: nanos)
    }
}

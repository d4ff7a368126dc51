/// What a press of the box's one button means, decided at its release from
/// how long it was held (the edges' kernel timestamps, so a busy loop cannot
/// change the answer). Held times between the bands mean nothing: a person
/// who meant a tap lets go well before 1 s, and a long press is deliberate.
public struct ButtonGestures {
    public enum Gesture: Equatable, Sendable {
        /// Under `tapMaxNanos`: arm an idle box; start a countdown when armed.
        case tap
        /// `longMinNanos` up to `pairingMinNanos`: arm or disarm.
        case longPress
        /// `pairingMinNanos` or more: enter pairing mode for a second box.
        case pairingPress
    }

    public static let tapMaxNanos: Int64 = 1_000_000_000
    public static let longMinNanos: Int64 = 2_000_000_000
    public static let pairingMinNanos: Int64 = 5_000_000_000

    private var downNanos: Int64?

    public init() {}

    /// Feeds one debounced edge; returns the gesture a release completes.
    public mutating func edge(pressed: Bool, atNanos nanos: Int64) -> Gesture? {
        if pressed {
            downNanos = nanos
            return nil
        }
        guard let down = downNanos else { return nil }
        downNanos = nil
        return ButtonGestures.classify(heldNanos: nanos - down)
    }

    public static func classify(heldNanos held: Int64) -> Gesture? {
        if held < tapMaxNanos { return .tap }
        if held >= pairingMinNanos { return .pairingPress }
        if held >= longMinNanos { return .longPress }
        return nil
    }
}

/// The touch pad of a touch-release start: the athlete's hand rests on it in
/// the set position for at least `readyNanos`, and lifting it starts the
/// clock at the release edge's kernel timestamp. A shorter touch is a brush
/// of the pad, not a start.
public struct TouchPad {
    public enum Event: Equatable, Sendable {
        /// Held long enough: the release at `releaseNanos` is the start.
        case start(releaseNanos: Int64, heldNanos: Int64)
        /// Released before `readyNanos`: ignored, and said so.
        case tooShort(heldNanos: Int64)
    }

    public static let readyNanos: Int64 = 500_000_000
    private var downNanos: Int64?

    public init() {}

    /// Whether a hand is on the pad now.
    public var isTouched: Bool { downNanos != nil }

    public mutating func edge(pressed: Bool, atNanos nanos: Int64) -> Event? {
        if pressed {
            downNanos = nanos
            return nil
        }
        guard let down = downNanos else { return nil }
        downNanos = nil
        let held = nanos - down
        return held >= TouchPad.readyNanos ? .start(releaseNanos: nanos, heldNanos: held) : .tooShort(heldNanos: held)
    }
}

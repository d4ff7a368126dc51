/// Taps of the button in quick succession make one gesture: one tap, a
/// double tap, a triple tap. A sequence is over once the button has stayed
/// up `gapNanos` after its last tap; only then is the count known, so a
/// single tap acts that much later than its release (arming and calling a
/// start are not timed from the tap, so nothing measured moves).
///
/// Times are the edges' kernel stamps and the loop's monotonic now; the
/// loop asks `due` on every wake-up (the IMU's sampling timer wakes it at
/// least every 10 ms), so no timer of its own is needed.
public struct TapSequence: Equatable, Sendable {
    /// From a tap's release to the next press: longer ends the sequence. A
    /// common double-click setting; a gloved hand at a track manages it.
    public static let gapNanos: Int64 = 400_000_000

    public private(set) var count = 0
    private var lastReleaseNanos: Int64 = 0
    private var held = false
    /// After a tap acted on at once, taps pressed before this instant are
    /// the rest of that gesture and mean nothing.
    private var absorbingUntilNanos: Int64?
    private var absorbing = false

    public init() {}

    /// The button went down at `nanos`: a sequence waits while it is held.
    public mutating func pressed(atNanos nanos: Int64) {
        held = true
        absorbing = absorbingUntilNanos.map { nanos < $0 } ?? false
        if !absorbing { absorbingUntilNanos = nil }
    }

    /// The button came up without a tap (held between the gesture bands).
    public mutating func released() { held = false }

    /// A tap ended at `nanos`.
    public mutating func tap(releasedAtNanos nanos: Int64) {
        held = false
        if absorbing {
            absorbingUntilNanos = nanos + TapSequence.gapNanos
            return
        }
        count += 1
        lastReleaseNanos = nanos
    }

    /// A tap the loop acted on at once, released at `nanos` (calling off a
    /// start cannot wait): a coach's double tap then calls the start off
    /// and no more, rather than off and on again.
    public mutating func tookAtOnce(releasedAtNanos nanos: Int64) {
        cancel()
        absorbingUntilNanos = nanos + TapSequence.gapNanos
    }

    /// Forgets the taps so far (a long press came after them, or the start
    /// being called took the tap at once).
    public mutating func cancel() {
        count = 0
        held = false
    }

    /// When the taps so far become a gesture, if nothing else comes.
    public var dueNanos: Int64? { count > 0 && !held ? lastReleaseNanos + TapSequence.gapNanos : nil }

    /// The number of taps once the sequence is over at `now`; nil before.
    public mutating func due(atNanos now: Int64) -> Int? {
        guard let due = dueNanos, now >= due else { return nil }
        defer { count = 0 }
        return count
    }
}

/// What the LED and buzzer do at any instant for the pattern being shown,
/// and when that next changes: one timer drives any pattern. A crossing
/// flash is transient and falls back to the steady pattern under it.
///
///   stabilising  LED 100 ms on every second          (keep the tripod still)
///   armed        LED on                              (ready)
///   crossing     LED and buzzer 150 ms, then steady  (timed)
///   error        LED 100/100 ms, buzzer the first 0.6 s (needs a person)
///   pairing      LED twice 100 ms each second, two 50 ms chirps at first (pairing mode)
///   false start  LED and buzzer 250 ms three times, 100 ms apart, then steady
public struct IndicatorSequencer: Equatable {
    public private(set) var pattern: IndicatorPattern = .off
    /// The pattern a crossing flash returns to.
    public private(set) var steady: IndicatorPattern = .off
    private var startNanos: Int64 = 0
    private var steadyStartNanos: Int64 = 0

    public static let crossingFlashNanos: Int64 = 150_000_000
    public static let falseStartPulseNanos: Int64 = 250_000_000
    public static let falseStartPeriodNanos: Int64 = 350_000_000

    public init() {}

    public mutating func show(_ pattern: IndicatorPattern, atNanos nanos: Int64) {
        self.pattern = pattern
        startNanos = nanos
        if pattern != .crossing && pattern != .falseStart {
            steady = pattern
            steadyStartNanos = nanos
        }
    }

    public struct Output: Equatable {
        public var led: Bool
        public var buzzer: Bool
        /// When the output next changes; nil while it holds.
        public var nextChangeNanos: Int64?
    }

    public func output(atNanos nanos: Int64) -> Output {
        if pattern == .crossing {
            let end = startNanos + IndicatorSequencer.crossingFlashNanos
            if nanos < end { return Output(led: true, buzzer: true, nextChangeNanos: end) }
        }
        if pattern == .falseStart {
            let elapsed = nanos - startNanos
            let period = IndicatorSequencer.falseStartPeriodNanos, pulse = IndicatorSequencer.falseStartPulseNanos
            if elapsed < 3 * period - (period - pulse) {
                let phase = elapsed % period
                let on = phase < pulse
                return Output(led: on, buzzer: on, nextChangeNanos: nanos - phase + (on ? pulse : period))
            }
        }
        let transient = pattern == .crossing || pattern == .falseStart
        let shown = transient ? steady : pattern
        let start = transient ? steadyStartNanos : startNanos
        let elapsed = max(0, nanos - start)
        switch shown {
        case .off, .crossing, .falseStart:
            return Output(led: false, buzzer: false, nextChangeNanos: nil)
        case .armed:
            return Output(led: true, buzzer: false, nextChangeNanos: nil)
        case .stabilising:
            let phase = elapsed % 1_000_000_000
            let on = phase < 100_000_000
            return Output(led: on, buzzer: false, nextChangeNanos: nanos - phase + (on ? 100_000_000 : 1_000_000_000))
        case .error:
            let phase = elapsed % 200_000_000
            let on = phase < 100_000_000
            let buzzing = elapsed < 600_000_000
            var next = nanos - phase + (on ? 100_000_000 : 200_000_000)
            if buzzing { next = min(next, start + 600_000_000) }
            return Output(led: on, buzzer: buzzing, nextChangeNanos: next)
        case .pairing:
            let ms: Int64 = 1_000_000
            let phase = elapsed % (1000 * ms)
            let led = phase < 100 * ms || (phase >= 200 * ms && phase < 300 * ms)
            let buzzer = elapsed < 50 * ms || (elapsed >= 100 * ms && elapsed < 150 * ms)
            var next = nanos - phase + 1000 * ms
            for edge in [50 * ms, 100 * ms, 150 * ms, 200 * ms, 300 * ms] where edge > phase {
                next = nanos - phase + edge
                break
            }
            return Output(led: led, buzzer: buzzer, nextChangeNanos: next)
        }
    }
}

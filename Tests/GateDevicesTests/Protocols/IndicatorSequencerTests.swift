import Testing
@testable import GateDevices

@Suite struct IndicatorSequencerTests {
    typealias Output = IndicatorSequencer.Output
    let ms: Int64 = 1_000_000

    @Test func stabilisingBlinksOnceASecond() {
        var s = IndicatorSequencer()
        s.show(.stabilising, atNanos: 5_000 * ms)
        #expect(s.output(atNanos: 5_000 * ms) == Output(led: true, buzzer: false, nextChangeNanos: 5_100 * ms))
        #expect(s.output(atNanos: 5_100 * ms) == Output(led: false, buzzer: false, nextChangeNanos: 6_000 * ms))
        #expect(s.output(atNanos: 6_050 * ms) == Output(led: true, buzzer: false, nextChangeNanos: 6_100 * ms))
    }

    @Test func armedHoldsTheLED() {
        var s = IndicatorSequencer()
        s.show(.armed, atNanos: 0)
        #expect(s.output(atNanos: 123 * ms) == Output(led: true, buzzer: false, nextChangeNanos: nil))
    }

    @Test func aCrossingFlashesThenReturnsToTheSteadyPattern() {
        var s = IndicatorSequencer()
        s.show(.armed, atNanos: 0)
        s.show(.crossing, atNanos: 2_000 * ms)
        #expect(s.output(atNanos: 2_000 * ms) == Output(led: true, buzzer: true, nextChangeNanos: 2_150 * ms))
        #expect(s.output(atNanos: 2_150 * ms) == Output(led: true, buzzer: false, nextChangeNanos: nil))
        #expect(s.steady == .armed)
    }

    @Test func errorBlinksFastAndBuzzesAtFirst() {
        var s = IndicatorSequencer()
        s.show(.error, atNanos: 0)
        #expect(s.output(atNanos: 0) == Output(led: true, buzzer: true, nextChangeNanos: 100 * ms))
        #expect(s.output(atNanos: 150 * ms) == Output(led: false, buzzer: true, nextChangeNanos: 200 * ms))
        #expect(s.output(atNanos: 550 * ms) == Output(led: false, buzzer: true, nextChangeNanos: 600 * ms))
        #expect(s.output(atNanos: 650 * ms) == Output(led: true, buzzer: false, nextChangeNanos: 700 * ms))
    }

    @Test func offIsDark() {
        #expect(IndicatorSequencer().output(atNanos: 9) == Output(led: false, buzzer: false, nextChangeNanos: nil))
    }
}

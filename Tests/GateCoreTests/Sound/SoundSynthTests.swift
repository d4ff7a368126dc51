import Testing
@testable import GateCore

@Suite struct SoundSynthTests {
    func render(_ kind: SoundSynth.Kind, rate: Int = 48000, channels: Int = 2) -> [Int16] {
        var samples = [Int16](repeating: 0, count: rate * channels)
        let frames = samples.withUnsafeMutableBufferPointer { SoundSynth.render(kind, rate: rate, channels: channels, into: $0.baseAddress!, capacity: rate) }
        return Array(samples[0..<(frames * channels)])
    }

    @Test func eachSoundHasItsLength() {
        #expect(render(.beep).count == 4800 * 2)
        #expect(render(.gunshot, rate: 44100, channels: 1).count == 6615)
        #expect(render(.whistle).count == 14400 * 2)
    }

    @Test func theBeepIsTwoKilohertzAndStartsAndEndsSilently() {
        let mono = render(.beep, channels: 1)
        #expect(mono.first == 0 && abs(Int(mono.last!)) < 200)
        // Zero crossings over the middle 50 ms: 2 kHz gives 200.
        let middle = mono[1200..<3600]
        var crossings = 0
        for (a, b) in zip(middle, middle.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
        #expect(abs(crossings - 200) <= 2)
        #expect(mono.map { abs(Int($0)) }.max()! > 15000)
    }

    @Test func channelsCarryTheSameSampleAndTheBufferBoundsTheSound() {
        let stereo = render(.gunshot)
        for i in stride(from: 0, to: stereo.count, by: 2) { #expect(stereo[i] == stereo[i + 1]) }
        var small = [Int16](repeating: 0, count: 100)
        let frames = small.withUnsafeMutableBufferPointer { SoundSynth.render(.beep, rate: 48000, channels: 1, into: $0.baseAddress!, capacity: 100) }
        #expect(frames == 100)
    }
}

import Testing
@testable import GateCore

@Suite struct SoundProgramTests {
    @Test func theCountdownIsThreeBeepsASecondApartThenTheGunshot() {
        let p = SoundProgram.countdown(go: .tone(.gunshot), voice: Voice())
        #expect(p.cues.map(\.atNanos) == [0, 1_000_000_000, 2_000_000_000, 3_000_000_000])
        #expect(p.cues.map(\.sound) == [.tone(.beep), .tone(.beep), .tone(.beep), .tone(.gunshot)])
        #expect(p.markNanos == 3_000_000_000)
        #expect(p.endNanos == 3_000_000_000 + SoundSynth.durationNanos(.gunshot))
        #expect(SoundProgram.frame(atNanos: p.markNanos!, rate: 48000) == 144_000)
    }

    /// A spoken GO the voice has no clip for is the gunshot: a start is never silent.
    @Test func aCountdownsSpokenGoWithoutItsClipIsTheGunshot() {
        let p = SoundProgram.countdown(go: .phrase(.go), voice: Voice())
        #expect(p.cues.last?.sound == .tone(.gunshot) && p.markNanos == 3_000_000_000)
    }

    @Test func anyWindowRendersWhatTheWholeWouldHave() {
        let rate = 8000
        var voice = Voice()
        voice.add(.set, samples: (0..<4000).map { Int16(1000 + $0 % 50) }, rate: 16000)
        let bank = SoundBank(rate: rate, voice: voice)
        var p = SoundProgram.countdown(go: .tone(.gunshot), voice: voice)
        p.add(.phrase(.set), atNanos: 3_500_000_000, voice: voice)
        let total = SoundProgram.frame(atNanos: p.endNanos, rate: rate) + 100
        let whole = UnsafeMutablePointer<Int16>.allocate(capacity: total * 2)
        defer { whole.deallocate() }
        p.render(from: 0, count: total, channels: 2, bank: bank, into: whole)
        // Silence between the cues, sound inside them, both channels alike;
        // the clip resampled from 16 kHz lasts as long at 8 kHz (2000 frames).
        #expect(whole[2 * 4000] == 0)
        #expect((0..<400).contains { whole[2 * (rate + $0)] != 0 })
        #expect((0..<400).contains { whole[2 * (3 * rate + $0)] != 0 })
        let clipStart = SoundProgram.frame(atNanos: 3_500_000_000, rate: rate)
        #expect(whole[2 * clipStart] == 1000 && whole[2 * (clipStart + 1999)] != 0 && whole[2 * (clipStart + 2000)] == 0)
        #expect((0..<total).allSatisfy { whole[2 * $0] == whole[2 * $0 + 1] })
        // Chunks of an awkward size, as the ring's room gives them.
        let chunk = UnsafeMutablePointer<Int16>.allocate(capacity: 337 * 2)
        defer { chunk.deallocate() }
        var from = 0
        var same = true
        while from < total {
            let n = min(337, total - from)
            p.render(from: from, count: n, channels: 2, bank: bank, into: chunk)
            for i in 0..<(2 * n) where chunk[i] != whole[2 * from + i] { same = false }
            from += n
        }
        #expect(same)
    }
}

@Suite struct PlaybackEpochTests {
    @Test func frameZerosInstantFollowsFromTimestampDelayAndWritten() {
        var e = PlaybackEpoch(rate: 48000)
        // At 10 s, 4800 frames (100 ms) still queued of 14400 written: frame 0 played at 9.8 s.
        e.add(statusNanos: 10_000_000_000, delayFrames: 4800, writtenFrames: 14400)
        #expect(e.epochNanos == 9_800_000_000)
        #expect(e.instant(ofFrame: 144000) == 12_800_000_000)
    }

    @Test func aLaggingHardwarePointerNeverMovesTheEstimateLater() {
        // True epoch 1 s. The device's position advances in 4 ms steps
        // (jiffies), so between steps delay is too large by up to 4 ms.
        var e = PlaybackEpoch(rate: 48000)
        let truth: Int64 = 1_000_000_000
        var worstSingle: Int64 = 0
        for k in 0..<200 {
            let t = truth + 50_000_000 + Int64(k) * 1_730_000            // readings at odd phases
            let played = (t - truth) / 4_000_000 * 4_000_000 * 48000 / 1_000_000_000
            let written = Int((t - truth) * 48000 / 1_000_000_000) + 9600
            e.add(statusNanos: t, delayFrames: written - Int(played), writtenFrames: written)
            var single = PlaybackEpoch(rate: 48000)
            single.add(statusNanos: t, delayFrames: written - Int(played), writtenFrames: written)
            worstSingle = max(worstSingle, single.epochNanos! - truth)
        }
        #expect(worstSingle > 3_000_000)                                   // one reading can be 3+ ms late
        #expect(e.epochNanos! >= truth - 21_000 && e.epochNanos! - truth < 200_000)   // the minimum is not
        #expect(e.readings == 200)
    }
}

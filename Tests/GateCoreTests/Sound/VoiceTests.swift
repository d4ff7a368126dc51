import Foundation
import Testing
@testable import GateCore

/// A WAV file as a speech engine writes one.
enum TestWAV {
    static func bytes(_ samples: [Int16], rate: Int = 22050, channels: Int = 1, bits: Int = 16, format: Int = 1,
                      dataSize: Int? = nil) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        var data: [UInt8] = []
        for s in samples { data += u16(Int(UInt16(bitPattern: s))) }
        var fmt = u16(format) + u16(channels) + u32(rate) + u32(rate * channels * bits / 8) + u16(channels * bits / 8) + u16(bits)
        fmt = Array("fmt ".utf8) + u32(fmt.count) + fmt
        let chunk = Array("data".utf8) + u32(dataSize ?? data.count) + data
        return Array("RIFF".utf8) + u32(4 + fmt.count + chunk.count) + Array("WAVE".utf8) + fmt + chunk
    }

    /// A tone of `millis` between `silenceMillis` of silence each side.
    static func word(millis: Int, silenceMillis: Int = 50, rate: Int = 22050) -> [Int16] {
        let quiet = [Int16](repeating: 0, count: silenceMillis * rate / 1000)
        let tone = (0..<(millis * rate / 1000)).map { Int16(8000 * sin(Double($0) * 0.3)) }
        return quiet + tone + quiet
    }
}

@Suite struct PhraseTests {
    /// image/voice/phrases.tsv (what `make voice` speaks) and the table the
    /// firmware indexes name the same clips in the same order.
    @Test func theSpokenTableAndTheFirmwaresTableAgree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("image/voice/phrases.tsv"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        #expect(rows.allSatisfy { $0.count == 2 && !$0[1].isEmpty })
        #expect(rows.map { String($0[0]) } == Phrase.files)
    }

    @Test func numbersHaveTheirWords() {
        #expect(Phrase.number(0)?.file == "zero" && Phrase.number(19)?.file == "nineteen")
        #expect(Phrase.number(20)?.file == "twenty" && Phrase.number(90)?.file == "ninety")
        #expect(Phrase.number(21) == nil && Phrase.number(100) == nil && Phrase.number(-1) == nil)
        #expect(Phrase(file: "on-your-marks") == .onYourMarks && Phrase.onYourMarks.words == "on your marks")
    }

    func said(_ nanos: Int64) -> String? {
        var words: [Phrase] = []
        guard SpokenNumbers.seconds(nanos, into: &words) else { return nil }
        return words.map(\.words).joined(separator: " ")
    }

    @Test func timesAreSaidToTheHundredthDigitByDigit() {
        #expect(said(4_820_000_000) == "four point eight two")
        #expect(said(4_824_999_999) == "four point eight two")
        #expect(said(4_825_000_000) == "four point eight three")
        #expect(said(12_050_000_000) == "twelve point zero five")
        #expect(said(3_000_000) == "zero point zero zero")
        #expect(said(20_000_000_000) == "twenty point zero zero")
        #expect(said(47_300_000_000) == "forty seven point three zero")
        #expect(said(125_400_000_000) == "one hundred twenty five point four zero")
        #expect(said(300_010_000_000) == "three hundred point zero one")
        #expect(said(999_994_000_000) == "nine hundred ninety nine point nine nine")
        #expect(said(999_995_000_000) == nil)
    }
}

@Suite struct WAVEncodeTests {
    @Test func whatIsWrittenReadsBack() throws {
        let samples: [Int16] = [0, 1, -1, 32767, -32768, 1234]
        let wav = try WAVFile.parse(WAVFile.encode(samples, rate: 16000))
        #expect(wav.samples == samples && wav.rate == 16000)
        #expect(WAVFile.encode(samples, rate: 16000) == TestWAV.bytes(samples, rate: 16000))
    }
}

@Suite struct WAVFileTests {
    @Test func readsSixteenBitMonoAndMixesStereoDown() throws {
        let mono = try WAVFile.parse(TestWAV.bytes([0, 100, -100, 32767]))
        #expect(mono.samples == [0, 100, -100, 32767] && mono.rate == 22050)
        let stereo = try WAVFile.parse(TestWAV.bytes([100, 300, -10, -30], rate: 48000, channels: 2))
        #expect(stereo.samples == [200, -20] && stereo.rate == 48000)
    }

    /// A writer that streamed to a pipe leaves the data size at its maximum.
    @Test func takesTheSamplesThereWhenTheSizeWasNeverFilledIn() throws {
        let wav = try WAVFile.parse(TestWAV.bytes([1, 2, 3], dataSize: 0x7FFF_FFFF))
        #expect(wav.samples == [1, 2, 3])
    }

    @Test(arguments: [
        (Array("not a wave file at all".utf8), "expected a RIFF WAVE file (it starts with something else)"),
        (TestWAV.bytes([1, 2], bits: 8), "expected 16-bit PCM, mono or stereo, 8-192 kHz; found format 1, 8-bit, 1 channels, 22050 Hz"),
        (TestWAV.bytes([1, 2], format: 3), "expected 16-bit PCM, mono or stereo, 8-192 kHz; found format 3, 16-bit, 1 channels, 22050 Hz"),
        (TestWAV.bytes([]), "it holds no samples"),
        (Array(TestWAV.bytes([1, 2]).prefix(36)), "it has no data chunk"),
    ])
    func refusesWhatItCannotPlaySayingWhatItFound(bytes: [UInt8], problem: String) {
        #expect(throws: WAVFile.Problem(text: problem)) { try WAVFile.parse(bytes) }
    }
}

@Suite struct VoiceTests {
    /// The engine's silence around a word is cut: a clip's first sample is
    /// its first audible one (a spoken GO is timed from when it is heard).
    @Test func aClipIsTrimmedToWhatIsHeard() throws {
        var voice = Voice()
        let added = voice.add(.go, samples: TestWAV.word(millis: 300, silenceMillis: 100), rate: 22050)
        #expect(added)
        let clip = try #require(voice.clip(.go))
        #expect(abs(Int(clip.samples[0])) > Int(Voice.silence))
        let nanos = try #require(voice.nanos(of: .phrase(.go)))
        #expect(nanos > 295_000_000 && nanos < 325_000_000)          // 300 ms and the 20 ms fade kept
        let silent = voice.add(.set, samples: [Int16](repeating: 100, count: 1000), rate: 22050)
        #expect(!silent)
        #expect(voice.nanos(of: .phrase(.set)) == nil && voice.nanos(of: .tone(.beep)) == 100_000_000)
        #expect(voice.clipCount == 1 && !voice.isComplete)
    }
}

@Suite struct StartCallsTests {
    static func fullVoice(wordMillis: Int = 400) -> Voice {
        var voice = Voice()
        for i in 0..<Phrase.count { voice.add(Phrase(index: i), samples: TestWAV.word(millis: wordMillis), rate: 22050) }
        return voice
    }

    /// Over many draws every delay falls in its range (to the millisecond),
    /// measured from the end of one call to the start of the next, and the
    /// ranges are used from end to end.
    @Test func theVoiceStartsDelaysFallInTheirRanges() throws {
        let voice = Self.fullVoice()
        var settings = VoiceSettings()
        settings.go = .word
        var random = StartCalls.random(seed: 11)
        var lowest: Int64 = .max, highest: Int64 = 0
        for _ in 0..<500 {
            let call = StartCalls.voiceStart(settings, voice: voice, random: &random)
            let cues = call.program.cues
            #expect(cues.map(\.sound) == [.phrase(.onYourMarks), .phrase(.set), .phrase(.go)] && call.spoken)
            #expect(cues[0].atNanos == call.preStartNanos && (3_000_000_000...5_000_000_000).contains(call.preStartNanos))
            #expect(cues[1].atNanos - cues[0].endNanos == call.marksToSetNanos)
            #expect((8_000_000_000...12_000_000_000).contains(call.marksToSetNanos))
            #expect(cues[2].atNanos - cues[1].endNanos == call.setToGoNanos && call.program.markNanos == cues[2].atNanos)
            #expect((1_500_000_000...2_300_000_000).contains(call.setToGoNanos) && call.setToGoNanos % 1_000_000 == 0)
            lowest = min(lowest, call.setToGoNanos); highest = max(highest, call.setToGoNanos)
        }
        #expect(lowest < 1_550_000_000 && highest > 2_250_000_000)
    }

    @Test func theSameSeedDrawsTheSameStarts() {
        var a = StartCalls.random(seed: 3), b = StartCalls.random(seed: 3), c = StartCalls.random(seed: 4)
        let voice = Self.fullVoice()
        let first = StartCalls.voiceStart(VoiceSettings(), voice: voice, random: &a)
        #expect(first == StartCalls.voiceStart(VoiceSettings(), voice: voice, random: &b))
        #expect(first != StartCalls.voiceStart(VoiceSettings(), voice: voice, random: &c))
    }

    /// Without clips the calls are beeps and a spoken GO is the gunshot.
    @Test func withoutClipsTheCallsAreBeeps() {
        var settings = VoiceSettings()
        settings.go = .word
        var random = StartCalls.random(seed: 1)
        let call = StartCalls.voiceStart(settings, voice: Voice(), random: &random)
        #expect(!call.spoken)
        #expect(call.program.cues.map(\.sound) == [.tone(.beep), .tone(.beep), .tone(.gunshot)])
        #expect(call.program.markNanos == call.program.cues[2].atNanos)
    }

    @Test func aCrossingBeepsThenSaysItsTime() throws {
        let voice = Self.fullVoice(wordMillis: 200)
        let words = try #require(StartCalls.timeWords(lap: 3, nanos: 4_820_000_000, units: true, remark: .bestLap, voice: voice))
        #expect(words.map { $0.map(\.words) } == [["lap", "three"], ["four", "point", "eight", "two", "seconds"], ["best lap"]])
        let p = StartCalls.crossing(words: words, voice: voice)
        #expect(p.cues.first?.sound == .tone(.beep) && p.cues.first?.atNanos == 0 && p.markNanos == nil)
        #expect(p.cues[1].atNanos >= SoundSynth.durationNanos(.beep))
        // Words in order, none overlapping.
        for (a, b) in zip(p.cues.dropFirst(), p.cues.dropFirst(2)) { #expect(b.atNanos > a.endNanos) }
        #expect(p.cues.count == 1 + 2 + 5 + 1)
        // No clips, or a time beyond words: the beep alone.
        #expect(StartCalls.timeWords(lap: nil, nanos: 4_820_000_000, units: false, remark: nil, voice: Voice()) == nil)
        #expect(StartCalls.timeWords(lap: nil, nanos: 1_000_000_000_000, units: false, remark: nil, voice: voice) == nil)
        #expect(StartCalls.crossing(words: nil, voice: voice).cues.map(\.sound) == [.tone(.beep)])
    }
}

/// House rule 9: whatever bytes a clip holds, the parser answers with the
/// samples or a Problem naming what it found; it never traps.
@Suite struct WAVFileFuzzTests {
    @Test func anyBytesGiveSamplesOrAProblem() {
        var random = SplitMix64(seed: 0x5741_5645)
        let valid = TestWAV.bytes((0..<64).map { Int16($0 * 97 % 2000 - 1000) })
        var parsed = 0, refused = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                // A real file with a few bytes changed, or cut short.
                bytes = valid
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
                if random.next() % 3 == 0 { bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count)))) }
            } else {
                // A RIFF/WAVE header over noise.
                bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
                for _ in 0..<Int(random.next() % 96) { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
            }
            do throws(WAVFile.Problem) {
                let wav = try WAVFile.parse(bytes)
                #expect(!wav.samples.isEmpty && (8000...192_000).contains(wav.rate))
                parsed += 1
            } catch {
                #expect(!error.text.isEmpty)
                refused += 1
            }
        }
        #expect(parsed > 1000 && refused > 1000)
    }
}

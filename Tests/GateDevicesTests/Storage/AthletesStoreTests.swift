import Foundation
import Testing
import GateCore
@testable import GateDevices

@Suite struct AthletesStoreTests {
    @Test func noFileIsAnEmptyRosterAndAppendsAreOnDiskAtOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = AthletesStore(dataDirectory: dir.path + "/data")
        #expect(try store.read().roster.isEmpty)
        let ada = Athlete(id: "athlete-0001", name: "Ada Quick", colour: .red)
        try store.append(AthletesFile.line(ada, timestamp: 1))
        try store.append(AthletesFile.removalLine(id: "athlete-0001", timestamp: 2))
        let text = try FileDescriptor.readText(path: store.path)
        #expect(text == AthletesFile.line(ada, timestamp: 1) + "\n" + AthletesFile.removalLine(id: "athlete-0001", timestamp: 2) + "\n")
        #expect(try store.read().roster.isEmpty)
        #expect(store.path == dir.path + "/data/athletes.jsonl")
        #expect(store.nameClipPath(id: "athlete-0001") == dir.path + "/data/athletes-voice/athlete-0001.wav")
    }

    /// A power cut mid-write leaves a line without its newline: the next
    /// record starts on a line of its own instead of being glued to it.
    @Test func aRecordAfterATornLineIsNotSwallowedByIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = AthletesStore(dataDirectory: dir.path)
        let ada = Athlete(id: "athlete-0001", name: "Ada Quick", colour: .red)
        let ben = Athlete(id: "athlete-0002", name: "Ben Swift", colour: .blue)
        let torn = String(AthletesFile.line(ben, timestamp: 2).prefix(25))
        try (AthletesFile.line(ada, timestamp: 1) + "\n" + torn).write(toFile: store.path, atomically: false, encoding: .utf8)
        let before = try store.read()
        #expect(before.roster.athletes.map(\.name) == ["Ada Quick"] && before.warnings.count == 1)
        try store.append(AthletesFile.line(ben, timestamp: 3))
        let after = try store.read()
        #expect(after.roster.athletes.map(\.name) == ["Ada Quick", "Ben Swift"])
        #expect(after.warnings.count == 1 && after.warnings[0].contains("line 2") && after.warnings[0].contains("line skipped"),
                "the torn line is now a damaged line of its own: \(after.warnings)")
        #expect(try FileDescriptor.readText(path: store.path).hasPrefix(AthletesFile.line(ada, timestamp: 1) + "\n" + torn + "\n"),
                "what was there is never rewritten")
    }

    @Test func theBestsComeFromEverySessionsResults() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let results = ResultsStore(dataDirectory: dir.path)
        for (i, ms) in [5300.0, 5100.0].enumerated() {
            let log = try results.createSession()
            var header = SessionRecord(sessionId: log.sessionId, deviceId: "d", mode: "solo", startType: "touchRelease", detection: "photo-finish",
                                       fps: 120, width: 320, height: 240, gatePosition: 0.5, viewWidthMetres: 4, timestamp: 0,
                                       simulated: false, seed: nil)
            header.preset = "30m"
            header.distanceMetres = 30
            try log.append(header.jsonLine())
            var c = CrossingRecord(sessionId: log.sessionId, runId: "run-001", lap: 1, role: "solo", crossingTimeNanos: 0, frameIndex: 0,
                                   interpolationOffsetMs: 0, uncertaintyMs: 0.4, occupancyAtTrigger: 0.5, direction: .leftToRight,
                                   startTimeNanos: 0, elapsedMs: ms, splitTimeMs: ms, totalUncertaintyMs: 0.4, speedMps: 8,
                                   droppedFrames: 0, stable: true, timestamp: Int64(i + 1), truthCrossingTimeNanos: nil)
            c.athleteId = "athlete-0001"
            try log.append(c.jsonLine())
            log.close()
        }
        let (book, warnings) = AthletesStore(dataDirectory: dir.path).bests(season: AthleteRoster())
        #expect(warnings.isEmpty)
        #expect(book.entry(athleteId: "athlete-0001", key: "touchRelease_30m")?.runs.map(\.ms) == [5300, 5100])
    }

    /// Athletes' names are spoken in the start calls' voice: the settings
    /// here and in image/voice/make-voice.sh must not drift apart.
    @Test func nameClipsUseTheVoiceOfTheStartCalls() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("image/voice/make-voice.sh"), encoding: .utf8)
        #expect(script.contains("\nVOICE=" + NameClips.voice + "\n"))
        #expect(script.contains("\nSPEED=" + NameClips.speed + "\n"))
        #expect(script.contains("\nPITCH=" + NameClips.pitch + "\n"))
    }

    @Test func aNameClipIsSpokenWhenEspeakIsThereAndSaidMissingWhenNot() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/athletes-voice/athlete-0001.wav"
        switch NameClips.make("Ada Quick", path: path) {
        case .made(let made):
            #expect(made == path)
            let wav = try WAVFile.parse(try FileDescriptor.readBytes(path: path))
            #expect(wav.samples.count > wav.rate / 4, "a name takes a while to say")
            #expect(!FileManager.default.fileExists(atPath: path + ".part"))
        case .noEngine:
            #expect(!FileManager.default.fileExists(atPath: path))
        case .failed(let why):
            Issue.record("espeak-ng failed: \(why)")
        }
    }
}

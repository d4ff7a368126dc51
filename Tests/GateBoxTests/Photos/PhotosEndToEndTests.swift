import Foundation
import Testing
import GateCore
import GateDevices
import GateSim
@testable import GateBox

/// Photos of every crossing, from whole simulated sessions: the files the
/// report reads exist for each crossing and are PNGs of the right size;
/// the cap stops photos, once and said, while timing goes on.
@Suite struct PhotosEndToEndTests {
    /// The PNG's signature, its IHDR (checked by zlib's crc32) and its size;
    /// IEND last.
    static func pngSize(_ path: String) throws -> (width: Int, height: Int) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == PNG.signature, "\(path): signature")
        try #require(bytes.count > 33 + 12)
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR", "\(path): IHDR first")
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        #expect(u32(8) == 13 && UInt32(u32(29)) == ZlibForTests.crc32(Array(bytes[12..<29])), "\(path): IHDR CRC")
        #expect(bytes[24] == 8 && bytes[25] == 0, "\(path): 8-bit grey")
        #expect(String(decoding: bytes[(bytes.count - 8)..<(bytes.count - 4)], as: UTF8.self) == "IEND", "\(path): IEND last")
        return (u32(16), u32(20))
    }

    @Test(arguments: [(120, 2), (60, 3)])
    func theSimulatorWritesEveryCrossingsPhotos(fps: Int, seed: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sink = try FileDescriptor.open(dir.path + "/console.txt", [.writeOnly, .create, .truncate])
        defer { sink.close() }
        let status = TSGate.main(arguments: ["--simulate", "--fast", "--seed", String(seed), "--runs", "3", "--fps", String(fps),
                                             "--data-dir", dir.path], console: Console(output: sink, errors: sink))
        #expect(status == 0)
        let session = dir.path + "/session-0001"
        let parsed = ResultsReader.parse(try String(contentsOfFile: session + "/results.jsonl", encoding: .utf8))
        guard case .session(let header)? = parsed.records.first else { Issue.record("no session record"); return }
        let crossings = parsed.records.compactMap { record -> CrossingRecord? in
            if case .crossing(let c) = record { return c } else { return nil }
        }
        #expect(crossings.count == 4)
        let scale = CrossingPictures.scale(forWidth: header.width)
        var expected: Set<String> = []
        for c in crossings {
            for offset in [0, -2, -1, 1, 2] {
                let name = PhotoNames.scrub(runId: c.runId, lap: c.lap, offset: offset)
                expected.insert(name)
                let size = try Self.pngSize(session + "/photos/" + name)
                #expect(size.width == header.width * scale && size.height == header.height * scale, "\(name)")
            }
            let strip = PhotoNames.strip(runId: c.runId, lap: c.lap)
            expected.insert(strip)
            let size = try Self.pngSize(session + "/photos/" + strip)
            #expect(size.height == header.height * scale && size.width > header.width * scale / 2, "\(strip)")
        }
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: session + "/photos"))
        #expect(written == expected)
        let console = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(console.contains("photos: 4 crossings, 24 files"))
    }

    @Test func photosOffWritesNone() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sink = try FileDescriptor.open(dir.path + "/console.txt", [.writeOnly, .create, .truncate])
        defer { sink.close() }
        let status = TSGate.main(arguments: ["--simulate", "--fast", "--runs", "1", "--photos", "off", "--data-dir", dir.path],
                                 console: Console(output: sink, errors: sink))
        #expect(status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/session-0001/photos"))
    }

    /// A session with `photos.max_mb = 1`: a 640x480 picture is admitted
    /// only while up to 309 KB more (its largest) fits, so photos stop
    /// before the session's 18 are written. Every crossing is still timed
    /// and recorded; the stop is said once, as a warning (journal priority 4).
    @Test func theCapStopsPhotosOnceAndTimingGoesOn() throws {
        let (loop, text, photos) = try Self.session(maxMegabytes: 1, earlierPhotoBytes: 0)
        #expect(loop.records.count == 3)
        #expect(photos.count >= 6 && photos.count < 18, "\(photos.count) photos")
        #expect(photos.reduce(0) { $0 + $1.bytes } <= 1 << 20)
        let stops = text.components(separatedBy: "\n").filter { $0.contains("photos: the cap of 1 MB (photos.max_mb) is reached") }
        #expect(stops.count == 1 && stops.allSatisfy { $0.hasPrefix("<4>") })
    }

    /// Photos of earlier sessions count against the cap.
    @Test func earlierSessionsPhotosCount() throws {
        let (loop, text, photos) = try Self.session(maxMegabytes: 1, earlierPhotoBytes: 900_000)
        #expect(loop.records.count == 3)
        #expect(photos.isEmpty)
        #expect(loop.photoStats?.files == 0)
        #expect(text.contains("photos: the cap of 1 MB (photos.max_mb) is reached"))
    }

    static func session(maxMegabytes: Int, earlierPhotoBytes: Int) throws
        -> (loop: BoxLoop<SimulatedPlatform>, console: String, photos: [(name: String, bytes: Int)]) {
        var options = SimulationOptions()
        options.seed = 4; options.runs = 2; options.fps = 120
        let scenario = Scenario(options: options)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        if earlierPhotoBytes > 0 {
            try FileManager.default.createDirectory(atPath: dir.path + "/session-0001/photos", withIntermediateDirectories: true)
            try Data(count: earlierPhotoBytes).write(to: URL(fileURLWithPath: dir.path + "/session-0001/photos/run-001-1-frame.png"))
        }
        var detector = DetectorSettings()
        detector.gatePosition = options.gatePosition
        var configuration = BoxConfiguration(detector: detector, viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        configuration.photos = PhotoSettings()
        configuration.photos?.maxMegabytes = maxMegabytes
        var (loop, log, sink) = try BoxLoopTests.loop(scenario, configuration, in: dir, journal: true)
        defer { loop.platform.release(); log.close(); sink.close() }
        #expect(try loop.run() == .completed)
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        let folder = log.directory + "/photos"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let photos = names.map { name in
            (name: name, bytes: ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.size] as? Int) ?? 0)
        }
        return (loop, text, photos)
    }
}

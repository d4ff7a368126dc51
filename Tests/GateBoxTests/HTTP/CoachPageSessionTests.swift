#if canImport(Glibc)
import Glibc
import Testing
import GateCore
import GateDevices
import GateProtocol
import GateSim
@testable import GateBox

/// A simulated session with the coach's page on loopback: a client that
/// opened the event stream before the first crossing hears every record
/// the box wrote, in order, with the state changes between them.
@Suite struct CoachPageSessionTests {
    @Test func theStreamCarriesEveryRecordOfTheSession() throws {
        var options = SimulationOptions()
        options.seed = 11; options.runs = 3; options.fps = 120
        let scenario = Scenario(options: options)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var detector = DetectorSettings()
        detector.gatePosition = options.gatePosition
        let configuration = BoxConfiguration(detector: detector, viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        var (loop, log, sink) = try BoxLoopTests.loop(scenario, configuration, in: dir)
        defer { loop.platform.release(); log.close(); sink.close() }
        try loop.startHTTP(ListenAddress(octets: (127, 0, 0, 1), port: 0), pinBits: 4821)
        let port = try #require(loop.httpAddress).port

        // Connected and asked before the loop runs: the kernel queues both.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { _ = close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = UInt32(0x0100007F)
        let connected = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let ask = Array("GET /events HTTP/1.1\r\nHost: box\r\n\r\n".utf8)
        try #require(ask.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } == ask.count)

        #expect(try loop.run() == .completed)

        // The session closed the server after flushing: read to the end.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"))
        let runs = text.components(separatedBy: "event: run\ndata: ").dropFirst().map { String($0.prefix { $0 != "\n" }) }
        #expect(runs == loop.records.map { $0.jsonLine() })
        #expect(runs.count == options.runs + 1, "the crossing that started the clock and each lap")
        #expect(text.contains("event: state\ndata: \"running\"\n\n"))
        #expect(text.contains("event: line\ndata: {\"text\":\"lap 1 "))
    }

    /// The PIN is logged when the page starts and when four taps ask for
    /// it, and never reaches the page, which everyone on the network reads.
    @Test func fourTapsSayThePINWhichThePageNeverShows() throws {
        var options = SimulationOptions()
        options.seed = 3; options.runs = 1
        let scenario = Scenario(options: options)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let configuration = BoxConfiguration(detector: DetectorSettings(), viewWidthMetres: options.viewWidthMetres,
                                             deviceId: "test", simulated: true, seed: options.seed)
        var (loop, log, sink) = try BoxLoopTests.loop(scenario, configuration, in: dir)
        defer { loop.platform.release(); log.close(); sink.close() }
        try loop.startHTTP(ListenAddress(octets: (127, 0, 0, 1), port: 0), pinBits: 14821)
        try loop.begin()
        #expect(try loop.handle(taps: 4) == nil)
        let text = try String(contentsOfFile: dir.path + "/console.txt", encoding: .utf8)
        #expect(text.components(separatedBy: "coach's page: control PIN 4821").count == 3)
        let feed = try #require(loop.coachFeed)
        #expect(!feed.snapshot().contains("4821"))
        #expect(!feed.takePending().contains { String(decoding: $0, as: UTF8.self).contains("4821") })
        try loop.finish(.completed)
    }
}
#endif

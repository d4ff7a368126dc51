#if canImport(Glibc)
import Glibc
import Testing
import GateCore
import GateDevices
import GateProtocol
@testable import GateBox

/// The server over real stream sockets (socketpairs, and one TCP listener
/// on loopback): raw request bytes in, raw response bytes out, as a
/// browser and a hostile client would send them.
@Suite struct HTTPServerTests {
    /// Records what the server asked the loop's wait to do.
    struct Watcher: DescriptorWatcher {
        var watched: [Int32: Bool] = [:]
        var next = 0
        var slots: [Int: Int32] = [:]
        mutating func watch(_ descriptor: FileDescriptor, for owner: WatchOwner) -> Int? {
            next += 1
            slots[next] = descriptor.rawValue
            watched[descriptor.rawValue] = false
            return next
        }
        mutating func setWatchesOutput(_ slot: Int, _ output: Bool) { watched[slots[slot]!] = output }
        mutating func unwatch(_ slot: Int) { watched[slots[slot]!] = nil }
    }

    /// A client's end of a socketpair whose other end the server adopted.
    struct Client {
        let fd: Int32
        func send(_ text: String) {
            let bytes = Array(text.utf8)
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            precondition(n == bytes.count)
        }
        /// Everything waiting now; "" when nothing; nil at end of stream.
        func receive() -> String? {
            var text: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 { text += buffer[0..<n]; continue }
                if n == 0 && text.isEmpty { return nil }
                return String(decoding: text, as: UTF8.self)
            }
        }
        func close() { _ = Glibc.close(fd) }
    }

    static func pair() -> (server: FileDescriptor, client: Client) {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0)
        return (FileDescriptor(rawValue: fds[0]), Client(fd: fds[1]))
    }

    /// Answers every path with its own name, and /events with a stream.
    static func echo(_ request: HTTPRequest) -> HTTPReply {
        if request.path == "/events" { return .stream(first: ServerSentEvents.event("hello", data: "{}")) }
        return .response(HTTPResponse(.ok, text: request.method.name + " " + request.path))
    }

    @Test func answersPipelinedRequestsInOrderAndKeepsTheConnection() throws {
        var watcher = Watcher()
        var server = HTTPServer(listener: nil)
        let (end, client) = Self.pair()
        server.adopt(end, now: 0, &watcher)
        client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\n\r\nHEAD /c HTTP/1.1\r\n\r\n")
        server.service(now: 1, &watcher, respond: Self.echo)
        let text = try #require(client.receive())
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
        let first = try #require(text.range(of: "GET /a")), second = try #require(text.range(of: "GET /b"))
        #expect(first.lowerBound < second.lowerBound)
        #expect(!text.contains("HEAD /c"), "a HEAD gets the head alone")
        #expect(server.openConnections == 1)
        #expect(server.served == 3)
        server.close(&watcher)
        client.close()
    }

    @Test func aRequestInPiecesIsAnsweredWhenWhole() throws {
        var watcher = Watcher()
        var server = HTTPServer(listener: nil)
        let (end, client) = Self.pair()
        server.adopt(end, now: 0, &watcher)
        client.send("GET /slow HTT")
        server.service(now: 1, &watcher, respond: Self.echo)
        #expect(client.receive() == "")
        client.send("P/1.1\r\nConnection: close\r\n\r\n")
        server.service(now: 2, &watcher, respond: Self.echo)
        let text = try #require(client.receive())
        #expect(text.hasPrefix("HTTP/1.1 200 OK") && text.hasSuffix("GET /slow") && text.contains("Connection: close"))
        #expect(server.openConnections == 0, "Connection: close is honoured")
        #expect(client.receive() == nil)
        server.close(&watcher)
        client.close()
    }

    @Test func aBadRequestGetsItsStatusAndTheConnectionCloses() throws {
        var watcher = Watcher()
        var server = HTTPServer(listener: nil)
        let (end, client) = Self.pair()
        server.adopt(end, now: 0, &watcher)
        client.send("GET / HTTP/1.1\r\n" + String(repeating: "X-Junk: 0123456789\r\n", count: 600))
        for t in 1...4 { server.service(now: Int64(t), &watcher, respond: Self.echo) }
        let text = try #require(client.receive())
        #expect(text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(text.hasSuffix("the request line and headers exceed 8192 bytes\n"))
        #expect(server.openConnections == 0)
        #expect(server.refused == 1)
        #expect(watcher.watched.isEmpty, "its descriptor left the wait")
        server.close(&watcher)
        client.close()
    }

    @Test func streamsGetBroadcastsAndPlainConnectionsDoNot() throws {
        var watcher = Watcher()
        var server = HTTPServer(listener: nil)
        let (a, stream) = Self.pair(), (b, plain) = Self.pair()
        server.adopt(a, now: 0, &watcher)
        server.adopt(b, now: 0, &watcher)
        stream.send("GET /events HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n")
        plain.send("GET /x HTTP/1.1\r\n\r\n")
        server.service(now: 1, &watcher, respond: Self.echo)
        let opened = try #require(stream.receive())
        #expect(opened.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"))
        #expect(opened.hasSuffix("retry: 2000\n\nevent: hello\ndata: {}\n\n"))
        _ = plain.receive()
        #expect(server.streams == 1)
        server.broadcast(ServerSentEvents.event("run", data: "{\"lap\":1}"), &watcher)
        #expect(stream.receive() == "event: run\ndata: {\"lap\":1}\n\n")
        #expect(plain.receive() == "")
        // The stream's client leaves: its connection goes at the next turn.
        stream.close()
        server.service(now: 2, &watcher, respond: Self.echo)
        #expect(server.streams == 0)
        #expect(server.openConnections == 1)
        server.close(&watcher)
        plain.close()
    }

    @Test func aStreamThatStopsReadingIsDroppedNotBuffered() throws {
        var watcher = Watcher()
        var server = HTTPServer(listener: nil)
        let (end, sleeper) = Self.pair()
        server.adopt(end, now: 0, &watcher)
        sleeper.send("GET /events HTTP/1.1\r\n\r\n")
        server.service(now: 1, &watcher, respond: Self.echo)
        let event = ServerSentEvents.event("run", data: String(repeating: "x", count: 4000))
        var rounds = 0
        var waitedForRoom = false
        while server.streams == 1 && rounds < 1000 {
            server.broadcast(event, &watcher)
            rounds += 1
            waitedForRoom = waitedForRoom || watcher.watched[end.rawValue] == true
        }
        #expect(waitedForRoom, "waited for room to write before giving up")
        #expect(server.streams == 0, "dropped once its backlog passed the bound")
        // The kernel's buffer plus the server's bound, in 4 kB events.
        #expect(rounds > HTTPServer.streamBacklogBytes / 4096 && rounds < 1000)
        server.close(&watcher)
        sleeper.close()
    }

    @Test func aFullTableGivesAQuietClientsPlaceToANewOneAndNeverABusyOnes() throws {
        let second: Int64 = 1_000_000_000
        var watcher = Watcher()
        var server = HTTPServer(listener: nil, capacity: 2)
        let (a, quiet) = Self.pair(), (b, busy) = Self.pair(), (c, fresh) = Self.pair(), (d, refusedEnd) = Self.pair()
        server.adopt(a, now: 0, &watcher)
        server.adopt(b, now: second / 2, &watcher)
        busy.send("GET /b HT")          // a request under way
        server.service(now: second, &watcher, respond: Self.echo)
        #expect(server.adopt(c, now: 2 * second, &watcher), "the client quiet 2 s between requests made room")
        #expect(quiet.receive() == nil, "and was closed")
        #expect(!server.adopt(d, now: 2 * second, &watcher), "a request under way and a new client keep their places")
        d.close()
        busy.send("TP/1.1\r\n\r\n")
        fresh.send("GET /c HTTP/1.1\r\n\r\n")
        server.service(now: 2 * second + 1, &watcher, respond: Self.echo)
        #expect(busy.receive()?.hasSuffix("GET /b") == true)
        #expect(fresh.receive()?.hasSuffix("GET /c") == true)
        // Quiet past the idle limit between requests: closed at the next tick.
        server.tick(now: 3 * second + HTTPServer.idleNanos, &watcher)
        #expect(server.openConnections == 0)
        server.close(&watcher)
        for client in [quiet, busy, fresh, refusedEnd] { client.close() }
    }

    @Test func aSlowlorisLosesItsPlaceOnceItsRequestStalls() throws {
        let second: Int64 = 1_000_000_000
        var watcher = Watcher()
        var server = HTTPServer(listener: nil, capacity: 1)
        let (a, slow) = Self.pair(), (b, coach) = Self.pair()
        server.adopt(a, now: 0, &watcher)
        for t in 0..<4 {   // a byte a second: never quiet, never whole
            slow.send("G")
            server.service(now: Int64(t) * second, &watcher, respond: Self.echo)
        }
        #expect(!server.adopt(b, now: 4 * second, &watcher))
        #expect(server.adopt(b, now: HTTPServer.stalledNanos + 1, &watcher), "stalled 5 s: its place goes to the coach")
        #expect(slow.receive() == nil)
        server.close(&watcher)
        slow.close(); coach.close()
    }

    @Test func streamsLeaveTwoPlacesForPages() throws {
        var watcher = Watcher()
        var server = HTTPServer(listener: nil, capacity: 4)
        var clients: [Client] = []
        for t in 0..<4 {
            let (end, client) = Self.pair()
            server.adopt(end, now: Int64(t), &watcher)
            client.send("GET /events HTTP/1.1\r\n\r\n")
            server.service(now: Int64(t), &watcher, respond: Self.echo)
            clients.append(client)
        }
        #expect(server.streams == 2, "the oldest streams went to keep two places")
        #expect(clients[0].receive()?.isEmpty == false && clients[0].receive() == nil)
        server.close(&watcher)
        for client in clients { client.close() }
    }

    @Test func aFileIsServedWholeAndAMissingOneIs404() throws {
        let path = "/tmp/ts-gate-http-file-\(getpid()).png"
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47] + Array(repeating: 7, count: 100_000)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        _ = close(fd)
        defer { unlink(path) }
        var watcher = Watcher()
        var server = HTTPServer(listener: nil)
        let (end, client) = Self.pair()
        server.adopt(end, now: 0, &watcher)
        client.send("GET /a.png HTTP/1.1\r\n\r\nGET /gone.png HTTP/1.1\r\n\r\n")
        var answer: [UInt8] = []
        for t in 1...50 {
            server.service(now: Int64(t), &watcher) { request in
                .file(path: request.path == "/a.png" ? path : path + ".missing", contentType: "image/png")
            }
            answer += Array((client.receive() ?? "").utf8)
        }
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100004\r\n"))
        #expect(text.contains("HTTP/1.1 404 Not Found"))
        server.close(&watcher)
        client.close()
    }

    @Test func aTCPClientOnLoopbackIsAcceptedAndServed() throws {
        var watcher = Watcher()
        let listener = try TCPListener.listen(ListenAddress(octets: (127, 0, 0, 1), port: 0))
        #expect(listener.address.port != 0)
        var server = HTTPServer(listener: listener)
        server.start(&watcher)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = listener.address.port.bigEndian
        a.sin_addr.s_addr = UInt32(0x0100007F)
        let connected = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let client = Client(fd: fd)
        client.send("GET /tcp HTTP/1.1\r\n\r\n")
        var text = ""
        for t in 1...200 where !text.hasSuffix("GET /tcp") {
            server.service(now: Int64(t), &watcher, respond: Self.echo)
            text += client.receive() ?? ""
            usleep(1000)
        }
        #expect(text.hasPrefix("HTTP/1.1 200 OK") && text.hasSuffix("GET /tcp"))
        #expect(server.openConnections == 1)
        // A second listener on the same port is refused with the address named.
        #expect(throws: GateError.self) { _ = try TCPListener.listen(listener.address) }
        server.close(&watcher)
        client.close()
    }
}
#endif

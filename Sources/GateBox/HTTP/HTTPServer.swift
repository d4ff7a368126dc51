import GateCore
import GateDevices
import GateProtocol

/// What the pages answer one request with.
enum HTTPReply {
    case response(HTTPResponse)
    /// A Server-Sent Events stream: its first events (after the head); the
    /// later ones come by `broadcast`.
    case stream(first: [UInt8])
    /// A file the box wrote (a crossing's photo), read when asked: small,
    /// and just written, so the page cache holds it.
    case file(path: String, contentType: String)
}

/// One client: what it sent that is not yet a whole request, and what is
/// queued for it that the kernel has not taken yet.
struct HTTPConnection {
    let descriptor: FileDescriptor
    let slot: Int?
    var inbound: [UInt8] = []
    var outbound: [UInt8] = []
    var sent = 0
    /// An event stream: it gets every broadcast and sends nothing.
    var streaming = false
    var closeWhenSent = false
    var waitsForOutput = false
    var lastActivityNanos: Int64
    /// When the first byte of the request being read came.
    var requestStartedNanos: Int64 = 0

    var pending: Int { outbound.count - sent }
}

/// The coach's page server (issue 52): a listener and a fixed table of
/// connections, every descriptor in the loop's one wait and none ever
/// blocking it. A slow or hostile client costs at most its share of the
/// table and of `limits`: a connection quiet between requests, or one
/// whose request has taken too long to arrive, makes room for a new
/// client; event streams may hold all but two places, so a page can always
/// load. When no place can be made the listener leaves the wait (clients
/// queue in the kernel's backlog) until one frees, so a full table never
/// makes the loop spin.
struct HTTPServer {
    let listener: TCPListener?
    private var listenerSlot: Int?
    private var listenerPaused = false
    private(set) var connections: [HTTPConnection?]
    let limits: HTTPLimits
    /// A client that sent nothing for this long between requests is closed.
    static let idleNanos: Int64 = 30_000_000_000
    /// Quiet this long between requests, a connection gives its place to a new client.
    static let yieldNanos: Int64 = 1_000_000_000
    /// A request not whole after this long (a slowloris) is closed when room is needed, and always after `idleNanos`.
    static let stalledNanos: Int64 = 5_000_000_000
    /// An event stream this far behind (a phone asleep) is dropped; the
    /// browser reconnects and gets a fresh snapshot.
    static let streamBacklogBytes = 256 * 1024
    /// Read at most this much per client per turn, so one cannot hog a turn.
    static let readChunk = 4096
    private var scratch: UnsafeMutableRawBufferPointer
    private(set) var served = 0
    private(set) var refused = 0
    /// The most CPU one `service` took, and how many ran: what the page
    /// cost the loop at worst (CPU time, so another process holding the
    /// core does not count), said when the server closes.
    var longestServiceNanos: Int64 = 0
    var services = 0
    /// When `tick` is next due.
    private(set) var nextTickNanos: Int64 = 0
    static let tickNanos: Int64 = 1_000_000_000

    init(listener: TCPListener?, capacity: Int = HTTPServerLimits.connections, limits: HTTPLimits = HTTPLimits()) {
        self.listener = listener
        self.limits = limits
        connections = Array(repeating: nil, count: capacity)
        scratch = .allocate(byteCount: HTTPServer.readChunk, alignment: 16)
    }

    mutating func start<W: DescriptorWatcher>(_ watcher: inout W) {
        if let listener { listenerSlot = watcher.watch(listener.descriptor, for: .http) }
    }

    var openConnections: Int { connections.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
    var streams: Int { connections.reduce(0) { $0 + ($1?.streaming == true ? 1 : 0) } }
    /// Whether new clients wait in the kernel's backlog for a place.
    var isPaused: Bool { listenerPaused }

    /// A free place, or the place of the client that can best give it up
    /// now; nil when every client is busy.
    private func place(now: Int64) -> Int? {
        if let free = connections.firstIndex(where: { $0 == nil }) { return free }
        var best: Int?
        var bestQuiet: Int64 = 0
        for (i, connection) in connections.enumerated() {
            guard let c = connection, !c.streaming, c.pending == 0 else { continue }
            let quiet = now - c.lastActivityNanos
            let yields = c.inbound.isEmpty ? quiet >= HTTPServer.yieldNanos : now - c.requestStartedNanos >= HTTPServer.stalledNanos
            if yields && (best == nil || quiet > bestQuiet) { best = i; bestQuiet = quiet }
        }
        return best
    }

    /// Takes a connected socket (accepted, or one end of a socketpair in a
    /// test); false when no place could be made (the caller closes it).
    @discardableResult
    mutating func adopt<W: DescriptorWatcher>(_ descriptor: FileDescriptor, now: Int64, _ watcher: inout W) -> Bool {
        guard let i = place(now: now) else { return false }
        if connections[i] != nil { drop(i, &watcher) }
        let slot = watcher.watch(descriptor, for: .http)
        var connection = HTTPConnection(descriptor: descriptor, slot: slot, lastActivityNanos: now)
        connection.inbound.reserveCapacity(limits.maxHeadBytes)
        connections[i] = connection
        return true
    }

    /// Accepts who waits, reads what clients sent and answers whole
    /// requests through `respond`, writes what the kernel will take; each
    /// step non-blocking.
    mutating func service<W: DescriptorWatcher>(now: Int64, _ watcher: inout W, respond: (HTTPRequest) -> HTTPReply) {
        if let listener, !listenerPaused {
            while place(now: now) != nil, let client = try? listener.accept() { adopt(client, now: now, &watcher) }
            if place(now: now) == nil { pauseListener(&watcher) }
        }
        for i in connections.indices where connections[i] != nil {
            serviceConnection(i, now: now, &watcher, respond: respond)
        }
    }

    /// Time passing with no traffic: idle and stalled clients are closed,
    /// and a paused listener comes back once a place can be made. The loop
    /// calls it about once a second.
    mutating func tick<W: DescriptorWatcher>(now: Int64, _ watcher: inout W) {
        nextTickNanos = now + HTTPServer.tickNanos
        for i in connections.indices {
            guard let c = connections[i], !c.streaming else { continue }
            if c.pending == 0 && now - c.lastActivityNanos > HTTPServer.idleNanos { drop(i, &watcher) }
        }
        if listenerPaused && place(now: now) != nil { resumeListener(&watcher) }
    }

    private mutating func pauseListener<W: DescriptorWatcher>(_ watcher: inout W) {
        guard let slot = listenerSlot, !listenerPaused else { return }
        watcher.unwatch(slot)
        listenerSlot = nil
        listenerPaused = true
    }

    private mutating func resumeListener<W: DescriptorWatcher>(_ watcher: inout W) {
        guard listenerPaused, let listener else { return }
        listenerSlot = watcher.watch(listener.descriptor, for: .http)
        listenerPaused = false
    }

    private mutating func serviceConnection<W: DescriptorWatcher>(_ i: Int, now: Int64, _ watcher: inout W,
                                                                  respond: (HTTPRequest) -> HTTPReply) {
        guard var c = connections[i] else { return }
        if c.pending > 0 && !flush(&c) { return drop(i, &watcher) }
        var closed = false
        switch StreamSocket.receive(c.descriptor, into: scratch) {
        case .bytes(let n):
            c.lastActivityNanos = now
            if c.inbound.isEmpty { c.requestStartedNanos = now }
            // A stream's client has nothing to say; what it sends is dropped.
            if !c.streaming && !c.closeWhenSent { c.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n])) }
        case .wouldBlock: break
        case .closed: closed = true
        }
        // Answer every whole request in order (pipelining), while nothing waits to go out.
        while !c.streaming && !c.closeWhenSent && c.pending == 0 && !c.inbound.isEmpty {
            let parsed = c.inbound.withUnsafeBytes { HTTPRequestParser.parse($0, limits: limits) }
            switch parsed {
            case .incomplete:
                if closed { c.inbound.removeAll() }
            case .refused(let status, let reason):
                refused += 1
                c.inbound.removeAll()
                c.outbound = HTTPResponse.refusal(status, reason).bytes(keepAlive: false)
                c.sent = 0
                c.closeWhenSent = true
            case .request(let request, let consumed):
                c.inbound.removeFirst(consumed)
                served += 1
                switch respond(request) {
                case .response(let response):
                    c.outbound = response.bytes(keepAlive: request.keepAlive, headOnly: request.method == .head)
                    c.closeWhenSent = !request.keepAlive
                case .file(let path, let type):
                    c.outbound = HTTPServer.fileResponse(path, contentType: type)
                        .bytes(keepAlive: request.keepAlive, headOnly: request.method == .head)
                    c.closeWhenSent = !request.keepAlive
                case .stream(let first):
                    c.outbound = ServerSentEvents.head() + first
                    c.streaming = true
                    c.inbound = []
                    limitStreams(keeping: i, &watcher)
                }
                c.sent = 0
            }
            if case .incomplete = parsed { break }
            if !flush(&c) { return drop(i, &watcher) }
        }
        if closed && c.pending == 0 { return drop(i, &watcher) }
        if closed && !c.streaming { c.closeWhenSent = true }
        if c.closeWhenSent && c.pending == 0 { return drop(i, &watcher) }
        if !c.streaming && c.pending == 0 && now - c.lastActivityNanos > HTTPServer.idleNanos { return drop(i, &watcher) }
        // An answered request leaves what follows it (or nothing): the next one starts now.
        if c.inbound.isEmpty { c.requestStartedNanos = now }
        setOutputWait(&c, &watcher)
        connections[i] = c
    }

    /// Files larger than this are not served from inside the loop.
    static let largestFile = 4 * 1024 * 1024

    static func fileResponse(_ path: String, contentType: String) -> HTTPResponse {
        guard let bytes = try? FileDescriptor.readBytes(path: path) else {
            return .refusal(.notFound, "not written (yet: a crossing's photos follow it within a second)")
        }
        guard bytes.count <= largestFile else { return .refusal(.contentTooLarge, "a file over 4 MiB is not served") }
        return HTTPResponse(.ok, contentType: contentType, body: bytes)
    }

    /// Streams may hold all places but two: past that, the oldest goes
    /// (its browser reconnects within seconds).
    private mutating func limitStreams<W: DescriptorWatcher>(keeping kept: Int, _ watcher: inout W) {
        guard streams + 1 > connections.count - 2 else { return }
        var oldest: Int?
        for (i, c) in connections.enumerated() where i != kept && c?.streaming == true {
            if oldest == nil || c!.lastActivityNanos < connections[oldest!]!.lastActivityNanos { oldest = i }
        }
        if let oldest { drop(oldest, &watcher) }
    }

    /// Queues `bytes` (one event) on every stream and sends what fits.
    mutating func broadcast<W: DescriptorWatcher>(_ bytes: [UInt8], _ watcher: inout W) {
        for i in connections.indices {
            guard var c = connections[i], c.streaming else { continue }
            if c.pending + bytes.count > HTTPServer.streamBacklogBytes { drop(i, &watcher); continue }
            if c.sent > 0 && c.sent == c.outbound.count {
                c.outbound.removeAll(keepingCapacity: true)
                c.sent = 0
            }
            c.outbound.append(contentsOf: bytes)
            if !flush(&c) { drop(i, &watcher); continue }
            setOutputWait(&c, &watcher)
            connections[i] = c
        }
    }

    /// Sends what the kernel takes now; false when the client is gone.
    private func flush(_ c: inout HTTPConnection) -> Bool {
        while c.pending > 0 {
            let n = c.outbound.withUnsafeBytes { StreamSocket.send(c.descriptor, UnsafeRawBufferPointer(rebasing: $0[c.sent...])) }
            guard let n else { return false }
            if n == 0 { return true }
            c.sent += n
        }
        c.outbound.removeAll(keepingCapacity: c.streaming)
        c.sent = 0
        return true
    }

    private func setOutputWait<W: DescriptorWatcher>(_ c: inout HTTPConnection, _ watcher: inout W) {
        let wants = c.pending > 0
        guard wants != c.waitsForOutput, let slot = c.slot else { return }
        watcher.setWatchesOutput(slot, wants)
        c.waitsForOutput = wants
    }

    private mutating func drop<W: DescriptorWatcher>(_ i: Int, _ watcher: inout W) {
        guard let c = connections[i] else { return }
        if let slot = c.slot { watcher.unwatch(slot) }
        c.descriptor.close()
        connections[i] = nil
        if listenerPaused { resumeListener(&watcher) }
    }

    mutating func close<W: DescriptorWatcher>(_ watcher: inout W) {
        for i in connections.indices { drop(i, &watcher) }
        if let slot = listenerSlot { watcher.unwatch(slot) }
        listenerSlot = nil
        listenerPaused = false
        listener?.close()
        scratch.deallocate()
    }
}

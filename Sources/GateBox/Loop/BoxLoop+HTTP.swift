import GateCore
import GateDevices
import GateProtocol

/// The coach's page in the loop: started by `run` and `--simulate --http`,
/// handed its sockets' readiness, fed at the end of each turn, closed with
/// the session. Its bookkeeping runs on the real monotonic clock, since
/// its clients are real even when the box is simulated.
extension BoxLoop {
    /// Listens at `address`; a port in use or not permitted is an error
    /// that names the address.
    public mutating func startHTTP(_ address: ListenAddress) throws(GateError) {
        let listener = try TCPListener.listen(address)
        var server = HTTPServer(listener: listener)
        server.start(&platform)
        http = server
        coachFeed = CoachFeed()
        say("coach's page: http://" + listener.address.text + "/")
    }

    /// Where the page listens (the port the kernel gave for port 0).
    public var httpAddress: ListenAddress? { http?.listener?.address }

    mutating func handleHTTP() {
        guard var server = http, let feed = coachFeed else { return }
        http = nil
        let cpu = MonotonicClock.threadCPUNanos()
        server.service(now: MonotonicClock.nowNanos(), &platform) { CoachRoutes.reply(to: $0, feed: feed) }
        server.longestServiceNanos = max(server.longestServiceNanos, MonotonicClock.threadCPUNanos() - cpu)
        server.services += 1
        http = server
    }

    /// Sends the turn's events (the gate's state, new runs, log lines) to
    /// every open stream.
    /// About once a second it also lets the server close idle clients and
    /// take new ones after a full table.
    mutating func flushCoachFeed() {
        guard let feed = coachFeed, let due = http?.nextTickNanos else { return }
        feed.state(session.state.name)
        let now = MonotonicClock.nowNanos()
        guard !feed.pending.isEmpty || now >= due else { return }
        var server = http!
        http = nil
        if now >= due { server.tick(now: now, &platform) }
        for event in feed.takePending() { server.broadcast(event, &platform) }
        http = server
    }

    mutating func closeHTTP() {
        guard http != nil else { return }
        flushCoachFeed()
        var server = http!
        http = nil
        say("coach's page: " + String(server.served) + " requests answered, " + String(server.refused) + " refused; its longest turn (CPU) "
            + DecimalText.fixed(Double(server.longestServiceNanos) / 1e6, places: 3) + " ms of " + String(server.services))
        server.close(&platform)
    }
}

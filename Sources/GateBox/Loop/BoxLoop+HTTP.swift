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
    /// `pinBits`: where the control PIN comes from (the kernel's random
    /// bits on the box, the seed in a simulation).
    public mutating func startHTTP(_ address: ListenAddress, pinBits: UInt32) throws(GateError) {
        let listener = try TCPListener.listen(address)
        var server = HTTPServer(listener: listener)
        server.start(&platform)
        http = server
        coachFeed = CoachFeed()
        coachFeed!.dataDirectory = log.dataDirectory
        coachControl = CoachControl(random: pinBits)
        say("coach's page: http://" + listener.address.text + "/")
        logPIN()
    }

    /// The PIN goes to the log only, never to the page's feed (everyone on
    /// the network reads that).
    func logPIN() {
        guard let control = coachControl else { return }
        console.line(DecimalText.clockLabel(platform.nowNanos) + " coach's page: control PIN " + control.pin)
    }

    /// Says the PIN aloud (a person at the box asked) and logs it.
    mutating func announcePIN() throws(GateError) {
        guard let control = coachControl else {
            say("the coach's page is off (http in the settings), so there is no PIN to say")
            return
        }
        logPIN()
        var program = SoundProgram()
        program.say(control.words, atNanos: 0, gapNanos: 150_000_000, voice: configuration.voice)
        try platform.speaker.play(program, atNanos: platform.nowNanos)
    }

    /// What the page asked for, as the button would do it, said as the page's.
    mutating func handle(_ command: CoachCommand) throws(GateError) -> SessionEnd? {
        let who = "coach's page"
        switch command {
        case .arm:
            guard session.state == .idle else { say(who + ": arm: the gate is already " + session.state.name); return nil }
            try handle(.longPress, by: who)
        case .disarm:
            guard session.state != .idle else { say(who + ": disarm: the gate is not armed"); return nil }
            try handle(.longPress, by: who)
        case .start:
            guard configuration.startType.isCalled else {
                say(who + ": start: a " + configuration.startType.name + " start is not called (start.type countdown or voice)")
                return nil
            }
            guard session.state == .armed else { say(who + ": start: the gate is " + session.state.name + ", not armed"); return nil }
            try handle(.tap, by: who)
        case .athlete:
            return try handle(taps: 2)
        case .preset:
            return try handle(taps: 3)
        }
        return nil
    }

    /// Where the page listens (the port the kernel gave for port 0).
    public var httpAddress: ListenAddress? { http?.listener?.address }

    /// Returns how the session ends when a command ends it (a new preset).
    mutating func handleHTTP() throws(GateError) -> SessionEnd? {
        guard var server = http, var control = coachControl, let feed = coachFeed else { return nil }
        http = nil
        let cpu = MonotonicClock.threadCPUNanos()
        let now = MonotonicClock.nowNanos()
        server.service(now: now, &platform) { CoachRoutes.reply(to: $0, feed: feed, control: &control, now: now) }
        server.longestServiceNanos = max(server.longestServiceNanos, MonotonicClock.threadCPUNanos() - cpu)
        server.services += 1
        http = server
        let commands = control.commands
        control.commands.removeAll()
        coachControl = control
        for command in commands {
            if let end = try handle(command) { return end }
        }
        return nil
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

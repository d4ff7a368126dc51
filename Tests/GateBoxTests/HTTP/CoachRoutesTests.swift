import Testing
import GateCore
import GateProtocol
@testable import GateBox

/// The page's routes and feed, without a socket.
@Suite struct CoachRoutesTests {
    static func body(_ reply: HTTPReply) -> (HTTPStatus, String)? {
        guard case .response(let r) = reply else { return nil }
        return (r.status, String(decoding: r.body, as: UTF8.self))
    }

    @Test func thePageTheStateAndTheStream() throws {
        var control = CoachControl(pin: "4821")
        let feed = CoachFeed()
        feed.session("session-0007")
        feed.state("armed")
        feed.line("gate armed: the first crossing starts the clock", warning: false)
        feed.run("{\"type\":\"crossing\",\"lap\":1,\"splitTimeMs\":3632.524}")
        feed.line("tripod moved (0.210 g): \"check\" the aim", warning: true)

        let (status, page) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/"), feed: feed, control: &control, now: 0)))
        #expect(status == .ok)
        #expect(page.hasPrefix("<!doctype html>") && page.contains("new EventSource(\"/events\")"))
        #expect(!page.contains("http://") && !page.contains("https://"), "nothing fetched from outside: it works offline")

        let (_, state) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/api/state"), feed: feed, control: &control, now: 0)))
        let value = try JSONParser.parse(Array(state.utf8))
        #expect(value["session"]?.string == "session-0007")
        #expect(value["state"]?.string == "armed")
        #expect(value["runs"]?.array?.count == 1)
        #expect(value["lines"]?.array?.last?["text"]?.string == "tripod moved (0.210 g): \"check\" the aim")
        #expect(value["lines"]?.array?.last?["warning"]?.bool == true)

        guard case .stream(let first) = CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/events"), feed: feed, control: &control, now: 0) else {
            Issue.record("/events is a stream")
            return
        }
        #expect(String(decoding: first, as: UTF8.self) == "event: hello\ndata: " + state + "\n\n")
    }

    @Test func unknownPathsAndPostsAreRefusedWithTheReason() throws {
        var control = CoachControl(pin: "4821")
        let feed = CoachFeed()
        let (missing, text) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/secret"), feed: feed, control: &control, now: 0)))
        #expect(missing == .notFound && text == "404 Not Found: no page at /secret (try /)\n")
        let (post, _) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .post, path: "/"), feed: feed, control: &control, now: 0)))
        #expect(post == .methodNotAllowed)
    }

    static func post(_ path: String, _ body: String, cookie: String? = nil, control: inout CoachControl, now: Int64 = 0) -> (HTTPStatus, HTTPResponse)? {
        let request = HTTPRequest(method: .post, path: path, cookie: cookie, body: Array(body.utf8))
        guard case .response(let r) = CoachRoutes.reply(to: request, feed: CoachFeed(), control: &control, now: now) else { return nil }
        return (r.status, r)
    }

    @Test func controlNeedsThePINFromTheCookieOrTheForm() throws {
        var control = CoachControl(pin: "4821")
        let ask = HTTPRequest(method: .get, path: "/api/control", cookie: "ts-gate-pin=4821")
        #expect(Self.body(CoachRoutes.reply(to: ask, feed: CoachFeed(), control: &control, now: 0))?.1 == "{\"allowed\":true}")
        let stranger = HTTPRequest(method: .get, path: "/api/control", cookie: "ts-gate-pin=1234")
        #expect(Self.body(CoachRoutes.reply(to: stranger, feed: CoachFeed(), control: &control, now: 0))?.1 == "{\"allowed\":false}")

        #expect(Self.post("/api/control", "action=arm", control: &control)?.0 == .forbidden)
        #expect(Self.post("/api/control", "action=arm", cookie: "ts-gate-pin=4822", control: &control)?.0 == .forbidden)
        #expect(control.commands.isEmpty, "nothing carried out without the PIN")
        let unlocked = try #require(Self.post("/api/pin", "pin=4821", control: &control))
        #expect(unlocked.0 == .noContent)
        #expect(unlocked.1.headers == ["Set-Cookie: ts-gate-pin=4821; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict"])
        #expect(Self.post("/api/control", "action=arm", cookie: "theme=dark; ts-gate-pin=4821", control: &control)?.0 == .accepted)
        #expect(Self.post("/api/control", "pin=4821&action=start", control: &control)?.0 == .accepted)
        #expect(Self.post("/api/control", "action=launch", cookie: "ts-gate-pin=4821", control: &control)?.0 == .badRequest)
        #expect(Self.post("/api/control", "action=preset", cookie: "ts-gate-pin=4821", control: &control)?.0 == .accepted)
        #expect(control.commands == [.arm, .start, .preset])
        let get = HTTPRequest(method: .get, path: "/api/pin")
        #expect(Self.body(CoachRoutes.reply(to: get, feed: CoachFeed(), control: &control, now: 0))?.0 == .methodNotAllowed)
    }

    @Test func wrongPINsAreLimitedForEveryoneForAMinute() throws {
        var control = CoachControl(pin: "0042")
        let second: Int64 = 1_000_000_000
        for guess in 0..<CoachControl.maxFailures {
            #expect(Self.post("/api/pin", "pin=" + String(1000 + guess), control: &control, now: Int64(guess) * second)?.0 == .forbidden)
        }
        // Locked: even the right PIN is not checked, and says why.
        let locked = try #require(Self.post("/api/pin", "pin=0042", control: &control, now: 10 * second))
        #expect(locked.0 == .tooManyRequests)
        #expect(String(decoding: locked.1.body, as: UTF8.self).contains("wait a minute"))
        #expect(Self.post("/api/control", "action=arm", cookie: "ts-gate-pin=0042", control: &control, now: 20 * second)?.0 == .tooManyRequests)
        // A minute after the first wrong one, one place frees.
        #expect(Self.post("/api/pin", "pin=0042", control: &control, now: 60 * second)?.0 == .noContent)
    }

    @Test func thePINIsFourDigitsAndSaidDigitByDigit() {
        #expect(CoachControl(random: 7).pin == "0007")
        #expect(CoachControl(random: 4_294_967_295).pin == "7295")
        #expect(CoachControl(pin: "4821").words == [.number(4)!, .number(8)!, .number(2)!, .number(1)!])
        #expect(!CoachControl.same("482", "4821") && CoachControl.same("4821", "4821") && !CoachControl.same("4822", "4821"))
    }

    @Test func photosAreServedFromTheirSessionsDirectoryAndNowhereElse() {
        var control = CoachControl(pin: "4821")
        let feed = CoachFeed()
        feed.dataDirectory = "/var/lib/ts-gate"
        let ask = HTTPRequest(method: .get, path: "/photos/session-0007/run-001-1-frame.png")
        guard case .file(let path, let type) = CoachRoutes.reply(to: ask, feed: feed, control: &control, now: 0) else {
            Issue.record("a photo is a file")
            return
        }
        #expect(path == "/var/lib/ts-gate/session-0007/photos/run-001-1-frame.png" && type == "image/png")
        #expect(CoachRoutes.photo("/photos/session-0012/run-003-2-f+1.png")! == ("session-0012", "run-003-2-f+1.png"))
        for bad in ["/photos/session-0007/../../../etc/passwd", "/photos/../session-0007/x.png", "/photos/session-0007/.png",
                    "/photos/session-7a/x.png", "/photos/session-0007/x.png/y.png", "/photos/session-0007/x%2F.png",
                    "/photos/session-0007/a.b.png", "/photos/session-/x.png", "/photos//x.png", "/photos/session-0007/x.jpg"] {
            #expect(CoachRoutes.photo(bad) == nil, "\(bad)")
            let request = HTTPRequest(method: .get, path: bad)
            if case .file = CoachRoutes.reply(to: request, feed: feed, control: &control, now: 0) { Issue.record("served \(bad)") }
        }
    }

    @Test func theFeedQueuesEachChangeOnceAndKeepsABoundedHistory() {
        let feed = CoachFeed()
        feed.state("idle")
        #expect(feed.takePending().isEmpty, "no change, no event")
        feed.state("armed")
        feed.state("armed")
        #expect(feed.takePending().map { String(decoding: $0, as: UTF8.self) } == ["event: state\ndata: \"armed\"\n\n"])
        for i in 0..<(CoachFeed.keptRuns + 5) { feed.run("{\"lap\":" + String(i) + "}") }
        #expect(feed.runs.count == CoachFeed.keptRuns)
        #expect(feed.runs.first == "{\"lap\":5}")
        #expect(feed.takePending().count == CoachFeed.keptRuns + 5)
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
}

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
        let feed = CoachFeed()
        feed.session("session-0007")
        feed.state("armed")
        feed.line("gate armed: the first crossing starts the clock", warning: false)
        feed.run("{\"type\":\"crossing\",\"lap\":1,\"splitTimeMs\":3632.524}")
        feed.line("tripod moved (0.210 g): \"check\" the aim", warning: true)

        let (status, page) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/"), feed: feed)))
        #expect(status == .ok)
        #expect(page.hasPrefix("<!doctype html>") && page.contains("new EventSource(\"/events\")"))
        #expect(!page.contains("http://") && !page.contains("https://"), "nothing fetched from outside: it works offline")

        let (_, state) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/api/state"), feed: feed)))
        let value = try JSONParser.parse(Array(state.utf8))
        #expect(value["session"]?.string == "session-0007")
        #expect(value["state"]?.string == "armed")
        #expect(value["runs"]?.array?.count == 1)
        #expect(value["lines"]?.array?.last?["text"]?.string == "tripod moved (0.210 g): \"check\" the aim")
        #expect(value["lines"]?.array?.last?["warning"]?.bool == true)

        guard case .stream(let first) = CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/events"), feed: feed) else {
            Issue.record("/events is a stream")
            return
        }
        #expect(String(decoding: first, as: UTF8.self) == "event: hello\ndata: " + state + "\n\n")
    }

    @Test func unknownPathsAndPostsAreRefusedWithTheReason() throws {
        let feed = CoachFeed()
        let (missing, text) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .get, path: "/secret"), feed: feed)))
        #expect(missing == .notFound && text == "404 Not Found: no page at /secret (try /)\n")
        let (post, _) = try #require(Self.body(CoachRoutes.reply(to: HTTPRequest(method: .post, path: "/"), feed: feed)))
        #expect(post == .methodNotAllowed)
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

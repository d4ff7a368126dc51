import GateCore
import GateProtocol

/// Which page or feed a request asks for: a table from paths to answers,
/// pure (a request and the feed in, a reply out), so every route is tested
/// without a socket.
enum CoachRoutes {
    static func reply(to request: HTTPRequest, feed: CoachFeed) -> HTTPReply {
        guard request.method != .post else {
            return .response(.refusal(.methodNotAllowed, "nothing here takes a POST yet"))
        }
        switch request.path {
        case "/", "/index.html":
            return .response(HTTPResponse(.ok, contentType: "text/html; charset=utf-8", body: CoachPage.live))
        case "/api/state":
            return .response(HTTPResponse(.ok, contentType: "application/json", text: feed.snapshot()))
        case "/events":
            return .stream(first: ServerSentEvents.event("hello", data: feed.snapshot()))
        default:
            return .response(.refusal(.notFound, "no page at " + String(request.path.prefix(80)) + " (try /)"))
        }
    }
}

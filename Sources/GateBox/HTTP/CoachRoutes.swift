import GateCore
import GateProtocol

/// Which page or feed a request asks for: a table from paths to answers,
/// pure (a request, the feed and the control in; a reply out), so every
/// route is tested without a socket. Control requests are POSTs with a
/// form body; their PIN comes from the browser's cookie or the form.
enum CoachRoutes {
    static func reply(to request: HTTPRequest, feed: CoachFeed, control: inout CoachControl, now: Int64) -> HTTPReply {
        switch (request.method, request.path) {
        case (.get, "/"), (.head, "/"), (.get, "/index.html"):
            return .response(HTTPResponse(.ok, contentType: "text/html; charset=utf-8", body: CoachPage.live))
        case (.get, "/api/state"), (.head, "/api/state"):
            return .response(HTTPResponse(.ok, contentType: "application/json", text: feed.snapshot()))
        case (.get, "/events"):
            return .stream(first: ServerSentEvents.event("hello", data: feed.snapshot()))
        case (.get, "/api/control"):
            // Whether this browser's cookie holds the PIN: the page shows its buttons then.
            let allowed = request.cookieValue(CoachControl.cookie).map { CoachControl.same($0, control.pin) } ?? false
            return .response(HTTPResponse(.ok, contentType: "application/json", text: allowed ? "{\"allowed\":true}" : "{\"allowed\":false}"))
        case (.post, "/api/pin"):
            let form = String(decoding: request.body, as: UTF8.self)
            switch control.check(HTTPRequest.formValue("pin", in: form), now: now) {
            case .allowed:
                return .response(HTTPResponse(.noContent, headers: [
                    "Set-Cookie: " + CoachControl.cookie + "=" + control.pin + "; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict",
                ]))
            case .wrong: return .response(.refusal(.forbidden, "wrong PIN (the box says its PIN when asked; it is in its log too)"))
            case .locked: return .response(.refusal(.tooManyRequests, "too many wrong PINs in the last minute; wait a minute"))
            }
        case (.post, "/api/control"):
            let form = String(decoding: request.body, as: UTF8.self)
            let given = request.cookieValue(CoachControl.cookie) ?? HTTPRequest.formValue("pin", in: form)
            switch control.check(given, now: now) {
            case .allowed: break
            case .wrong: return .response(.refusal(.forbidden, "control needs the box's PIN (enter it on the page)"))
            case .locked: return .response(.refusal(.tooManyRequests, "too many wrong PINs in the last minute; wait a minute"))
            }
            guard let name = HTTPRequest.formValue("action", in: form), let command = CoachCommand(name: name) else {
                return .response(.refusal(.badRequest, "action must be " + CoachCommand.names))
            }
            control.commands.append(command)
            return .response(HTTPResponse(.accepted, text: name + "\n"))
        case (.get, _) where request.path.hasPrefix("/photos/"), (.head, _) where request.path.hasPrefix("/photos/"):
            guard let (session, name) = photo(request.path) else {
                return .response(.refusal(.notFound, "a photo is /photos/session-NNNN/NAME.png"))
            }
            return .file(path: feed.dataDirectory + "/" + session + "/" + PhotoNames.directory + "/" + name, contentType: "image/png")
        case (_, "/"), (_, "/index.html"), (_, "/api/state"), (_, "/events"), (_, "/api/control"), (_, "/api/pin"):
            return .response(.refusal(.methodNotAllowed, request.method.name + " " + String(request.path.prefix(80))))
        default:
            return .response(.refusal(.notFound, "no page at " + String(request.path.prefix(80)) + " (try /)"))
        }
    }

    /// `/photos/session-0007/run-001-1-frame.png` as ("session-0007",
    /// "run-001-1-frame.png"); nil for anything else, so no path can leave
    /// the photos' directories (no slash, no dot but the extension's).
    static func photo(_ path: String) -> (session: String, name: String)? {
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, String(parts[1]) == "photos" else { return nil }
        let session = parts[2], name = parts[3]
        guard session.count > 8, session.count <= 16, String(session.prefix(8)) == "session-",
              session.dropFirst(8).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard name.count > 4, name.count <= 64, String(name.suffix(4)) == ".png",
              name.dropLast(4).allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x2B })
        else { return nil }
        return (String(session)!, String(name)!)
    }
}

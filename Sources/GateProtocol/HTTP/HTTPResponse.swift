/// The statuses the box answers with.
public enum HTTPStatus: Int, Equatable, Sendable {
    case ok = 200
    case accepted = 202
    case noContent = 204
    case seeOther = 303
    case badRequest = 400
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case conflict = 409
    case lengthRequired = 411
    case contentTooLarge = 413
    case tooManyRequests = 429
    case headersTooLarge = 431
    case internalError = 500
    case unavailable = 503
    case versionNotSupported = 505

    public var reason: String {
        switch self {
        case .ok: return "OK"
        case .accepted: return "Accepted"
        case .noContent: return "No Content"
        case .seeOther: return "See Other"
        case .badRequest: return "Bad Request"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .conflict: return "Conflict"
        case .lengthRequired: return "Length Required"
        case .contentTooLarge: return "Content Too Large"
        case .tooManyRequests: return "Too Many Requests"
        case .headersTooLarge: return "Request Header Fields Too Large"
        case .internalError: return "Internal Server Error"
        case .unavailable: return "Service Unavailable"
        case .versionNotSupported: return "HTTP Version Not Supported"
        }
    }
}

/// A whole response: head and body as bytes, ready to queue on a connection.
public struct HTTPResponse: Equatable, Sendable {
    public var status: HTTPStatus
    public var contentType: String
    public var body: [UInt8]
    /// Extra header lines, each without its CRLF ("Set-Cookie: ...").
    public var headers: [String]

    public init(_ status: HTTPStatus, contentType: String = "text/plain; charset=utf-8", body: [UInt8] = [], headers: [String] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    public init(_ status: HTTPStatus, contentType: String = "text/plain; charset=utf-8", text: String, headers: [String] = []) {
        self.init(status, contentType: contentType, body: Array(text.utf8), headers: headers)
    }

    /// A refusal whose body says why in a sentence, as every error of the box does.
    public static func refusal(_ status: HTTPStatus, _ reason: String) -> HTTPResponse {
        HTTPResponse(status, text: String(status.rawValue) + " " + status.reason + ": " + reason + "\n")
    }

    /// The bytes on the wire. A HEAD request gets the head alone; the
    /// connection's fate is said in the Connection header.
    public func bytes(keepAlive: Bool, headOnly: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 " + String(status.rawValue) + " " + status.reason + "\r\n"
        head += "Content-Type: " + contentType + "\r\n"
        head += "Content-Length: " + String(body.count) + "\r\n"
        // The pages change with every run: never cached; and never framed by another site.
        head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
        for line in headers { head += line + "\r\n" }
        head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if !headOnly { bytes += body }
        return bytes
    }
}

/// Server-Sent Events (the WHATWG HTML standard's text/event-stream): the
/// head that opens a stream, and one event's bytes.
public enum ServerSentEvents {
    public static func head() -> [UInt8] {
        Array(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\nConnection: keep-alive\r\n\r\n"
            // Browsers reconnect after this many ms when the box restarts.
            + "retry: 2000\n\n").utf8)
    }

    /// `event: NAME` then one `data:` line per line of `data` (a newline
    /// in the data would otherwise end the event early).
    public static func event(_ name: String, data: String) -> [UInt8] {
        var text = "event: " + name + "\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: " + line + "\n" }
        text += "\n"
        return Array(text.utf8)
    }

    /// A comment line: keeps idle proxies and phones from dropping the stream.
    public static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)
}

/// Bounds on one request, so a client cannot make the box hold a huge
/// request or walk a long header list (a phone's browser sends ~12 headers
/// and well under 2 KiB).
public struct HTTPLimits: Equatable, Sendable {
    /// Request line and headers together, with the blank line.
    public var maxHeadBytes: Int
    public var maxHeaders: Int
    /// Control requests carry a few form fields at most.
    public var maxBodyBytes: Int

    public init(maxHeadBytes: Int = 8192, maxHeaders: Int = 40, maxBodyBytes: Int = 1024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaders = maxHeaders
        self.maxBodyBytes = maxBodyBytes
    }
}

public enum HTTPMethod: Equatable, Sendable {
    case get, head, post

    public var name: String {
        switch self {
        case .get: return "GET"
        case .head: return "HEAD"
        case .post: return "POST"
        }
    }
}

/// One parsed request: only what the box's pages need is kept.
public struct HTTPRequest: Equatable, Sendable {
    public var method: HTTPMethod
    /// The target's path, percent-decoding left to the router.
    public var path: String
    /// What followed `?` in the target, without it; empty when none.
    public var query: String
    /// HTTP/1.1 keeps the connection unless told to close; 1.0 the reverse.
    public var keepAlive: Bool
    public var cookie: String?
    public var body: [UInt8]

    public init(method: HTTPMethod, path: String, query: String = "", keepAlive: Bool = true, cookie: String? = nil, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.keepAlive = keepAlive
        self.cookie = cookie
        self.body = body
    }

    /// The value of `name` in the query or a form body (`a=1&b=two`), with
    /// `+` and percent escapes decoded; nil when absent or badly escaped.
    public static func formValue(_ name: String, in text: String) -> String? {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = percentDecoded(Substring(parts[0])), key == name else { continue }
            return parts.count == 2 ? percentDecoded(parts[1]) : ""
        }
        return nil
    }

    /// `%41` is `A` and `+` a space; nil for a broken escape or bytes that are not UTF-8.
    public static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = utf8.next().flatMap(HTTPRequest.hexValue), let low = utf8.next().flatMap(HTTPRequest.hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The value of cookie `name` in the Cookie header.
    public func cookieValue(_ name: String) -> String? {
        guard let cookie else { return nil }
        for pair in cookie.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            if HTTPRequest.trimmed(parts[0]) == name { return String(HTTPRequest.trimmed(parts[1])) }
        }
        return nil
    }

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

/// What a connection's bytes so far hold.
public enum HTTPParseResult: Equatable, Sendable {
    /// Not yet a whole request: read more.
    case incomplete
    /// A request and how many bytes of the input it took (more may follow).
    case request(HTTPRequest, consumed: Int)
    /// The client sent what the box will not take: answer with `status`
    /// (its reason said in the body) and close.
    case refused(HTTPStatus, reason: String)
}

/// An RFC 9112 request reader over whatever bytes a connection has read:
/// strict where the box's safety depends on it (sizes, framing), lenient
/// where browsers differ (header case, optional whitespace). Bodies are
/// taken only with Content-Length; chunked uploads are refused (411), since
/// no page sends them.
public enum HTTPRequestParser {
    public static func parse(_ bytes: UnsafeRawBufferPointer, limits: HTTPLimits = HTTPLimits()) -> HTTPParseResult {
        guard let headEnd = endOfHead(bytes, limit: limits.maxHeadBytes) else {
            return bytes.count > limits.maxHeadBytes
                ? .refused(.headersTooLarge, reason: "the request line and headers exceed " + String(limits.maxHeadBytes) + " bytes")
                : .incomplete
        }
        var lines: [Substring] = []
        guard let head = String(validating: bytes[0..<headEnd], as: UTF8.self) else {
            return .refused(.badRequest, reason: "the request head is not UTF-8 text")
        }
        // Lines end in CRLF; a bare LF is accepted as RFC 9112 section 2.2
        // allows. Split by scalars: to String, CR LF is one Character.
        for line in head.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(Substring(line.last == "\r" ? line.dropLast() : line))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { return .refused(.badRequest, reason: "an empty request line") }
        guard lines.count - 1 <= limits.maxHeaders else {
            return .refused(.headersTooLarge, reason: "more than " + String(limits.maxHeaders) + " header lines")
        }
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .refused(.badRequest, reason: "the request line is not METHOD TARGET VERSION") }
        let method: HTTPMethod
        switch parts[0] {
        case "GET": method = .get
        case "HEAD": method = .head
        case "POST": method = .post
        default: return .refused(.methodNotAllowed, reason: "method " + String(parts[0].prefix(16)) + " (the box takes GET, HEAD and POST)")
        }
        let http11: Bool
        switch parts[2] {
        case "HTTP/1.1": http11 = true
        case "HTTP/1.0": http11 = false
        default: return .refused(.versionNotSupported, reason: "version " + String(parts[2].prefix(16)) + " (the box speaks HTTP/1.1 and 1.0)")
        }
        let target = parts[1]
        guard target.first == "/" else { return .refused(.badRequest, reason: "the target must be a path starting with /") }
        var request = HTTPRequest(method: method, path: "", keepAlive: http11)
        if let mark = target.firstIndex(of: "?") {
            request.path = String(target[..<mark])
            request.query = String(target[target.index(after: mark)...])
        } else {
            request.path = String(target)
        }
        var contentLength = 0
        var sawLength = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                return .refused(.badRequest, reason: "a header line without a name and colon")
            }
            let name = line[..<colon]
            // RFC 9112 section 5.1: no whitespace between a field name and its colon (request smuggling).
            guard name.last != " ", name.last != "\t" else { return .refused(.badRequest, reason: "whitespace before a header's colon") }
            let value = HTTPRequest.trimmed(line[line.index(after: colon)...])
            switch lowercased(name) {
            case "content-length":
                guard !sawLength, !value.isEmpty, value.utf8.count <= 9, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(value) else {
                    return .refused(.badRequest, reason: "Content-Length must be one whole number")
                }
                guard n <= limits.maxBodyBytes else {
                    return .refused(.contentTooLarge, reason: "a body of " + String(n) + " bytes (at most " + String(limits.maxBodyBytes) + ")")
                }
                contentLength = n
                sawLength = true
            case "transfer-encoding":
                return .refused(.lengthRequired, reason: "Transfer-Encoding (send Content-Length)")
            case "connection":
                for token in lowercased(value).split(separator: ",") {
                    switch HTTPRequest.trimmed(token) {
                    case "close": request.keepAlive = false
                    case "keep-alive": request.keepAlive = true
                    default: break
                    }
                }
            case "cookie":
                request.cookie = request.cookie.map { $0 + "; " + value } ?? String(value)
            default:
                break
            }
        }
        let total = headEnd + contentLength
        guard bytes.count >= total else { return .incomplete }
        request.body = Array(bytes[headEnd..<total])
        return .request(request, consumed: total)
    }

    /// The offset just past the blank line that ends the head (CRLF CRLF or
    /// LF LF), searched within the first `limit` bytes.
    static func endOfHead(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let count = min(bytes.count, limit)
        var i = 0
        while i < count {
            if bytes[i] == 0x0A {
                if i + 1 < bytes.count && bytes[i + 1] == 0x0A { return i + 2 }
                if i + 2 < bytes.count && bytes[i + 1] == 0x0D && bytes[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    static func lowercased(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

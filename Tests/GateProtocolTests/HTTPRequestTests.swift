import Testing
@testable import GateProtocol

/// The request reader on raw bytes, as a browser or a hostile client sends
/// them: one table of inputs and what each must give.
@Suite struct HTTPRequestTests {
    static func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseResult {
        Array(text.utf8).withUnsafeBytes { HTTPRequestParser.parse($0, limits: limits) }
    }

    static func request(_ text: String) -> (HTTPRequest, Int)? {
        if case .request(let r, let consumed) = parse(text) { return (r, consumed) }
        return nil
    }

    static func status(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPStatus? {
        if case .refused(let status, _) = parse(text, limits: limits) { return status }
        return nil
    }

    @Test func aPhonesGet() throws {
        let text = "GET /api/state?x=1 HTTP/1.1\r\nHost: 192.168.4.1\r\nUser-Agent: phone\r\nAccept: */*\r\nCookie: a=1; pin=4821\r\n\r\n"
        let (r, consumed) = try #require(Self.request(text))
        #expect(consumed == text.utf8.count)
        #expect(r.method == .get)
        #expect(r.path == "/api/state")
        #expect(r.query == "x=1")
        #expect(r.keepAlive)
        #expect(r.cookieValue("pin") == "4821")
        #expect(r.cookieValue("a") == "1")
        #expect(r.cookieValue("b") == nil)
        #expect(r.body.isEmpty)
    }

    @Test func bareLineFeedsAndHTTP10() throws {
        let (r, _) = try #require(Self.request("HEAD / HTTP/1.0\nHost: x\n\n"))
        #expect(r.method == .head)
        #expect(!r.keepAlive)
        let (kept, _) = try #require(Self.request("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"))
        #expect(kept.keepAlive)
        let (closed, _) = try #require(Self.request("GET / HTTP/1.1\r\nconnection: foo, close\r\n\r\n"))
        #expect(!closed.keepAlive)
    }

    @Test func incompleteUntilTheBlankLineAndTheWholeBody() {
        for text in ["", "GET / HTTP/1.1\r\n", "GET / HTTP/1.1\r\nHost: x\r\n\r", "POST /arm HTTP/1.1\r\nContent-Length: 5\r\n\r\npin="] {
            #expect(Self.parse(text) == .incomplete, "\(text)")
        }
    }

    @Test func aPostsBodyAndPipelinedRequests() throws {
        let post = "POST /api/arm HTTP/1.1\r\nContent-Length: 8\r\n\r\npin=4821"
        let (r, consumed) = try #require(Self.request(post + "GET / HTTP/1.1\r\n\r\n"))
        #expect(r.method == .post)
        #expect(consumed == post.utf8.count)
        #expect(HTTPRequest.formValue("pin", in: String(decoding: r.body, as: UTF8.self)) == "4821")
    }

    @Test(arguments: [
        ("BREW /pot HTTP/1.1\r\n\r\n", HTTPStatus.methodNotAllowed),
        ("GET / HTTP/2.0\r\n\r\n", .versionNotSupported),
        ("GET /\r\n\r\n", .badRequest),
        ("GET  / HTTP/1.1\r\n\r\n", .badRequest),
        ("GET http://x/ HTTP/1.1\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost x\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\n: x\r\n\r\n", .badRequest),
        ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", .badRequest),
        ("POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", .badRequest),
        ("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab", .badRequest),
        ("POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", .badRequest),
        ("POST / HTTP/1.1\r\nContent-Length: 4096\r\n\r\n", .contentTooLarge),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", .lengthRequired),
        ("\r\n\r\n", .badRequest),
    ])
    func refused(_ text: String, _ status: HTTPStatus) {
        #expect(Self.status(text) == status, "\(text)")
    }

    @Test func headTooLargeOrTooManyHeaders() {
        let limits = HTTPLimits(maxHeadBytes: 256, maxHeaders: 4, maxBodyBytes: 16)
        // No blank line within the limit: refused as soon as the limit is passed, not held forever.
        let endless = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 300)
        #expect(Self.status(endless, limits: limits) == .headersTooLarge)
        #expect(Self.parse(String(endless.prefix(200)), limits: limits) == .incomplete)
        let many = "GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: 5) + "\r\n"
        #expect(Self.status(many, limits: limits) == .headersTooLarge)
        let four = "GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: 4) + "\r\n"
        #expect(Self.request(four) != nil)
    }

    @Test func notUTF8IsABadRequest() {
        let bytes: [UInt8] = Array("GET /".utf8) + [0xFF, 0xFE] + Array(" HTTP/1.1\r\n\r\n".utf8)
        let result = bytes.withUnsafeBytes { HTTPRequestParser.parse($0) }
        #expect(result == .refused(.badRequest, reason: "the request head is not UTF-8 text"))
    }

    @Test func formValuesDecodePercentAndPlus() {
        #expect(HTTPRequest.formValue("name", in: "a=1&name=Ana+Mar%C3%ADa&x") == "Ana María")
        #expect(HTTPRequest.formValue("x", in: "a=1&x") == "")
        #expect(HTTPRequest.formValue("b", in: "a=1") == nil)
        #expect(HTTPRequest.formValue("a", in: "a=%G1") == nil)
        #expect(HTTPRequest.formValue("a", in: "a=%4") == nil)
    }

    @Test func responsesAndEventsOnTheWire() {
        let body = HTTPResponse(.ok, contentType: "application/json", text: "{}")
        #expect(String(decoding: body.bytes(keepAlive: true), as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nConnection: keep-alive\r\n\r\n{}")
        let head = String(decoding: body.bytes(keepAlive: false, headOnly: true), as: UTF8.self)
        #expect(head.hasSuffix("Content-Length: 2\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nConnection: close\r\n\r\n"))
        let refusal = String(decoding: HTTPResponse.refusal(.forbidden, "control needs the PIN").body, as: UTF8.self)
        #expect(refusal == "403 Forbidden: control needs the PIN\n")
        #expect(String(decoding: ServerSentEvents.event("line", data: "a\nb"), as: UTF8.self) == "event: line\ndata: a\ndata: b\n\n")
    }
}

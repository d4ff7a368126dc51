import GateCore
import GateProtocol

/// The parsers that take outside input, each as a function of one input's
/// bytes. A target must never trap: a bad input is a thrown error, which
/// is what it is for. libFuzzer calls them through `LLVMFuzzerTestOneInput`
/// (built with -sanitize=fuzzer, `Tests/Fuzz/fuzz.sh`); the plain build
/// replays saved inputs through them (`gate-fuzz TARGET FILE...`).
enum FuzzTargets {
    static let names = ["y4m", "mjpeg", "avi", "config", "results", "athletes", "message", "fragments", "att", "clocksync", "http"]

    static func run(_ name: String, _ bytes: [UInt8]) {
        switch name {
        case "y4m": y4m(bytes)
        case "mjpeg": mjpeg(bytes)
        case "avi": avi(bytes)
        case "config": config(bytes)
        case "results": _ = ResultsReader.parse(String(decoding: bytes, as: UTF8.self))
        case "athletes": _ = AthletesFile.parse(String(decoding: bytes, as: UTF8.self))
        case "message": _ = try? TimingMessage.decode(bytes)
        case "fragments": fragments(bytes)
        case "att": _ = try? ATTPDU.decode(bytes)
        case "clocksync": clockSync(bytes)
        case "http": http(bytes)
        default: fatalError("gate-fuzz: no target '" + name + "'")
        }
    }

    /// A Y4M clip, read to its end (or its first problem).
    static func y4m(_ bytes: [UInt8]) {
        guard let reader = try? Y4MReader(source: MemorySource(bytes)) else { return }
        var frames = 0
        while frames < 1000, let frame = try? reader.nextFrame() {
            _ = frame.pixels[0]
            frames += 1
        }
    }

    /// A raw MJPEG stream, its JPEGs split and scanned.
    static func mjpeg(_ bytes: [UInt8]) {
        guard let reader = try? MJPEGStreamReader(source: MemorySource(bytes),
                                                 frameRate: FrameRate(numerator: 120, denominator: 1)) else { return }
        var frames = 0
        while frames < 1000, let jpeg = try? reader.nextJPEG() {
            _ = jpeg.bytes.count
            frames += 1
        }
    }

    /// An MJPEG AVI, its chunks walked.
    static func avi(_ bytes: [UInt8]) {
        guard let reader = try? AVIReader(source: MemorySource(bytes)) else { return }
        var frames = 0
        while frames < 1000, let jpeg = try? reader.nextJPEG() {
            _ = jpeg.bytes.count
            frames += 1
        }
    }

    /// A configuration file: its lines, then the settings they set.
    static func config(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let entries = try? KeyValueFile.parse(text, file: "fuzz.conf") else { return }
        var settings = BoxSettings()
        _ = try? settings.apply(entries, file: "fuzz.conf")
    }

    /// Seed 002's fragments: the first byte sets the chunk size (1-64), the
    /// rest is cut into chunks and reassembled, each message decoded.
    static func fragments(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let size = Int(first % 64) + 1
        var reassembler = Reassembler()
        var i = 1
        while i < bytes.count {
            let chunk = Array(bytes[i..<min(bytes.count, i + size)])
            if let step = try? reassembler.accept(chunk), case .complete(let message) = step {
                _ = try? TimingMessage.decode(message)
            }
            i += size
        }
    }

    /// What a client sends the coach's page: the first byte sets how many
    /// bytes arrive at a time (1-64), as a connection reads them; every
    /// whole request is taken off the front (pipelining) and its form,
    /// query and cookie read, until the reader waits for more or refuses.
    static func http(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let step = Int(first % 64) + 1
        let limits = HTTPLimits(maxHeadBytes: 1024, maxHeaders: 16, maxBodyBytes: 256)
        var inbound: [UInt8] = []
        var i = 1
        while i < bytes.count {
            inbound += bytes[i..<min(bytes.count, i + step)]
            i += step
            while true {
                let result = inbound.withUnsafeBytes { HTTPRequestParser.parse($0, limits: limits) }
                guard case .request(let request, let consumed) = result else {
                    if case .refused = result { return }
                    break
                }
                precondition(consumed > 0 && consumed <= inbound.count, "a request must take bytes it was given")
                inbound.removeFirst(consumed)
                _ = HTTPRequest.formValue("pin", in: request.query)
                _ = HTTPRequest.formValue("pin", in: String(decoding: request.body, as: UTF8.self))
                _ = HTTPRequest.percentDecoded(Substring(request.path))
                _ = request.cookieValue("pin")
            }
        }
    }

    /// The binary clock sync packet, in both byte orders.
    static func clockSync(_ bytes: [UInt8]) {
        _ = try? ClockSyncPacket.parse(bytes, byteOrder: .littleEndian)
        _ = try? ClockSyncPacket.parse(bytes, byteOrder: .bigEndian)
    }
}

/// Bytes in memory as a ByteSource, handed out in pieces of at most 7 bytes
/// so that the readers' refills are exercised too.
struct MemorySource: ByteSource {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let n = min(buffer.count, 7, bytes.count - position)
        for k in 0..<n { buffer[k] = bytes[position + k] }
        position += n
        return n
    }
}

@testable import GateCore

/// JPEGs and AVIs made by hand, byte by byte: what the parsers look at
/// (markers, segment lengths, the frame header, chunks) without image data
/// a decoder would accept. Decoding is GateDevicesTests' business.
enum MJPEGTestInput {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// Entropy-coded data with a stuffed FF 00 and a restart marker in it,
    /// the two FF pairs that do not end a scan.
    static let entropy: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0x00, 0x78]

    /// SOI, an APP0 holding FF D9 (as an embedded thumbnail's end would), a
    /// quantisation table, SOF0 of three components with luma sampled
    /// `sampling` (0x21: 4:2:2), a scan, EOI.
    static func jpeg(width: Int = 64, height: Int = 48, sampling: UInt8 = 0x21, seed: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xE0, Array("JFIF".utf8) + [0, 0xFF, 0xD9, seed])
        bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                                3, 1, sampling, 0, 2, 0x11, 1, 3, 0x11, 1])
        bytes += segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0])
        return bytes + entropy + [seed, 0xFF, 0xD9]
    }

    static func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    static func chunk(_ id: String, _ data: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    static func list(_ type: String, _ body: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + body) }

    static func avih(microseconds: Int, width: Int = 64, height: Int = 48) -> [UInt8] {
        chunk("avih", le32(microseconds) + [UInt8](repeating: 0, count: 28) + le32(width) + le32(height)
              + [UInt8](repeating: 0, count: 16))
    }

    /// A stream's 'strl': its header (type, handler, scale, rate) and format.
    static func streamList(type: String, handler: String, scale: Int, rate: Int, compression: String? = nil) -> [UInt8] {
        let strh = Array(type.utf8) + Array(handler.utf8) + le32(0) + le16(0) + le16(0) + le32(0) + le32(scale)
            + le32(rate) + [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 0, count: 8)
        var strf = [UInt8]()
        if let compression {
            strf = le32(40) + le32(64) + le32(48) + le16(1) + le16(24) + Array(compression.utf8)
                + [UInt8](repeating: 0, count: 20)
        } else {
            strf = [UInt8](repeating: 0, count: 18) // an audio format
        }
        return list("strl", chunk("strh", strh) + chunk("strf", strf))
    }

    /// RIFF 'AVI ' with `header` inside 'hdrl' and `frames` inside 'movi',
    /// then an index (never read) and `after` (an 'AVIX' part).
    static func avi(header: [UInt8], frames: [UInt8], after: [UInt8] = []) -> [UInt8] {
        let body = Array("AVI ".utf8) + list("hdrl", header) + chunk("JUNK", [1, 2, 3]) + list("movi", frames)
            + chunk("idx1", [UInt8](repeating: 0, count: 16))
        return Array("RIFF".utf8) + le32(body.count) + body + after
    }

    /// An audio stream 0 and an MJPEG video stream 1 at 30000/1001 fps.
    static let twoStreams = avih(microseconds: 33_367)
        + streamList(type: "auds", handler: "\u{1}\0\0\0", scale: 1, rate: 48_000)
        + streamList(type: "vids", handler: "MJPG", scale: 1001, rate: 30_000, compression: "MJPG")
}

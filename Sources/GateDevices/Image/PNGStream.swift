import CGateShim
import GateCore

/// An 8-bit grey PNG written a few rows at a time, so that the box can
/// encode a picture in slices between frames instead of in one go (a 640x480
/// picture takes milliseconds, most of a frame at 120 fps).
///
/// Everything it needs is set up once: zlib's deflate state (reset, not
/// made again, for each picture), one row and one output chunk. Filled
/// chunks go to the file as IDAT chunks (PNG allows any number of them), so
/// memory stays a row and a chunk however big the picture. Photos are not
/// fsync'd: an SD card's fsync can take tens of milliseconds, and a photo
/// lost to a power cut costs no result.
public final class PNGStream {
    /// Compressed bytes per IDAT chunk.
    public static let chunkCapacity = 32 * 1024
    public let maxWidth: Int
    private let stream: UnsafeMutablePointer<z_stream>
    /// The filter byte, then the row's pixels.
    private let row: UnsafeMutablePointer<UInt8>
    /// An IDAT chunk as it is written: length, type, data, CRC.
    private let chunk: UnsafeMutablePointer<UInt8>
    private var file: FileDescriptor?
    private var path = ""
    public private(set) var width = 0
    public private(set) var height = 0
    public private(set) var rowsWritten = 0
    /// Bytes of the file being written (or the last one finished).
    public private(set) var fileBytes = 0

    /// nil when zlib cannot set up its state (out of memory).
    public init?(maxWidth: Int, level: Int32 = 1) {
        precondition(maxWidth > 0, "row width")
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard gate_deflate_init(stream, level) == Z_OK else {
            stream.deallocate()
            return nil
        }
        self.stream = stream
        self.maxWidth = maxWidth
        row = .allocate(capacity: maxWidth + 1)
        row.initialize(repeating: 0, count: maxWidth + 1)
        chunk = .allocate(capacity: PNGStream.chunkCapacity + 12)
        chunk.initialize(repeating: 0, count: PNGStream.chunkCapacity + 12)
    }

    deinit {
        abandon()
        deflateEnd(stream)
        stream.deallocate()
        row.deallocate()
        chunk.deallocate()
    }

    public var isOpen: Bool { file != nil }
    public var rowsLeft: Int { height - rowsWritten }
    /// Where the caller puts the next row's `width` pixels before `commitRow`.
    public var rowPixels: UnsafeMutablePointer<UInt8> { row + 1 }

    /// Starts a picture at `path` (replacing a file there): signature and IHDR.
    public func begin(path: String, width: Int, height: Int) throws(GateError) {
        precondition(file == nil && width > 0 && width <= maxWidth && height > 0, "picture size")
        do {
            file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
        } catch {
            throw GateError(path, error, doing: "creating the photo")
        }
        self.path = path
        self.width = width
        self.height = height
        rowsWritten = 0
        fileBytes = 0
        _ = deflateReset(stream)
        // Signature, then IHDR: 8-bit grey, deflate, adaptive filters, no interlace.
        for (i, byte) in PNG.signature.enumerated() { chunk[i] = byte }
        put32(13, at: 8)
        putType("IHDR", at: 12)
        put32(UInt32(width), at: 16)
        put32(UInt32(height), at: 20)
        chunk[24] = 8; chunk[25] = 0; chunk[26] = 0; chunk[27] = 0; chunk[28] = 0
        put32(crc(from: 12, count: 17), at: 29)
        try write(count: 33)
        resetOutput()
    }

    /// Compresses the row left in `rowPixels`, filtered with Sub (each byte
    /// minus its left neighbour: smooth grey pictures compress better so).
    public func commitRow() throws(GateError) {
        precondition(file != nil && rowsWritten < height, "no row expected")
        row[0] = 1
        var x = width
        while x > 1 {
            row[x] = row[x] &- row[x - 1]
            x -= 1
        }
        stream.pointee.next_in = row
        stream.pointee.avail_in = uInt(width + 1)
        while stream.pointee.avail_in > 0 {
            if stream.pointee.avail_out == 0 { try writeChunk() }
            let status = deflate(stream, Z_NO_FLUSH)
            guard status == Z_OK || status == Z_BUF_ERROR else { throw zlibFailed(status) }
        }
        rowsWritten += 1
    }

    /// After the last row: the rest of the stream, IEND, and the file closed.
    public func end() throws(GateError) {
        precondition(file != nil && rowsWritten == height, "rows missing")
        while true {
            if stream.pointee.avail_out == 0 { try writeChunk() }
            let status = deflate(stream, Z_FINISH)
            if status == Z_STREAM_END { break }
            guard status == Z_OK || status == Z_BUF_ERROR else { throw zlibFailed(status) }
        }
        try writeChunk()
        put32(0, at: 0)
        putType("IEND", at: 4)
        put32(crc(from: 4, count: 4), at: 8)
        try write(count: 12)
        file?.close()
        file = nil
    }

    /// Stops the picture in progress and removes its partial file.
    public func abandon() {
        guard let open = file else { return }
        open.close()
        file = nil
        _ = unlink(path)
    }

    private func resetOutput() {
        stream.pointee.next_out = chunk + 8
        stream.pointee.avail_out = uInt(PNGStream.chunkCapacity)
    }

    /// Writes what deflate has put out as one IDAT chunk.
    private func writeChunk() throws(GateError) {
        let count = PNGStream.chunkCapacity - Int(stream.pointee.avail_out)
        guard count > 0 else { return }
        put32(UInt32(count), at: 0)
        putType("IDAT", at: 4)
        put32(crc(from: 4, count: 4 + count), at: 8 + count)
        try write(count: 12 + count)
        resetOutput()
    }

    private func write(count: Int) throws(GateError) {
        guard let file else { return }
        do {
            try file.writeAll(UnsafeRawBufferPointer(start: chunk, count: count))
        } catch {
            abandon()
            throw GateError(path, error, doing: "writing the photo")
        }
        fileBytes += count
    }

    private func zlibFailed(_ status: Int32) -> GateError {
        abandon()
        return GateError(path, "zlib's deflate failed (status " + String(status) + ")")
    }

    private func put32(_ value: UInt32, at offset: Int) {
        chunk[offset] = UInt8(truncatingIfNeeded: value >> 24)
        chunk[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        chunk[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        chunk[offset + 3] = UInt8(truncatingIfNeeded: value)
    }

    private func putType(_ type: StaticString, at offset: Int) {
        let bytes = type.utf8Start
        for i in 0..<4 { chunk[offset + i] = bytes[i] }
    }

    private func crc(from offset: Int, count: Int) -> UInt32 {
        CRC32.checksum(UnsafeBufferPointer(start: chunk + offset, count: count))
    }
}

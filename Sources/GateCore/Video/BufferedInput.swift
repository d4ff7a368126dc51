/// Reads a `ByteSource` through one fixed buffer: text lines for headers,
/// exact byte counts for pixel planes. Tracks the offset of the next unread
/// byte so errors can say where they are. The buffer is allocated once;
/// nothing is allocated while reading. The owner calls `release()`.
struct BufferedInput<Source: ByteSource> {
    private(set) var source: Source
    private let storage: UnsafeMutableRawBufferPointer
    /// Unread bytes are storage[start..<end].
    private var start = 0
    private var end = 0
    private var sourceEnded = false
    /// Offset in the input of the next unread byte.
    private(set) var offset = 0

    init(source: Source, capacity: Int) {
        precondition(capacity > 0, "buffer capacity")
        self.source = source
        storage = .allocate(byteCount: capacity, alignment: 1)
    }

    func release() { storage.deallocate() }

    var capacity: Int { storage.count }

    /// Unread bytes already in the buffer.
    var buffered: Int { end - start }

    /// The unread byte `index` places ahead (index < buffered).
    func byte(at index: Int) -> UInt8 { storage[start + index] }

    /// The unread bytes already in the buffer, in place: valid until the
    /// next call that reads or consumes.
    var unread: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[start..<end]) }

    /// Up to `count` unread bytes, copied (for error messages).
    func peek(_ count: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(rebasing: storage[start..<(start + min(count, buffered))]))
    }

    /// Reads until at least `count` bytes are buffered or the input ends
    /// (count <= capacity); returns how many are buffered.
    mutating func ensure(_ count: Int) throws(ByteSourceError) -> Int {
        while buffered < count && !sourceEnded { try fill() }
        return buffered
    }

    /// Moves the unread bytes to the front and reads more behind them.
    private mutating func fill() throws(ByteSourceError) {
        if start > 0 {
            let unread = buffered
            if unread > 0 { storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: unread) }
            start = 0
            end = unread
        }
        guard end < storage.count else { return }
        let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
        if n == 0 { sourceEnded = true } else { end += n }
    }

    enum Line {
        /// The line without its newline; valid until the next call.
        case line(UnsafeRawBufferPointer)
        /// The input ended before a newline; `bytes` were left.
        case endOfInput(bytes: Int)
        /// No newline within `limit` bytes.
        case tooLong
    }

    /// Consumes one line, newline included. `limit` <= capacity.
    mutating func line(limit: Int) throws(ByteSourceError) -> Line {
        precondition(limit <= storage.count, "line limit beyond the buffer")
        var searched = 0
        while true {
            let window = min(buffered, limit)
            while searched < window {
                if storage[start + searched] == 0x0A {
                    let line = UnsafeRawBufferPointer(rebasing: storage[start..<(start + searched)])
                    consume(searched + 1)
                    return .line(line)
                }
                searched += 1
            }
            if searched >= limit { return .tooLong }
            if sourceEnded { return .endOfInput(bytes: buffered) }
            try fill()
        }
    }

    /// Copies the next `count` bytes to `target`; fewer only at the end of
    /// the input. Large reads go straight from the source to `target`.
    mutating func read(into target: UnsafeMutableRawPointer, count: Int) throws(ByteSourceError) -> Int {
        let fromBuffer = min(count, buffered)
        if fromBuffer > 0 {
            target.copyMemory(from: storage.baseAddress! + start, byteCount: fromBuffer)
            consume(fromBuffer)
        }
        var copied = fromBuffer
        while copied < count && !sourceEnded {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: target + copied, count: count - copied))
            if n == 0 { sourceEnded = true } else { copied += n; offset += n }
        }
        return copied
    }

    /// Discards the next `count` bytes; fewer only at the end of the input.
    mutating func skip(_ count: Int) throws(ByteSourceError) -> Int {
        var skipped = 0
        while skipped < count {
            if buffered == 0 {
                if sourceEnded { break }
                try fill()
                continue
            }
            let n = min(buffered, count - skipped)
            consume(n)
            skipped += n
        }
        return skipped
    }

    private mutating func consume(_ count: Int) {
        start += count
        offset += count
        if start == end { start = 0; end = 0 }
    }
}

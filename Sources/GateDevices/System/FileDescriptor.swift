import CGateShim

/// An open file descriptor; the owner closes it. Only the calls the box needs.
public struct FileDescriptor: Equatable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardOutput = FileDescriptor(rawValue: gate_stdout_fd())
    public static let standardError = FileDescriptor(rawValue: gate_stderr_fd())

    public struct OpenFlags: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let readOnly = OpenFlags(rawValue: O_RDONLY)
        public static let writeOnly = OpenFlags(rawValue: O_WRONLY)
        public static let readWrite = OpenFlags(rawValue: O_RDWR)
        public static let create = OpenFlags(rawValue: O_CREAT)
        public static let exclusive = OpenFlags(rawValue: O_EXCL)
        public static let append = OpenFlags(rawValue: O_APPEND)
        /// Empties an existing file: only for outputs a command regenerates, never for results.
        public static let truncate = OpenFlags(rawValue: O_TRUNC)
        public static let nonBlocking = OpenFlags(rawValue: O_NONBLOCK)
        public static let closeOnExec = OpenFlags(rawValue: O_CLOEXEC)
        public static let directory = OpenFlags(rawValue: O_DIRECTORY)
    }

    public static func open(_ path: String, _ flags: OpenFlags, permissions: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        let flags = flags.union(.closeOnExec)
        let fd = try retryingOnInterrupt { gate_open(path, flags.rawValue, mode_t(permissions)) }
        return FileDescriptor(rawValue: fd)
    }

    public func close() {
        // Linux releases the descriptor even when close reports EINTR: never retry.
        _ = CGateShim.close(rawValue)
    }

    /// Writes all of `bytes`, continuing after short writes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try retryingOnInterrupt { CGateShim.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset) }
            offset += n
        }
    }

    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        // withUnsafeBytes rethrows untyped errors; carry ours out by hand.
        var failure: Errno?
        bytes.withUnsafeBytes { raw in
            do throws(Errno) { try writeAll(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func writeAll(_ text: String) throws(Errno) {
        // withUTF8 rethrows untyped errors; carry ours out by hand.
        var text = text
        var failure: Errno?
        text.withUTF8 { bytes in
            do throws(Errno) { try writeAll(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { CGateShim.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Flushes data and metadata to the card before returning.
    public func sync() throws(Errno) {
        _ = try retryingOnInterrupt { fsync(rawValue) }
    }

    /// Reads a whole (small) file into a string.
    public static func readText(path: String) throws(Errno) -> String {
        String(decoding: try readBytes(path: path), as: UTF8.self)
    }

    /// Reads a whole (small) file.
    public static func readBytes(path: String) throws(Errno) -> [UInt8] {
        let fd = try open(path, .readOnly)
        defer { fd.close() }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try fd.read(into: chunk)
            if n == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
        return bytes
    }
}

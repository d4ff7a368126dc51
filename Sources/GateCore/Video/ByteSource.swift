/// Bytes read in order from somewhere (a file, a pipe, memory in a test).
/// The video readers parse through this, so the parsing stays pure and the
/// libc calls stay in GateDevices.
public protocol ByteSource {
    /// Reads up to `buffer.count` bytes into `buffer`; 0 at the end of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int
}

/// A read that failed, in words ("Input/output error").
public struct ByteSourceError: Error, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

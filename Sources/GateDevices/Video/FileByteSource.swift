import GateCore

/// A file (or pipe) read in order, for the video readers of GateCore.
/// The owner of the descriptor closes it.
public struct FileByteSource: ByteSource {
    public let descriptor: FileDescriptor

    public init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        do {
            return try descriptor.read(into: buffer)
        } catch {
            throw ByteSourceError(error.description)
        }
    }
}

/// A YUV4MPEG2 file read frame by frame.
public typealias Y4MFileReader = Y4MReader<FileByteSource>

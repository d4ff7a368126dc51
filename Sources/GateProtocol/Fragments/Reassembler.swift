/// What one chunk did.
public enum ReassemblyStep: Equatable, Sendable {
    /// Taken in; `received` of `count` fragments of the message so far.
    case incomplete(received: Int, count: Int)
    /// The message's last fragment: its bytes, whole.
    case complete([UInt8])
    /// A fragment already taken in (a repeated write, or a replay of the
    /// message just completed): ignored.
    case duplicate
}

/// Puts chunks made by Fragmenter back together, one message at a time, in
/// memory fixed at creation.
///
/// ATT over one link delivers writes and notifications in order, and every
/// chunk is a separate ATT PDU, so a fragment out of order means one was
/// lost: the reassembler does not reorder, it refuses the message (seed 002,
/// 7.2: the caller asks for it again). Any refused chunk drops the message in
/// progress, so the next one starts clean. A chunk with a new message id
/// abandons a half-received message (the sender gave up on it) and counts it
/// in `abandonedMessages`. Timeouts are the caller's: call `abandon()` when a
/// message has been incomplete for too long, and `reset()` on every new
/// connection, since the peer's ids start over with it.
public struct Reassembler: Sendable {
    public let maxMessageBytes: Int
    /// Messages dropped half-received: abandoned, refused or timed out.
    public private(set) var abandonedMessages = 0

    private var buffer: [UInt8]
    private var current: (messageId: UInt8, count: UInt8, nextIndex: UInt8)?
    private var lastCompletedId: UInt8?

    /// `maxMessageBytes` is allocated once, here; a larger message is refused.
    public init(maxMessageBytes: Int = 16_384) {
        self.maxMessageBytes = maxMessageBytes
        buffer = []
        buffer.reserveCapacity(maxMessageBytes)
    }

    /// True while a message is half-received.
    public var isReceiving: Bool { current != nil }

    /// Takes in one ATT write or notification.
    public mutating func accept(_ chunk: [UInt8]) throws(FragmentError) -> ReassemblyStep {
        do {
            return try take(chunk)
        } catch {
            abandon()
            throw error
        }
    }

    /// Drops the half-received message, if any (the caller's timeout).
    public mutating func abandon() {
        if current != nil { abandonedMessages += 1 }
        current = nil
        buffer.removeAll(keepingCapacity: true)
    }

    /// Forgets everything but the count of abandoned messages: for a new connection.
    public mutating func reset() {
        abandon()
        lastCompletedId = nil
    }

    private mutating func take(_ chunk: [UInt8]) throws(FragmentError) -> ReassemblyStep {
        guard chunk.count > FragmentHeader.byteCount else { throw .chunkTooShort(bytes: chunk.count) }
        let header = FragmentHeader(messageId: chunk[0], index: chunk[1], count: chunk[2])
        guard header.count > 0 else { throw .zeroFragmentCount(messageId: header.messageId) }
        guard header.index < header.count else {
            throw .indexOutOfRange(messageId: header.messageId, index: header.index, count: header.count)
        }

        if let progress = current, progress.messageId == header.messageId {
            guard header.count == progress.count else {
                throw .countChanged(messageId: header.messageId, was: progress.count, now: header.count)
            }
            if header.index < progress.nextIndex { return .duplicate }
            guard header.index == progress.nextIndex else {
                throw .gap(messageId: header.messageId, expected: progress.nextIndex, got: header.index)
            }
        } else {
            if header.messageId == lastCompletedId { return .duplicate }
            abandon()
            guard header.index == 0 else { throw .missingStart(messageId: header.messageId, index: header.index) }
            current = (messageId: header.messageId, count: header.count, nextIndex: 0)
        }

        let body = chunk.count - FragmentHeader.byteCount
        guard buffer.count + body <= maxMessageBytes else {
            throw .messageTooLarge(bytes: buffer.count + body, limit: maxMessageBytes)
        }
        buffer.append(contentsOf: chunk[FragmentHeader.byteCount...])
        let received = header.index + 1
        if received < header.count {
            current = (messageId: header.messageId, count: header.count, nextIndex: received)
            return .incomplete(received: Int(received), count: Int(header.count))
        }
        // A copy of just the bytes, so the buffer stays this struct's alone and
        // keeps its capacity: the only allocation per message.
        let message = Array(buffer[0..<buffer.count])
        current = nil
        lastCompletedId = header.messageId
        buffer.removeAll(keepingCapacity: true)
        return .complete(message)
    }
}

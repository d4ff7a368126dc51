/// Splits a message into ATT-sized chunks, each with a FragmentHeader.
public struct Fragmenter: Sendable {
    /// The id the next message will carry; it rolls over from 255 to 0, so
    /// two messages in a row never share one.
    public private(set) var nextMessageId: UInt8

    public init(firstMessageId: UInt8 = 0) { nextMessageId = firstMessageId }

    /// The chunks of `message`, in order, each at most `attPayloadSize` bytes
    /// (MTU - 3: 20 at the default MTU of 23, 509 at 512). Takes the next id.
    public mutating func fragments(of message: [UInt8], attPayloadSize: Int) throws(FragmentError) -> [[UInt8]] {
        let chunks = try Fragmenter.fragments(of: message, messageId: nextMessageId, attPayloadSize: attPayloadSize)
        nextMessageId &+= 1
        return chunks
    }

    /// The most message bytes one message may hold at this payload size.
    public static func maxMessageBytes(attPayloadSize: Int) -> Int {
        (attPayloadSize - FragmentHeader.byteCount) * FragmentHeader.maxFragments
    }

    public static func fragments(of message: [UInt8], messageId: UInt8, attPayloadSize: Int) throws(FragmentError) -> [[UInt8]] {
        guard attPayloadSize > FragmentHeader.byteCount, attPayloadSize <= FragmentHeader.maxAttPayload else {
            throw .payloadSizeOutOfRange(attPayloadSize)
        }
        guard !message.isEmpty else { throw .emptyMessage }
        let limit = maxMessageBytes(attPayloadSize: attPayloadSize)
        guard message.count <= limit else { throw .messageTooLarge(bytes: message.count, limit: limit) }

        let chunkBytes = attPayloadSize - FragmentHeader.byteCount
        let count = (message.count + chunkBytes - 1) / chunkBytes
        var chunks: [[UInt8]] = []
        chunks.reserveCapacity(count)
        var start = 0
        for index in 0..<count {
            let end = min(start + chunkBytes, message.count)
            var chunk: [UInt8] = []
            chunk.reserveCapacity(FragmentHeader.byteCount + end - start)
            chunk.append(messageId)
            chunk.append(UInt8(index))
            chunk.append(UInt8(count))
            chunk.append(contentsOf: message[start..<end])
            chunks.append(chunk)
            start = end
        }
        return chunks
    }
}

/// The header in front of every chunk of a message sent over ATT (seed 002,
/// 2.3 says only "include sequence number and total count"):
///
///     byte 0  message id      rolling 0-255, one per message the sender sends
///     byte 1  fragment index  0 ..< count
///     byte 2  fragment count  1 ... 255
///     byte 3- the chunk       at least one byte
///
/// The id lets a receiver tell a new message from the rest of the current one
/// (a sender that gave up halfway starts a new id) and a replayed chunk of the
/// message just completed from a new message. A message that fits in one ATT
/// payload still carries the header, count 1: every write or notification then
/// reads the same way, and a chunk from the middle of a message (which may
/// well start with '{') can never pass for a whole one. Three bytes of 20 at
/// the default MTU cost 15%; at MTU 512, under 1%.
public struct FragmentHeader: Equatable, Sendable {
    public static let byteCount = 3
    /// 255 fragments of 509 bytes at MTU 512: just under 127 KiB.
    public static let maxFragments = 255
    /// The largest ATT payload: an attribute value holds at most 512 bytes.
    public static let maxAttPayload = 512

    public var messageId: UInt8
    public var index: UInt8
    public var count: UInt8

    public init(messageId: UInt8, index: UInt8, count: UInt8) {
        self.messageId = messageId
        self.index = index
        self.count = count
    }
}

/// Why a message cannot be split, or a chunk cannot be taken in.
public enum FragmentError: Error, Equatable, Sendable {
    /// The ATT payload (MTU - 3) must hold the header and one byte, and at
    /// most 512 bytes.
    case payloadSizeOutOfRange(Int)
    case emptyMessage
    /// More bytes than the limit: 255 fragments, or the reassembler's buffer.
    case messageTooLarge(bytes: Int, limit: Int)
    /// A chunk without its header and at least one byte of message.
    case chunkTooShort(bytes: Int)
    case zeroFragmentCount(messageId: UInt8)
    case indexOutOfRange(messageId: UInt8, index: UInt8, count: UInt8)
    /// A message's first chunk to arrive was not fragment 0: its start was lost.
    case missingStart(messageId: UInt8, index: UInt8)
    case countChanged(messageId: UInt8, was: UInt8, now: UInt8)
    /// A fragment came after a lost one; the message is dropped.
    case gap(messageId: UInt8, expected: UInt8, got: UInt8)

    public var description: String {
        switch self {
        case .payloadSizeOutOfRange(let size):
            return "ATT payload of " + String(size) + " bytes: expected " + String(FragmentHeader.byteCount + 1)
                + " to " + String(FragmentHeader.maxAttPayload)
        case .emptyMessage:
            return "an empty message has nothing to send"
        case .messageTooLarge(let bytes, let limit):
            return "message of " + String(bytes) + " bytes: expected at most " + String(limit)
        case .chunkTooShort(let bytes):
            return "chunk of " + String(bytes) + " bytes: expected a " + String(FragmentHeader.byteCount)
                + "-byte header and at least one byte"
        case .zeroFragmentCount(let id):
            return "message " + String(id) + ": fragment count 0, expected 1 to 255"
        case .indexOutOfRange(let id, let index, let count):
            return "message " + String(id) + ": fragment " + String(index) + " of " + String(count)
                + ", expected an index below the count"
        case .missingStart(let id, let index):
            return "message " + String(id) + ": fragment " + String(index) + " arrived first, expected fragment 0"
        case .countChanged(let id, let was, let now):
            return "message " + String(id) + ": fragment count " + String(now) + ", expected " + String(was) + " as before"
        case .gap(let id, let expected, let got):
            return "message " + String(id) + ": fragment " + String(got) + ", expected " + String(expected)
                + " (one was lost); the message is dropped"
        }
    }
}

import Testing
@testable import GateProtocol

/// Fragmentation as raw bytes on the wire: [message id, index, count, chunk...].
@Suite struct FragmentTests {
    static func message(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) } }

    static func feed(_ reassembler: inout Reassembler, _ chunks: [[UInt8]]) throws -> [ReassemblyStep] {
        var steps: [ReassemblyStep] = []
        for chunk in chunks { steps.append(try reassembler.accept(chunk)) }
        return steps
    }

    static func refusal(_ reassembler: inout Reassembler, _ chunk: [UInt8]) -> FragmentError? {
        do {
            _ = try reassembler.accept(chunk)
            return nil
        } catch {
            return error
        }
    }

    @Test func aShortMessageIsOneChunkWithItsHeader() throws {
        let chunks = try Fragmenter.fragments(of: Array("{}".utf8), messageId: 9, attPayloadSize: 20)
        #expect(chunks == [[9, 0, 1, 0x7B, 0x7D]])
    }

    @Test func defaultMtuSplitsIntoSeventeenByteChunks() throws {
        let bytes = Self.message(40)
        let chunks = try Fragmenter.fragments(of: bytes, messageId: 200, attPayloadSize: 20)
        #expect(chunks.count == 3)
        #expect(chunks[0] == [200, 0, 3] + Array(bytes[0..<17]))
        #expect(chunks[1] == [200, 1, 3] + Array(bytes[17..<34]))
        #expect(chunks[2] == [200, 2, 3] + Array(bytes[34..<40]))
        #expect(chunks.allSatisfy { $0.count <= 20 })

        var reassembler = Reassembler()
        #expect(try Self.feed(&reassembler, chunks) == [.incomplete(received: 1, count: 3), .incomplete(received: 2, count: 3), .complete(bytes)])
        #expect(!reassembler.isReceiving)
    }

    @Test func aSeedMessageCrossesMtu23AndMtu512() throws {
        let text = try TimingMessage.decode(SeedExamples.sessionJoinAccepted).encoded()
        for payloadSize in [20, 509] {
            var fragmenter = Fragmenter(firstMessageId: 255)
            let chunks = try fragmenter.fragments(of: text, attPayloadSize: payloadSize)
            #expect(fragmenter.nextMessageId == 0, "the id rolls over")
            #expect(chunks.count == (text.count + payloadSize - 4) / (payloadSize - 3))
            #expect(chunks.allSatisfy { $0.count <= payloadSize && $0[0] == 255 })
            var reassembler = Reassembler()
            guard case .complete(let whole)? = try Self.feed(&reassembler, chunks).last else {
                Issue.record("not reassembled at payload size \(payloadSize)")
                continue
            }
            #expect(try TimingMessage.decode(whole) == TimingMessage.decode(SeedExamples.sessionJoinAccepted))
        }
    }

    @Test func fragmenterLimits() {
        #expect(throws: FragmentError.payloadSizeOutOfRange(3)) { try Fragmenter.fragments(of: [1], messageId: 0, attPayloadSize: 3) }
        #expect(throws: FragmentError.payloadSizeOutOfRange(513)) { try Fragmenter.fragments(of: [1], messageId: 0, attPayloadSize: 513) }
        #expect(throws: FragmentError.emptyMessage) { try Fragmenter.fragments(of: [], messageId: 0, attPayloadSize: 20) }
        #expect(Fragmenter.maxMessageBytes(attPayloadSize: 20) == 17 * 255)
        #expect(throws: FragmentError.messageTooLarge(bytes: 17 * 255 + 1, limit: 17 * 255)) {
            try Fragmenter.fragments(of: Self.message(17 * 255 + 1), messageId: 0, attPayloadSize: 20)
        }
        let largest = try? Fragmenter.fragments(of: Self.message(509 * 255), messageId: 1, attPayloadSize: 512)
        #expect(largest?.count == 255)
        #expect(largest?.last?[1] == 254)
        #expect(largest?.last?[2] == 255)
    }

    @Test func duplicatesAreIgnored() throws {
        var reassembler = Reassembler()
        #expect(try reassembler.accept([4, 0, 2, 0xAA]) == .incomplete(received: 1, count: 2))
        #expect(try reassembler.accept([4, 0, 2, 0xAA]) == .duplicate)
        #expect(try reassembler.accept([4, 1, 2, 0xBB]) == .complete([0xAA, 0xBB]))
        // A replay of the message just completed, whole or in part.
        #expect(try reassembler.accept([4, 1, 2, 0xBB]) == .duplicate)
        #expect(try reassembler.accept([4, 0, 2, 0xAA]) == .duplicate)
        #expect(try reassembler.accept([5, 0, 1, 0xCC]) == .complete([0xCC]))
        #expect(try reassembler.accept([5, 0, 1, 0xCC]) == .duplicate)
        // After a reconnection the peer's ids start over: reset forgets them.
        reassembler.reset()
        #expect(try reassembler.accept([5, 0, 1, 0xCC]) == .complete([0xCC]))
        #expect(reassembler.abandonedMessages == 0)
    }

    @Test func aNewMessageIdAbandonsAHalfReceivedOne() throws {
        var reassembler = Reassembler()
        #expect(try reassembler.accept([1, 0, 3, 0x10]) == .incomplete(received: 1, count: 3))
        #expect(try reassembler.accept([2, 0, 2, 0x20]) == .incomplete(received: 1, count: 2))
        #expect(reassembler.abandonedMessages == 1)
        #expect(try reassembler.accept([2, 1, 2, 0x21]) == .complete([0x20, 0x21]))
        // The rest of the abandoned message is refused: its start was dropped.
        #expect(Self.refusal(&reassembler, [1, 1, 3, 0x11]) == .missingStart(messageId: 1, index: 1))
    }

    @Test func aLostFragmentDropsTheMessage() throws {
        var reassembler = Reassembler()
        _ = try reassembler.accept([7, 0, 4, 0x01])
        let error = Self.refusal(&reassembler, [7, 2, 4, 0x03])
        #expect(error == .gap(messageId: 7, expected: 1, got: 2))
        #expect(error?.description == "message 7: fragment 2, expected 1 (one was lost); the message is dropped")
        #expect(!reassembler.isReceiving)
        #expect(reassembler.abandonedMessages == 1)
        #expect(Self.refusal(&reassembler, [7, 3, 4, 0x04]) == .missingStart(messageId: 7, index: 3))
        // The sender's retransmission under a new id goes through.
        let chunks = try Fragmenter.fragments(of: [1, 2, 3, 4], messageId: 8, attPayloadSize: 4)
        #expect(try Self.feed(&reassembler, chunks).last == .complete([1, 2, 3, 4]))
    }

    @Test func malformedChunksAreRefusedByName() throws {
        var reassembler = Reassembler()
        #expect(Self.refusal(&reassembler, []) == .chunkTooShort(bytes: 0))
        #expect(Self.refusal(&reassembler, [1, 0, 1]) == .chunkTooShort(bytes: 3))
        #expect(Self.refusal(&reassembler, [1, 0, 0, 9]) == .zeroFragmentCount(messageId: 1))
        #expect(Self.refusal(&reassembler, [1, 3, 3, 9]) == .indexOutOfRange(messageId: 1, index: 3, count: 3))
        _ = try reassembler.accept([2, 0, 3, 9])
        #expect(Self.refusal(&reassembler, [2, 1, 4, 9]) == .countChanged(messageId: 2, was: 3, now: 4))
        #expect(reassembler.abandonedMessages == 1)
    }

    @Test func memoryIsBounded() throws {
        var reassembler = Reassembler(maxMessageBytes: 40)
        let chunks = try Fragmenter.fragments(of: Self.message(41), messageId: 3, attPayloadSize: 20)
        #expect(try reassembler.accept(chunks[0]) == .incomplete(received: 1, count: 3))
        #expect(try reassembler.accept(chunks[1]) == .incomplete(received: 2, count: 3))
        #expect(Self.refusal(&reassembler, chunks[2]) == .messageTooLarge(bytes: 41, limit: 40))
        let fits = try Fragmenter.fragments(of: Self.message(40), messageId: 4, attPayloadSize: 20)
        #expect(try Self.feed(&reassembler, fits).last == .complete(Self.message(40)))
    }

    @Test func theCallersTimeoutAbandons() throws {
        var reassembler = Reassembler()
        _ = try reassembler.accept([1, 0, 2, 0x10])
        #expect(reassembler.isReceiving)
        reassembler.abandon()
        #expect(!reassembler.isReceiving)
        #expect(reassembler.abandonedMessages == 1)
        #expect(Self.refusal(&reassembler, [1, 1, 2, 0x11]) == .missingStart(messageId: 1, index: 1))
    }
}

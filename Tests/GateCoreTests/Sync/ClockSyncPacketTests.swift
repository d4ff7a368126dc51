import Testing
@testable import GateCore

@Suite struct ClockSyncPacketTests {
    let t1: Int64 = 0x0102_0304_0506_0708

    @Test func theBoxSendsTenBytePingsLittleEndian() throws {
        let bytes = ClockSyncPacket.ping(sequence: 7, t1: t1).bytes()
        #expect(bytes == [0x01, 7, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
    }

    @Test func pongIsTwentySixBytesWithT1AtOffsetTwo() throws {
        let bytes = ClockSyncPacket.pong(sequence: 200, t1: t1, t2: 2, t3: -1).bytes()
        #expect(bytes.count == 26)
        #expect(Array(bytes[0..<2]) == [0x02, 200])
        #expect(Array(bytes[2..<10]) == [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
        #expect(Array(bytes[10..<18]) == [2, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(bytes[18..<26]) == [UInt8](repeating: 0xFF, count: 8))
        #expect(try ClockSyncPacket.parse(bytes) == .pong(sequence: 200, t1: t1, t2: 2, t3: -1))
    }

    @Test func twoBytePingIsAnsweredWithT1Zero() throws {
        let ping = try ClockSyncPacket.parse([0x01, 42])
        #expect(ping == .ping(sequence: 42, t1: nil))
        let pong = try #require(ping.reply(t2: 100, t3: 150))
        #expect(pong == .pong(sequence: 42, t1: 0, t2: 100, t3: 150))
        #expect(pong.bytes().count == 26)
    }

    @Test func tenAndTwentySixBytePingsCarryT1() throws {
        let ten: [UInt8] = [0x01, 9, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]
        #expect(try ClockSyncPacket.parse(ten) == .ping(sequence: 9, t1: t1))
        // A phone reusing one 26-byte buffer: t2 and t3 are ignored.
        let padded = ten + [UInt8](repeating: 0xAA, count: 16)
        #expect(try ClockSyncPacket.parse(padded) == .ping(sequence: 9, t1: t1))
    }

    @Test func section21FieldsFormHasNoSequenceAndIsAnsweredInKind() throws {
        // Section 2.1's fields, type + t1 + t2 + t3: 25 bytes.
        var bytes: [UInt8] = [0x01, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]
        bytes += [UInt8](repeating: 0, count: 16)
        let ping = try ClockSyncPacket.parse(bytes)
        #expect(ping == .ping(sequence: nil, t1: t1))
        let form = try #require(ClockSyncPacket.unsequencedForm(ofLength: bytes.count))
        let pong = try #require(ping.reply(t2: 5, t3: 6))
        let out = pong.bytes(unsequencedForm: form)
        #expect(out.count == 25)
        #expect(out[0] == 0x02 && Array(out[1..<9]) == Array(bytes[1..<9]))
        #expect(try ClockSyncPacket.parse(out) == .pong(sequence: nil, t1: t1, t2: 5, t3: 6))
    }

    @Test func section21TotalFormHasNoTypeByte() throws {
        // Section 2.1's total, 24 bytes: t1 + t2 + t3, whatever the first byte.
        var bytes: [UInt8] = [0x02, 0, 0, 0, 0, 0, 0, 0]
        bytes += [UInt8](repeating: 0, count: 16)
        let ping = try ClockSyncPacket.parse(bytes)
        #expect(ping == .ping(sequence: nil, t1: 2))
        #expect(ClockSyncPacket.unsequencedForm(ofLength: 24) == .untyped)
        #expect(ClockSyncPacket.unsequencedForm(ofLength: 26) == nil)
        let out = try #require(ping.reply(t2: -1, t3: 7)).bytes(unsequencedForm: .untyped)
        #expect(out == [2, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8) + [7, 0, 0, 0, 0, 0, 0, 0])
        #expect(try ClockSyncPacket.parse(out) == .pong(sequence: nil, t1: 2, t2: -1, t3: 7))
        #expect(ClockSyncPacket.echoByteOrder(of: out, sentT1: 2) == .littleEndian)
    }

    @Test func bigEndianPeersAreReadAndToldApart() throws {
        let pong = ClockSyncPacket.pong(sequence: 1, t1: t1, t2: 3, t3: 4)
        let big = pong.bytes(byteOrder: .bigEndian)
        #expect(Array(big[2..<10]) == [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
        #expect(try ClockSyncPacket.parse(big, byteOrder: .bigEndian) == pong)
        #expect(ClockSyncPacket.echoByteOrder(of: big, sentT1: t1) == .bigEndian)
        #expect(ClockSyncPacket.echoByteOrder(of: pong.bytes(), sentT1: t1) == .littleEndian)
        #expect(ClockSyncPacket.echoByteOrder(of: pong.bytes(), sentT1: 5) == nil)
    }

    @Test func followUpCarriesAPreciseSendStamp() throws {
        let packet = ClockSyncPacket.followUp(sequence: 3, of: .pong, preciseSendNanos: -2)
        let bytes = packet.bytes()
        #expect(bytes == [0x03, 3, 0x02, 0xFE] + [UInt8](repeating: 0xFF, count: 7))
        #expect(try ClockSyncPacket.parse(bytes) == packet)
        #expect(ClockSyncCapability.preciseClockSync == "preciseClockSync")
    }

    @Test func wrongPacketsAreNamed() throws {
        #expect(throws: ClockSyncPacketError.empty) { try ClockSyncPacket.parse([]) }
        #expect(throws: ClockSyncPacketError.unknownType(0x09, length: 2)) { try ClockSyncPacket.parse([0x09, 1]) }
        #expect(throws: ClockSyncPacketError.wrongLength(type: .pong, length: 10)) {
            try ClockSyncPacket.parse([0x02] + [UInt8](repeating: 0, count: 9))
        }
        #expect(throws: ClockSyncPacketError.wrongLength(type: .ping, length: 9)) {
            try ClockSyncPacket.parse([0x01] + [UInt8](repeating: 0, count: 8))
        }
        #expect(throws: ClockSyncPacketError.followUpOfUnknownType(0x03)) {
            try ClockSyncPacket.parse([0x03, 1, 0x03] + [UInt8](repeating: 0, count: 8))
        }
        #expect(ClockSyncPacketError.wrongLength(type: .pong, length: 10).message
                == "clock sync: PONG of 10 bytes; a PONG has 25 or 26 (or 24 untyped)")
        #expect(ClockSyncPacketError.unknownType(0xA5, length: 3).message.hasPrefix("clock sync: unknown packet type 0xa5 (3 bytes)"))
    }

    @Test func encodeAppendsWithoutGrowingAKeptBuffer() throws {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(32)
        let capacity = buffer.capacity
        for sequence in UInt8(0)..<10 {
            buffer.removeAll(keepingCapacity: true)
            ClockSyncPacket.pong(sequence: sequence, t1: 1, t2: 2, t3: 3).encode(into: &buffer)
            #expect(buffer.count == ClockSyncPacket.pongCount)
        }
        #expect(buffer.capacity == capacity)
    }
}

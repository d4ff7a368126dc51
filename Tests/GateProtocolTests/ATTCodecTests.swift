import Testing
@testable import GateProtocol

/// The ATT codec alone: UUIDs, every opcode's bytes both ways, and the
/// lengths the opcode table refuses.
@Suite struct ATTCodecTests {
    @Test func uuidsReadFromTextAndWire() throws {
        let service = try #require(ATTUUID("12345678-1234-1000-8000-00805F9B34FB"))
        #expect(service == GateGATTUUID.service)
        #expect(service.short == nil)
        #expect(service.description == "12345678-1234-1000-8000-00805F9B34FB")
        var wire: [UInt8] = []
        service.append(to: &wire)
        #expect(wire == WireUUID.service)
        #expect(ATTUUID(wire: wire[...]) == service)

        // A 16-bit UUID is the same value as its 128-bit spelling, and goes out in 2 bytes.
        let primary = try #require(ATTUUID("00002800-0000-1000-8000-00805f9b34fb"))
        #expect(primary == .primaryService)
        #expect(primary.short == 0x2800)
        var short: [UInt8] = []
        primary.append(to: &short)
        #expect(short == [0x00, 0x28])
        var long: [UInt8] = []
        primary.append128(to: &long)
        #expect(ATTUUID(wire: long[...]) == .primaryService)
        #expect(ATTUUID.primaryService.description == "0x2800")

        #expect(ATTUUID("12345678-1234-1000-8000-00805F9B34F") == nil)
        #expect(ATTUUID("12345678-1234-1000-8000-00805F9B34FBA") == nil)
        #expect(ATTUUID("g2345678-1234-1000-8000-00805F9B34FB") == nil)
        #expect(ATTUUID(wire: [1, 2, 3][...]) == nil)
    }

    /// Each PDU, its bytes, and back.
    static let vectors: [(ATTPDU, String)] = [
        (.errorResponse(request: 0x0A, handle: 0x0010, error: .invalidHandle), "01 0A 10 00 01"),
        (.exchangeMTURequest(clientMTU: 512), "02 00 02"),
        (.exchangeMTUResponse(serverMTU: 23), "03 17 00"),
        (.findInformationRequest(start: 1, end: 0xFFFF), "04 01 00 FF FF"),
        (.findInformationResponse([ATTHandleUUID(handle: 0x0A, uuid: .clientCharacteristicConfiguration)]), "05 01 0A 00 02 29"),
        (.findInformationResponse([ATTHandleUUID(handle: 0x09, uuid: GateGATTUUID.timingMessages)]),
         "05 02 09 00 " + hexText(WireUUID.timingMessages)),
        (.findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: [0x00, 0x18]), "06 01 00 FF FF 00 28 00 18"),
        (.findByTypeValueResponse([ATTGroup(start: 1, end: 5), ATTGroup(start: 7, end: 0xFFFF)]), "07 01 00 05 00 07 00 FF FF"),
        (.readByTypeRequest(start: 1, end: 0xFFFF, type: .characteristic), "08 01 00 FF FF 03 28"),
        (.readByTypeRequest(start: 1, end: 0xFFFF, type: GateGATTUUID.deviceInfo), "08 01 00 FF FF " + hexText(WireUUID.deviceInfo)),
        (.readByTypeResponse([ATTHandleValue(handle: 2, value: [0x02, 0x03, 0x00, 0x00, 0x2A])]), "09 07 02 00 02 03 00 00 2A"),
        (.readRequest(handle: 3), "0A 03 00"),
        (.readResponse([0x41, 0x42]), "0B 41 42"),
        (.readBlobRequest(handle: 0x0C, offset: 22), "0C 0C 00 16 00"),
        (.readBlobResponse([]), "0D"),
        (.readMultipleRequest([3, 5]), "0E 03 00 05 00"),
        (.readMultipleResponse([1]), "0F 01"),
        (.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService), "10 01 00 FF FF 00 28"),
        (.readByGroupTypeResponse([ATTGroup(start: 1, end: 5, value: [0x00, 0x18])]), "11 06 01 00 05 00 00 18"),
        (.writeRequest(handle: 0x0A, value: [0x01, 0x00]), "12 0A 00 01 00"),
        (.writeResponse, "13"),
        (.writeCommand(handle: 0x0E, value: [0x01, 0x07]), "52 0E 00 01 07"),
        (.signedWriteCommand(handle: 0x0E, value: [0x01], signature: Array(repeating: 0xAA, count: 12)),
         "D2 0E 00 01 AA AA AA AA AA AA AA AA AA AA AA AA"),
        (.prepareWriteRequest(handle: 9, offset: 18, value: [0x7B]), "16 09 00 12 00 7B"),
        (.prepareWriteResponse(handle: 9, offset: 0, value: []), "17 09 00 00 00"),
        (.executeWriteRequest(write: true), "18 01"),
        (.executeWriteRequest(write: false), "18 00"),
        (.executeWriteResponse, "19"),
        (.notification(handle: 9, value: [0x00, 0x00, 0x01, 0x7B]), "1B 09 00 00 00 01 7B"),
        (.indication(handle: 9, value: [0x01]), "1D 09 00 01"),
        (.confirmation, "1E"),
        (.other(opcode: 0x20, parameters: [0x03, 0x00, 0x05, 0x00]), "20 03 00 05 00"),
        (.other(opcode: 0x7F, parameters: [0x01]), "7F 01"),
    ]

    @Test func everyOpcodeEncodesAndDecodes() throws {
        for (pdu, bytes) in Self.vectors {
            #expect(hexText(pdu.encoded()) == bytes)
            #expect(try ATTPDU.decode(hex(bytes)) == pdu, "\(bytes)")
        }
    }

    /// Lengths and lists the table and decoder refuse.
    @Test(arguments: ["0A 03", "0A 03 00 00", "02 00", "04 01 00 FF", "08 01 00 FF FF 03 28 00", "10 01 00 FF FF 00",
                      "05 03 01 00 00 28", "05 01 01 00 00", "07 01 00 05", "09 07 02 00 02", "09 01 02 00",
                      "11 03 01 00", "18 02", "18", "13 00", "1E 00", "12 09", "D2 0E 00 01", "01 0A 00 00"])
    func malformedPDUsAreRefused(_ bytes: String) {
        #expect(throws: ATTDecodeError.malformed(opcode: hex(bytes)[0])) { try ATTPDU.decode(hex(bytes)) }
    }

    @Test func theTableSaysWhoTakesWhat() {
        #expect(ATTOpcode.route(0x0A) == .server)
        #expect(ATTOpcode.route(0x52) == .server)
        #expect(ATTOpcode.route(0x1E) == .server)
        #expect(ATTOpcode.route(0x0B) == .client)
        #expect(ATTOpcode.route(0x01) == .client)
        #expect(ATTOpcode.route(0x1B) == .client)
        #expect(ATTOpcode.route(0x1D) == .client)
        #expect(ATTOpcode.kind(0x3F) == .request, "unknown, no command bit: answered Request Not Supported")
        #expect(ATTOpcode.kind(0x7F) == .command, "unknown with the command bit: dropped")
        #expect(throws: ATTDecodeError.empty) { try ATTPDU.decode([]) }
        // Every request in the table names a response that is in the table too.
        for row in ATTOpcode.table where row.kind == .request {
            let response = ATTOpcode.info(row.response ?? 0)
            #expect(response?.kind == .response, "\(row.name)")
        }
    }
}

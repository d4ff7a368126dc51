import Testing
@testable import GateDevices

/// The byte layouts of mgmt, HCI and advertising data, checked against
/// packets as the kernel writes them (mgmt-api.txt, Core Specification).
@Suite struct BluetoothPacketTests {
    let hci1 = BluetoothAddress(text: "00:AA:01:01:00:01")!

    @Test func addressesAreLeastSignificantByteFirst() {
        #expect(hci1.bytes == [0x01, 0x00, 0x01, 0x01, 0xAA, 0x00])
        #expect(hci1.text == "00:AA:01:01:00:01")
        #expect(hci1.shortSuffix == "0001")
        #expect(BluetoothAddress(text: "00:AA:01:01:00") == nil)
        #expect(BluetoothAddress(text: "00:AA:01:01:00:0G") == nil)
    }

    @Test func commandsHaveTheirHeader() {
        #expect(MgmtCommand.setPowered(1, true).bytes == [0x05, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01])
        #expect(MgmtCommand.startDiscovery(0).bytes == [0x23, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06])
        #expect(MgmtCommand.readIndexList().bytes == [0x03, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        #expect(MgmtCommand.userConfirmReply(0, hci1, accept: true).bytes
                == [0x1C, 0x00, 0x00, 0x00, 0x07, 0x00, 0x01, 0x00, 0x01, 0x01, 0xAA, 0x00, 0x01])
    }

    @Test func addAdvertisingPutsTheUUIDInTheDataAndALongNameInTheScanResponse() {
        let uuid = AdvertisingData.uuid(gateServiceUUIDText)!
        #expect(AdvertisingData.uuidText(uuid) == gateServiceUUIDText)
        let data = AdvertisingData.encode(serviceUUID: uuid, name: "ts-gate-3F2A")
        #expect(data.advertising.count == 18)
        #expect(data.advertising[0] == 17 && data.advertising[1] == 0x07 && data.advertising[2] == 0xFB && data.advertising[17] == 0x12)
        #expect(data.scanResponse == [13, 0x09] + Array("ts-gate-3F2A".utf8))
        let short = AdvertisingData.encode(serviceUUID: uuid, name: "gate")
        #expect(short.scanResponse.isEmpty && short.advertising.count == 24)
        let command = MgmtCommand.addAdvertising(1, instance: 1, flags: [.connectable, .discoverable],
                                                 advertisingData: data.advertising, scanResponse: data.scanResponse)
        #expect(Array(command.parameters[0..<11]) == [1, 0x03, 0, 0, 0, 0, 0, 0, 0, 18, 14])
        // What discovery reports (data and scan response merged) parses back.
        let parsed = AdvertisingData(parsing: ([2, 0x01, 0x06] + data.advertising + data.scanResponse)[...])
        #expect(parsed.advertises(uuid) && parsed.name == "ts-gate-3F2A" && !parsed.nameIsShortened)
    }

    @Test func truncatedAdvertisingDataKeepsWhatCameBefore() {
        let parsed = AdvertisingData(parsing: [5, 0x08, 0x61, 0x62, 0x63, 0x64, 9, 0x07, 1, 2][...])
        #expect(parsed.name == "abcd" && parsed.nameIsShortened && parsed.serviceUUIDs128.isEmpty)
    }

    @Test func eventsParse() {
        // Command Complete for Set Powered on hci1: settings 0x00000201 (powered, le).
        let complete: [UInt8] = [0x01, 0x00, 0x01, 0x00, 0x07, 0x00, 0x05, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00]
        #expect(MgmtEvent.parse(complete[...]) == .commandComplete(index: 1, opcode: 0x0005, status: .success, reply: [0x01, 0x02, 0x00, 0x00]))
        let refused: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x05, 0x00, 0x14]
        #expect(MgmtEvent.parse(refused[...]) == .commandStatus(index: 0, opcode: 0x0005, status: .permissionDenied))
        let confirm: [UInt8] = [0x0F, 0x00, 0x00, 0x00, 0x0C, 0x00] + hci1.bytes + [0x01, 0x01, 0x40, 0xE2, 0x01, 0x00]
        #expect(MgmtEvent.parse(confirm[...]) == .userConfirmRequest(index: 0, address: hci1, confirmHint: 1, value: 123456))
        let ad: [UInt8] = [5, 0x09, 0x62, 0x6F, 0x78, 0x41]
        let found: [UInt8] = [0x12, 0x00, 0x00, 0x00, UInt8(14 + ad.count), 0x00] + hci1.bytes + [0x01, 0x7F, 0, 0, 0, 0, UInt8(ad.count), 0] + ad
        guard case .deviceFound(0, hci1, 127, let data)? = MgmtEvent.parse(found[...]) else { Issue.record("not a Device Found"); return }
        #expect(data.name == "boxA")
        #expect(MgmtEvent.parse(found.dropLast()) == nil)
        #expect(BluetoothController.error("hci0", .setPowered, .permissionDenied).message
                == "hci0: Set Powered refused: Permission Denied (managing Bluetooth needs root or CAP_NET_ADMIN)")
    }

    @Test func controllerInfoParses() {
        var reply: [UInt8] = hci1.bytes + [0x09, 0x3F, 0x00]
        reply += [0x00, 0x02, 0x00, 0x00]   // supported: le
        reply += [0x01, 0x02, 0x00, 0x00]   // current: powered, le
        reply += [0, 0, 0] + Array("btvirt".utf8) + [UInt8](repeating: 0, count: 249 - 6 + 11)
        let info = ControllerInfo(index: 1, reply: reply[...])
        #expect(info?.address == hci1 && info?.deviceName == "hci1" && info?.name == "btvirt")
        #expect(info?.current == [.powered, .le] && info?.supported.contains(.le) == true)
    }

    @Test func leConnectionEventsParse() {
        // LE Connection Complete: handle 0x0040, central, peer hci1, 40 x 1.25 ms, latency 0, 420 ms.
        let complete: [UInt8] = [0x04, 0x3E, 19, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00] + hci1.bytes + [0x28, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00]
        #expect(HCIEventSocket.parse(complete) == .connected(status: 0, handle: 0x40, central: true, peer: hci1,
                                                             parameters: LEConnectionParameters(interval: 40, latency: 0, supervisionTimeout: 42)))
        let update: [UInt8] = [0x04, 0x3E, 10, 0x03, 0x00, 0x40, 0x20, 0x06, 0x00, 0x00, 0x00, 0xC8, 0x00]
        #expect(HCIEventSocket.parse(update) == .updated(status: 0, handle: 0x40, parameters: .fastest))
        #expect(LEConnectionParameters.fastest.intervalNanos == 7_500_000)
        let status: [UInt8] = [0x04, 0x0F, 4, 0x0C, 0x01, 0x13, 0x20]
        #expect(HCIEventSocket.parse(status) == .commandStatus(opcode: 0x2013, status: 0x0C))
    }

    @Test func theQueueSendsInOrderAndMatchesReplies() {
        var queue = MgmtQueue()
        queue.enqueue(.setLE(0, true))
        queue.enqueue(.setPowered(0, true))
        #expect(!queue.isIdle)
        #expect(queue.reply(to: .commandComplete(index: 0, opcode: 0x000D, status: .success, reply: [])) == nil)
    }
}

import Foundation
import Testing
@testable import GateDevices

@Suite struct BondedPeersTests {
    let a = BluetoothAddress(text: "00:AA:01:01:00:01")!
    let b = BluetoothAddress(text: "00:AA:01:00:00:00")!

    func key(_ address: BluetoothAddress) -> LongTermKey {
        LongTermKey(address: address, storeHint: true, keyType: 3, central: true, encryptionSize: 16, ediv: 0x1234,
                    rand: [1, 2, 3, 4, 5, 6, 7, 0xff], value: Array(0..<16))
    }

    @Test func aBondReadsBackWithItsKey() {
        let peer = BondedPeer(address: a, deviceId: "ts-gate-0001", name: "ts-gate-0001", role: "start", key: key(a))
        let line = BondedPeers.bondLine(peer)
        #expect(line == "bond\t00:AA:01:01:00:01\tts-gate-0001\tstart\tts-gate-0001\t3,1,16,4660,01020304050607ff,000102030405060708090a0b0c0d0e0f")
        let read = BondedPeers.parse(line + "\n", file: "p")
        #expect(read.problems.isEmpty)
        #expect(read.peers == [peer])
    }

    @Test func theLastRecordWinsAndForgetRemoves() {
        let first = BondedPeer(address: a, deviceId: "ts-gate-0001", name: "box a", role: "", key: key(a))
        let second = BondedPeer(address: b, deviceId: "ts-gate-0000", name: "box b", role: "finish", key: nil)
        var moved = first
        moved.role = "finish"
        moved.key = nil   // a role change brings no key: the kept one stays
        let text = [BondedPeers.bondLine(first), BondedPeers.bondLine(second), BondedPeers.bondLine(moved),
                     BondedPeers.forgetLine(b)].joined(separator: "\n") + "\n"
        let read = BondedPeers.parse(text, file: "p")
        #expect(read.problems.isEmpty)
        #expect(read.peers.count == 1)
        #expect(read.peers.first?.role == "finish")
        #expect(read.peers.first?.key == key(a))
    }

    @Test func aTornLastLineIsReportedAndSkipped() {
        let good = BondedPeers.bondLine(BondedPeer(address: a, deviceId: "x", name: "x", role: "", key: nil))
        let read = BondedPeers.parse(good + "\nbond\t00:AA:01", file: "p")
        #expect(read.peers.count == 1)
        #expect(read.problems == ["p line 2: expected 'bond' or 'forget' and an address (a torn last line?); skipped"])
        let badKey = BondedPeers.parse("bond\t00:AA:01:01:00:01\tx\t\tx\t3,1,16,0,zz,00\n", file: "p")
        #expect(badKey.peers.isEmpty && badKey.problems == ["p line 1: a key that does not read; skipped"])
    }

    @Test func appendsToAFileOnlyItsOwnerReads() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try BondedPeers.append(BondedPeers.bondLine(BondedPeer(address: a, deviceId: "d", name: "n", role: "lap", key: key(a))),
                               dataDirectory: dir.path)
        try BondedPeers.append(BondedPeers.forgetLine(a), dataDirectory: dir.path)
        #expect(try BondedPeers.load(dataDirectory: dir.path).peers.isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: BondedPeers.path(dataDirectory: dir.path))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let text = try String(contentsOfFile: BondedPeers.path(dataDirectory: dir.path), encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2)
    }
}

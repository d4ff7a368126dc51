import GateCore

/// A box this one has bonded with (issue 47, point 6): its address, what
/// it called itself, the race role it last held, and the kernel's
/// long-term key, kept so the bond outlives a reboot without bluetoothd.
public struct BondedPeer: Equatable, Sendable {
    public var address: BluetoothAddress
    public var deviceId: String
    public var name: String
    /// "start", "lap", "finish" or "" when it never raced.
    public var role: String
    public var key: LongTermKey?

    public init(address: BluetoothAddress, deviceId: String, name: String, role: String, key: LongTermKey?) {
        self.address = address
        self.deviceId = deviceId
        self.name = name
        self.role = role
        self.key = key
    }
}

/// The bonded peers' flat file beside the results, `bonded-peers.txt`
/// (house rule 8): one record per line, appended and fsync'd, never
/// rewritten. `bond` when a pairing ends in a bond or a bonded peer's
/// role changes, `forget` when a person forgets one; the last record of
/// an address wins. Fields are tab-separated; a line that does not read
/// (a torn last line after a power cut) is reported and skipped. The file
/// holds keys, so it is created readable by its owner only.
public enum BondedPeers {
    public static let fileName = "bonded-peers.txt"

    public static func path(dataDirectory: String) -> String { dataDirectory + "/" + fileName }

    /// The peers bonded now, in the order they first bonded, and a line
    /// for each record that does not read.
    public static func load(dataDirectory: String) throws(GateError) -> (peers: [BondedPeer], problems: [String]) {
        let file = path(dataDirectory: dataDirectory)
        guard Directory.exists(file) else { return ([], []) }
        let text: String
        do { text = try FileDescriptor.readText(path: file) } catch { throw GateError(file, error, doing: "reading the bonded peers") }
        return parse(text, file: file)
    }

    public static func parse(_ text: String, file: String) -> (peers: [BondedPeer], problems: [String]) {
        var peers: [BondedPeer] = []
        var problems: [String] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { String($0) }
            let address = fields.count > 1 ? BluetoothAddress(text: fields[1]) : nil
            switch (fields.first, address) {
            case ("forget", let address?) where fields.count == 2:
                peers.removeAll { $0.address.bytes == address.bytes }
            case ("bond", let address?) where fields.count == 6:
                let key = fields[5].isEmpty ? nil : readKey(fields[5], address: address)
                if !fields[5].isEmpty && key == nil {
                    problems.append(file + " line " + String(number) + ": a key that does not read; skipped")
                    continue
                }
                let peer = BondedPeer(address: address, deviceId: fields[2], name: fields[4], role: fields[3], key: key)
                if let i = peers.firstIndex(where: { $0.address.bytes == address.bytes }) {
                    // A later record keeps the key it had when it brings none.
                    peers[i] = BondedPeer(address: address, deviceId: peer.deviceId, name: peer.name, role: peer.role,
                                          key: peer.key ?? peers[i].key)
                } else {
                    peers.append(peer)
                }
            default:
                problems.append(file + " line " + String(number) + ": expected 'bond' or 'forget' and an address"
                                + (number == text.split(separator: "\n", omittingEmptySubsequences: false).count ? " (a torn last line?)" : "")
                                + "; skipped")
            }
        }
        return (peers, problems)
    }

    /// The record of a bond (or of a bonded peer's new role).
    public static func bondLine(_ peer: BondedPeer) -> String {
        "bond\t" + peer.address.text + "\t" + clean(peer.deviceId) + "\t" + clean(peer.role) + "\t" + clean(peer.name) + "\t"
            + (peer.key.map(keyText) ?? "")
    }

    public static func forgetLine(_ address: BluetoothAddress) -> String { "forget\t" + address.text }

    /// Appends one record and waits until it is on the card.
    public static func append(_ line: String, dataDirectory: String) throws(GateError) {
        let file = path(dataDirectory: dataDirectory)
        do {
            try Directory.create(dataDirectory)
            let fd = try FileDescriptor.open(file, [.writeOnly, .create, .append], permissions: 0o600)
            defer { fd.close() }
            try fd.writeAll(line + "\n")
            try fd.sync()
        } catch {
            throw GateError(file, error, doing: "recording a bonded peer")
        }
    }

    // MARK: - The key's text

    /// keyType,central,encryptionSize,ediv,rand(hex 8 bytes),value(hex 16 bytes)
    static func keyText(_ key: LongTermKey) -> String {
        String(key.keyType) + "," + (key.central ? "1" : "0") + "," + String(key.encryptionSize) + "," + String(key.ediv) + ","
            + hex(key.rand) + "," + hex(key.value)
    }

    static func readKey(_ text: String, address: BluetoothAddress) -> LongTermKey? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 6, let type = DecimalText.parseInt(parts[0]), (0...255).contains(type),
              let size = DecimalText.parseInt(parts[2]), (7...16).contains(size),
              let ediv = DecimalText.parseInt(parts[3]), (0...65535).contains(ediv),
              let rand = bytes(parts[4]), rand.count == 8, let value = bytes(parts[5]), value.count == 16,
              parts[1] == "0" || parts[1] == "1" else { return nil }
        return LongTermKey(address: address, storeHint: true, keyType: UInt8(type), central: parts[1] == "1",
                           encryptionSize: UInt8(size), ediv: UInt16(ediv), rand: rand, value: value)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    private static func bytes(_ text: Substring) -> [UInt8]? {
        let u = Array(text.utf8)
        guard u.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i < u.count {
            guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// Tabs and newlines would break the record: a name never holds them.
    private static func clean(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 == 9 || $0 == 10 || $0 == 13 ? 32 : $0 }, as: UTF8.self)
    }
}

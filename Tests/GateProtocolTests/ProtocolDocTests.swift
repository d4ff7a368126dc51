import Foundation
import Testing
import GateCore
@testable import GateProtocol

/// docs/protocol.md stays true: every ```json example is a message the box
/// reads to a known type and writes back the same; every ```hex example is a
/// clock sync packet the parser reads to the fields its note states (and
/// writes back byte for byte) or fragments that reassemble to the JSON
/// example before them; the GATT tables match the box's table; and every
/// message type the box knows has an example.
@Suite struct ProtocolDocTests {
    /// One fenced block of the document.
    struct Block: Sendable, CustomTestStringConvertible {
        var language: String
        /// 1-based line of the opening fence.
        var line: Int
        var lines: [String]
        /// The last ```json block before this one, for fragment examples.
        var previousJSON: String?

        var text: String { lines.joined(separator: "\n") }
        var testDescription: String { language + " block at docs/protocol.md:" + String(line) }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let docPath = root.appendingPathComponent("docs/protocol.md").path

    static let document: String = (try? String(contentsOfFile: docPath, encoding: .utf8)) ?? ""

    static let blocks: [Block] = {
        var blocks: [Block] = []
        var open: Block?
        var lastJSON: String?
        for (number, line) in document.components(separatedBy: "\n").enumerated() {
            if var block = open {
                if line.hasPrefix("```") {
                    if block.language == "json" { lastJSON = block.text }
                    blocks.append(block)
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if line.hasPrefix("```") {
                open = Block(language: String(line.dropFirst(3)), line: number + 1, lines: [], previousJSON: lastJSON)
            }
        }
        return blocks
    }()

    static let jsonBlocks = blocks.filter { $0.language == "json" }
    static let hexBlocks = blocks.filter { $0.language == "hex" }

    @Test func theDocumentIsThereWithItsExamples() {
        #expect(!Self.document.isEmpty, "no document at \(Self.docPath)")
        #expect(Self.jsonBlocks.count >= 18)
        #expect(Self.hexBlocks.count >= 4)
        #expect(!Self.blocks.contains { $0.language == "" }, "a fence without a language is checked by nothing")
    }

    // MARK: - JSON

    @Test(arguments: jsonBlocks)
    func everyJSONExampleReadsAndWritesBack(_ block: Block) throws {
        let message = try TimingMessage.decode(block.text)
        if case .unknown(let type) = message.payload { Issue.record("type \(type) read as unknown") }
        let written = message.encoded()
        let again = try TimingMessage.decode(written)
        #expect(again == message)
        // Every member the example writes is one the box reads and writes:
        // a misspelt optional field would be ignored on reading, so compare
        // the example's JSON with the box's, member by member.
        let shown = try JSONParser.parse(block.text)
        let rewritten = try JSONParser.parse(written)
        var differences: [String] = []
        Self.compare(shown, rewritten, path: "", into: &differences)
        #expect(differences.isEmpty, "example and re-encoding differ: \(differences)")
    }

    /// Same members in any order; numbers equal by value (40 and 40.0).
    static func compare(_ a: JSONValue, _ b: JSONValue, path: String, into differences: inout [String]) {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            let xKeys = Set(x.members.map(\.key)), yKeys = Set(y.members.map(\.key))
            for key in xKeys.subtracting(yKeys).sorted() { differences.append(path + "." + key + " is not written back") }
            for key in yKeys.subtracting(xKeys).sorted() { differences.append(path + "." + key + " is written but not shown") }
            for key in xKeys.intersection(yKeys).sorted() {
                compare(x[key]!, y[key]!, path: path + "." + key, into: &differences)
            }
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { differences.append(path + ": \(x.count) elements, written \(y.count)"); return }
            for i in x.indices { compare(x[i], y[i], path: path + "[\(i)]", into: &differences) }
        case (.number(let x), .number(let y)):
            if let i = x.int64Value, let j = y.int64Value {
                if i != j { differences.append(path + ": \(x.text) written as \(y.text)") }
            } else if x.doubleValue != y.doubleValue {
                differences.append(path + ": \(x.text) written as \(y.text)")
            }
        default:
            if a != b { differences.append(path + ": \(a) written as \(b)") }
        }
    }

    // MARK: - Hex

    /// A hex block's note (its `#` line) and its byte lines, each with the
    /// text shown after `|`, if any.
    static func read(_ block: Block) -> (note: [String], rows: [(bytes: [UInt8], gloss: String?)])? {
        var note: [String] = []
        var rows: [(bytes: [UInt8], gloss: String?)] = []
        for line in block.lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                note = trimmed.dropFirst().split(separator: " ").map(String.init)
                continue
            }
            var hex = Substring(trimmed)
            var gloss: String?
            if let bar = trimmed.firstIndex(of: "|") {
                hex = trimmed[..<bar]
                gloss = String(trimmed[trimmed.index(after: bar)...].dropFirst())
            }
            var bytes: [UInt8] = []
            for token in hex.split(separator: " ") {
                guard token.count == 2, let byte = UInt8(token, radix: 16) else { return nil }
                bytes.append(byte)
            }
            rows.append((bytes, gloss))
        }
        return (note, rows)
    }

    @Test(arguments: hexBlocks)
    func everyHexExampleIsWhatItsNoteSays(_ block: Block) throws {
        guard let (note, rows) = Self.read(block) else {
            Issue.record("a byte line that is not hex pairs")
            return
        }
        switch note.first {
        case "clock-sync":
            try Self.checkClockSync(note: Array(note.dropFirst()), bytes: rows.flatMap(\.bytes))
        case "fragments":
            try Self.checkFragments(note: Array(note.dropFirst()), rows: rows, json: block.previousJSON)
        default:
            Issue.record("a hex block without a note the tests know: \(note)")
        }
    }

    static func fields(_ words: [String]) -> [String: String] {
        var fields: [String: String] = [:]
        for word in words {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    /// "none" is nil; a field the note lacks is an issue.
    static func number(_ fields: [String: String], _ key: String) -> Int64?? {
        guard let text = fields[key] else {
            Issue.record("the note has no \(key)=")
            return nil
        }
        if text == "none" { return .some(nil) }
        guard let value = Int64(text) else {
            Issue.record("\(key)=\(text) is not a number")
            return nil
        }
        return .some(value)
    }

    static func packetType(_ name: String) -> ClockSyncPacketType? {
        switch name {
        case "PING": return .ping
        case "PONG": return .pong
        case "FOLLOW_UP": return .followUp
        default: return nil
        }
    }

    static func checkClockSync(note: [String], bytes: [UInt8]) throws {
        guard let typeName = note.first, let type = packetType(typeName) else {
            Issue.record("clock-sync note without PING, PONG or FOLLOW_UP: \(note)")
            return
        }
        let fields = fields(Array(note.dropFirst()))
        let packet = try ClockSyncPacket.parse(bytes)
        #expect(packet.type == type)
        guard let sequence = number(fields, "sequence") else { return }
        let expected: ClockSyncPacket
        switch type {
        case .ping:
            guard let t1 = number(fields, "t1") else { return }
            expected = .ping(sequence: sequence.map { UInt8($0) }, t1: t1)
        case .pong:
            guard let t1 = number(fields, "t1"), let t2 = number(fields, "t2"), let t3 = number(fields, "t3") else { return }
            expected = .pong(sequence: sequence.map { UInt8($0) }, t1: t1 ?? 0, t2: t2 ?? 0, t3: t3 ?? 0)
        case .followUp:
            guard let precise = number(fields, "preciseSendNanos"), let of = fields["of"].flatMap(packetType) else {
                Issue.record("a FOLLOW_UP note needs of=PING|PONG and preciseSendNanos=")
                return
            }
            expected = .followUp(sequence: UInt8(sequence ?? 0), of: of, preciseSendNanos: precise ?? 0)
        }
        #expect(packet == expected)
        // The box writes this form back byte for byte (its answers go in the form they came in).
        let form = ClockSyncPacket.unsequencedForm(ofLength: bytes.count) ?? .typed
        #expect(packet.bytes(unsequencedForm: form) == bytes)
    }

    static func checkFragments(note: [String], rows: [(bytes: [UInt8], gloss: String?)], json: String?) throws {
        guard let mtuText = fields(note)["mtu"], let mtu = Int(mtuText) else {
            Issue.record("a fragments note needs mtu=")
            return
        }
        guard let json else {
            Issue.record("fragments with no ```json block before them")
            return
        }
        let message = try TimingMessage.decode(json)
        let sent = message.encoded()
        let chunks = rows.map(\.bytes)
        guard let first = chunks.first else {
            Issue.record("no fragments")
            return
        }
        for chunk in chunks { #expect(chunk.count <= mtu - 3, "a fragment longer than MTU - 3") }
        for row in rows {
            if let gloss = row.gloss {
                #expect(String(decoding: row.bytes.dropFirst(FragmentHeader.byteCount), as: UTF8.self) == gloss)
            }
        }
        var reassembler = Reassembler()
        var whole: [UInt8]?
        for (i, chunk) in chunks.enumerated() {
            let step = try reassembler.accept(chunk)
            if i == chunks.count - 1 {
                if case .complete(let bytes) = step { whole = bytes }
            } else {
                #expect(step == .incomplete(received: i + 1, count: chunks.count))
            }
        }
        #expect(whole.map { String(decoding: $0, as: UTF8.self) } == String(decoding: sent, as: UTF8.self),
                "the fragments are not the box's bytes of the JSON above them")
        if let whole { #expect(try TimingMessage.decode(whole) == message) }
        #expect(try Fragmenter.fragments(of: sent, messageId: first[0], attPayloadSize: mtu - 3) == chunks)
    }

    // MARK: - Every type

    /// The types TimingPayload decodes, read from its source so that a type
    /// added there cannot go undocumented.
    static func knownTypes() throws -> Set<String> {
        let source = try String(contentsOfFile: root.appendingPathComponent("Sources/GateProtocol/Messages/TimingMessage.swift").path,
                                encoding: .utf8)
        var types: Set<String> = []
        let literal = try NSRegularExpression(pattern: #"case "([a-z_]+)": return \."#)
        let symbol = try NSRegularExpression(pattern: #"case ([A-Za-z]+)\.type: return \."#)
        let range = NSRange(source.startIndex..., in: source)
        for match in literal.matches(in: source, range: range) {
            types.insert(String(source[Range(match.range(at: 1), in: source)!]))
        }
        for match in symbol.matches(in: source, range: range) {
            switch String(source[Range(match.range(at: 1), in: source)!]) {
            case "CrossingAck": types.insert(CrossingAck.type)
            case let other: Issue.record("a type named by \(other).type: add it to ProtocolDocTests.knownTypes")
            }
        }
        return types
    }

    @Test func everyKnownTypeHasAnExample() throws {
        let known = try Self.knownTypes()
        #expect(known.count >= 17, "the scan of TimingMessage.swift found \(known.sorted())")
        var shown: Set<String> = []
        for block in Self.jsonBlocks {
            if let message = try? TimingMessage.decode(block.text) { shown.insert(message.type) }
        }
        for type in known.subtracting(shown).sorted() { Issue.record("no ```json example of \(type) in docs/protocol.md") }
    }

    // MARK: - GATT

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    static func hex2(_ value: UInt8) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 2 - digits.count) + digits
    }

    @Test func theAttributeTableIsTheBoxs() {
        let database = GateGATTService(deviceName: "ts-gate-3F2A").server.database
        var rows: [UInt16: String] = [:]
        for line in Self.document.components(separatedBy: "\n") where line.hasPrefix("| 0x") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].count == 6, let handle = UInt16(cells[0].dropFirst(2), radix: 16) else { continue }
            #expect(rows[handle] == nil, "handle \(Self.hex4(handle)) twice")
            rows[handle] = line
        }
        #expect(Set(rows.keys) == Set(database.attributes.map(\.handle)), "the table's handles are not the box's")
        for attribute in database.attributes {
            guard let row = rows[attribute.handle] else { continue }
            if attribute.type == .primaryService, case .fixed(let value) = attribute.value, let service = ATTUUID(wire: value[...]) {
                #expect(row.contains(service.description), "\(row): service \(service.description)")
                #expect(row.contains("group " + Self.hex4(attribute.handle) + "-" + Self.hex4(attribute.groupEnd)), "\(row)")
            } else {
                #expect(row.contains("| " + attribute.type.description + " |"), "\(row): type \(attribute.type.description)")
            }
        }
    }

    @Test func theCharacteristicTableIsTheBoxs() {
        let database = GateGATTService(deviceName: "ts-gate-3F2A").server.database
        let lines = Self.document.components(separatedBy: "\n").filter { $0.hasPrefix("| ") }
        for record in database.characteristics {
            let cells = [record.uuid.description, Self.hex4(record.declarationHandle), Self.hex4(record.id.valueHandle),
                         record.cccdHandle.map(Self.hex4) ?? "none", Self.hex2(record.properties.rawValue) + " "]
            let found = lines.contains { line in cells.allSatisfy { line.contains("| " + $0) } }
            #expect(found, "no characteristic row with \(cells)")
        }
    }
}

@Suite struct DeviceInfoTests {
    @Test func deviceInfoCarriesSection9sFieldsInOrder() throws {
        let info = DeviceInfo(deviceId: "ts-gate-3f2a", deviceName: "ts-gate-3F2A",
                              version: PeerVersionInfo(protocolVersion: "1.0", appVersion: "0.1.0", platform: "ts-gate"),
                              capabilities: Capabilities(binaryClockSync: true, multiGate: true, preciseClockSync: true))
        let text = String(decoding: info.encoded(), as: UTF8.self)
        #expect(text == #"{"deviceId":"ts-gate-3f2a","deviceName":"ts-gate-3F2A","platform":"ts-gate","appVersion":"0.1.0","protocolVersion":"1.0","capabilities":{"binaryClockSync":true,"multiGate":true,"preciseClockSync":true}}"#)
        // Longer than one ATT payload at MTU 23: a phone reads it with Read Blob.
        #expect(info.encoded().count > 22)
    }
}

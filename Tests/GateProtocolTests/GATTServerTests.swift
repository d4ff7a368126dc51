import Testing
@testable import GateProtocol

/// The box's GATT server driven with raw PDUs, each request's exact answer
/// written out, in the manner of BlueZ's unit/test-gatt.c. The table is
/// GateGATTService's (handles in its header comment); the MTU stays 23
/// unless a test exchanges it.
@Suite struct GATTServerTests {
    /// One PDU in, the exact PDU out (nil: nothing is sent), and the effects.
    struct Step {
        var input: String
        var output: String?
        var effects: [GATTServerEffect] = []
        init(_ input: String, _ output: String?, _ effects: [GATTServerEffect] = []) {
            self.input = input
            self.output = output
            self.effects = effects
        }
    }

    static let box = GateGATTService(deviceName: "ts-gate-3F2A")
    /// A Device Info longer than MTU 23's 22-byte read: Read Blob is needed.
    static let deviceInfo = Array(#"{"deviceId":"box-3F2A","platform":"ts-gate","x":1}"#.utf8)

    static func store() -> GATTValueStore {
        var store = GATTValueStore()
        store.values[box.deviceInfo] = deviceInfo
        store.values[box.timingMessages] = [0x00, 0x00, 0x01, 0x7B, 0x7D]
        return store
    }

    static func run(_ steps: [Step], link: inout GATTServerLink, store: inout GATTValueStore,
                    server: GATTServer = box.server, sourceLocation: SourceLocation = #_sourceLocation) {
        for step in steps {
            let output = server.handle(hex(step.input), link: &link, source: &store)
            #expect(output.response.map(hexText) == step.output, "in: \(step.input)", sourceLocation: sourceLocation)
            #expect(output.effects == step.effects, "in: \(step.input)", sourceLocation: sourceLocation)
        }
    }

    static func run(_ steps: [Step], server: GATTServer = box.server, sourceLocation: SourceLocation = #_sourceLocation) {
        var link = GATTServerLink()
        var store = store()
        run(steps, link: &link, store: &store, server: server, sourceLocation: sourceLocation)
    }

    static let svc = hexText(WireUUID.service)
    static let tm = hexText(WireUUID.timingMessages)
    static let di = hexText(WireUUID.deviceInfo)
    static let cs = hexText(WireUUID.clockSync)

    @Test func exchangeMTU() {
        var link = GATTServerLink()
        var store = Self.store()
        Self.run([Step("02 00 02", "03 00 02", [.mtuChanged(512)]),
                  // One exchange per link: a second is answered but changes nothing.
                  Step("02 17 00", "03 00 02")], link: &link, store: &store)
        #expect(link.mtu == 512)

        var small = GATTServerLink()
        Self.run([Step("02 10 00", "03 00 02", [.mtuChanged(23)])], link: &small, store: &store)
        #expect(small.mtu == 23, "an MTU under 23 is taken as 23")
    }

    @Test func discoverPrimaryServicesByGroupType() {
        Self.run([
            // GAP and GATT share one response (16-bit UUIDs); the 128-bit service needs its own.
            Step("10 01 00 FF FF 00 28", "11 06 01 00 05 00 00 18 06 00 06 00 01 18"),
            Step("10 07 00 FF FF 00 28", "11 14 07 00 0F 00 " + Self.svc),
            Step("10 10 00 FF FF 00 28", "01 10 10 00 0A"),
            // Secondary services: none.
            Step("10 01 00 FF FF 01 28", "01 10 01 00 0A"),
            // The 128-bit spelling of 0x2800 is the same group type.
            Step("10 01 00 FF FF FB 34 9B 5F 80 00 00 80 00 10 00 00 00 28 00 00",
                 "11 06 01 00 05 00 00 18 06 00 06 00 01 18"),
            // Not a grouping type.
            Step("10 01 00 FF FF 03 28", "01 10 01 00 10"),
            Step("10 00 00 FF FF 00 28", "01 10 00 00 01"),
            Step("10 05 00 01 00 00 28", "01 10 05 00 01"),
        ])
    }

    @Test func discoverTheSeedServiceByUUID() {
        Self.run([
            Step("06 01 00 FF FF 00 28 " + Self.svc, "07 07 00 0F 00"),
            Step("06 10 00 FF FF 00 28 " + Self.svc, "01 06 10 00 0A"),
            Step("06 01 00 FF FF 00 28 00 18", "07 01 00 05 00"),
            Step("06 01 00 FF FF 00 28 0D 18", "01 06 01 00 0A"),
            Step("06 00 00 FF FF 00 28 00 18", "01 06 00 00 01"),
            // A non-grouping attribute's group end is its own handle.
            Step("06 01 00 FF FF 02 29 00 00", "07 0A 00 0A 00 0F 00 0F 00"),
        ])
    }

    @Test func discoverCharacteristicsByType() {
        Self.run([
            Step("08 01 00 05 00 03 28", "09 07 02 00 02 03 00 00 2A 04 00 02 05 00 01 2A"),
            // A 128-bit declaration is 19 bytes: one per response at MTU 23.
            Step("08 07 00 0F 00 03 28", "09 15 08 00 1A 09 00 " + Self.tm),
            Step("08 09 00 0F 00 03 28", "09 15 0B 00 02 0C 00 " + Self.di),
            Step("08 0C 00 0F 00 03 28", "09 15 0D 00 1C 0E 00 " + Self.cs),
            Step("08 0E 00 0F 00 03 28", "01 08 0E 00 0A"),
            Step("08 06 00 06 00 03 28", "01 08 06 00 0A"),
            Step("08 0F 00 0E 00 03 28", "01 08 0F 00 01"),
            // Read by the characteristic's own UUID (gatttool --char-read --uuid): cut to MTU - 4.
            Step("08 01 00 FF FF " + Self.di, "09 15 0C 00 " + hexText(Array(Self.deviceInfo.prefix(19)))),
            // The first match not readable: its error; Clock Sync has no read.
            Step("08 01 00 FF FF " + Self.cs, "01 08 0E 00 02"),
            Step("08 01 00 FF FF 02 29", "09 04 0A 00 00 00 0F 00 00 00"),
        ])
    }

    @Test func discoverDescriptorsWithFindInformation() {
        Self.run([
            // One UUID size per response: the 16-bit declaration, then the 128-bit value alone.
            Step("04 08 00 0A 00", "05 01 08 00 03 28"),
            Step("04 09 00 0A 00", "05 02 09 00 " + Self.tm),
            Step("04 0A 00 0A 00", "05 01 0A 00 02 29"),
            Step("04 0F 00 FF FF", "05 01 0F 00 02 29"),
            Step("04 01 00 FF FF", "05 01 01 00 00 28 02 00 03 28 03 00 00 2A 04 00 03 28 05 00 01 2A"),
            Step("04 10 00 FF FF", "01 04 10 00 0A"),
            Step("04 00 00 05 00", "01 04 00 00 01"),
            Step("04 05 00 01 00", "01 04 05 00 01"),
        ])
    }

    @Test func readsAndReadBlobOfALongDeviceInfo() {
        let info = Self.deviceInfo
        #expect(info.count == 50)
        Self.run([
            Step("0A 03 00", "0B 74 73 2D 67 61 74 65 2D 33 46 32 41"),
            Step("0A 05 00", "0B 00 00"),
            Step("0A 07 00", "0B " + Self.svc),
            Step("0A 0A 00", "0B 00 00"),
            // Device Info: 22 bytes in the Read Response, the rest by Read Blob.
            Step("0A 0C 00", "0B " + hexText(Array(info[0..<22]))),
            Step("0C 0C 00 16 00", "0D " + hexText(Array(info[22..<44]))),
            Step("0C 0C 00 2C 00", "0D " + hexText(Array(info[44..<50]))),
            Step("0C 0C 00 32 00", "0D"),
            Step("0C 0C 00 33 00", "01 0C 0C 00 07"),
            // A short fixed value is not long.
            Step("0C 03 00 00 00", "01 0C 03 00 0B"),
            Step("0C 08 00 01 00", "01 0C 08 00 0B"),
            Step("0A 00 00", "01 0A 00 00 01"),
            Step("0A 10 00", "01 0A 10 00 01"),
            Step("0C 10 00 00 00", "01 0C 10 00 01"),
            Step("0A 0E 00", "01 0A 0E 00 02"),
            Step("0C 0E 00 00 00", "01 0C 0E 00 02"),
            Step("0A 09 00", "0B 00 00 01 7B 7D"),
        ])
    }

    @Test func writesAndTheirRefusals() {
        let tm = Self.box.timingMessages
        let cs = Self.box.clockSync
        Self.run([
            Step("12 09 00 00 00 01 7B 7D", "13", [.written(tm, hex("00 00 01 7B 7D"), withResponse: true)]),
            Step("12 0E 00 01 07", "13", [.written(cs, [0x01, 0x07], withResponse: true)]),
            Step("12 0C 00 01", "01 12 0C 00 03"),
            Step("12 08 00 01", "01 12 08 00 03"),
            Step("12 03 00 41", "01 12 03 00 03"),
            Step("12 00 00 01", "01 12 00 00 01"),
            Step("12 20 00 01", "01 12 20 00 01"),
            // Write Command: served where the characteristic offers it, else dropped unanswered.
            Step("52 0E 00 01 07 00 00 00 00 00 00 00 00", nil, [.written(cs, hex("01 07 00 00 00 00 00 00 00 00"), withResponse: false)]),
            Step("52 09 00 01", nil),
            Step("52 20 00 01", nil),
            Step("52 0E", nil),
            Step("D2 0E 00 01 AA AA AA AA AA AA AA AA AA AA AA AA", nil),
        ])
    }

    /// Every clock sync form GateCore's ClockSyncPacket parses passes through unchanged.
    @Test(arguments: [2, 10, 11, 24, 25, 26])
    func clockSyncPassesEveryFormThrough(_ count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &+ 1) }
        let cs = Self.box.clockSync
        Self.run([Step("12 0E 00 " + hexText(bytes), "13", [.written(cs, bytes, withResponse: true)]),
                  Step("52 0E 00 " + hexText(bytes), nil, [.written(cs, bytes, withResponse: false)])])
    }

    @Test func authorizationRefusesWritesButNotDeviceInfo() {
        var link = GATTServerLink()
        var store = Self.store()
        store.refusedWrites[Self.box.timingMessages] = .insufficientAuthorization
        store.refusedWrites[Self.box.clockSync] = .insufficientAuthorization
        Self.run([
            Step("12 09 00 7B", "01 12 09 00 08"),
            Step("12 0E 00 01 07", "01 12 0E 00 08"),
            Step("52 0E 00 01 07", nil),
            Step("16 09 00 00 00 7B", "01 16 09 00 08"),
            Step("0A 0C 00", "0B " + hexText(Array(Self.deviceInfo[0..<22]))),
            // Subscribing stays open: a phone must hear session_join_accepted before it has joined.
            Step("12 0A 00 01 00", "13", [.subscriptionChanged(Self.box.timingMessages, GATTSubscription(notify: true, indicate: false))]),
        ], link: &link, store: &store)

        store.refusedReads[Self.box.timingMessages] = .insufficientAuthentication
        Self.run([Step("0A 09 00", "01 0A 09 00 05")], link: &link, store: &store)
    }

    @Test func preparedWritesExecuteAsOneValue() {
        let tm = Self.box.timingMessages
        let whole = (0..<30).map { UInt8($0) }
        let first = hexText(Array(whole[0..<18]))
        let rest = hexText(Array(whole[18..<30]))
        Self.run([
            Step("16 09 00 00 00 " + first, "17 09 00 00 00 " + first),
            Step("16 09 00 12 00 " + rest, "17 09 00 12 00 " + rest),
            Step("18 01", "19", [.written(tm, whole, withResponse: true)]),
            // The queue is empty afterwards.
            Step("18 01", "19"),
            // Cancelled: nothing written.
            Step("16 09 00 00 00 " + first, "17 09 00 00 00 " + first),
            Step("18 00", "19"),
            // A gap in the offsets is found at execution.
            Step("16 09 00 05 00 AA", "17 09 00 05 00 AA"),
            Step("18 01", "01 18 09 00 07"),
            // A long CCCD write is checked as a whole.
            Step("16 0A 00 00 00 01", "17 0A 00 00 00 01"),
            Step("16 0A 00 01 00 00", "17 0A 00 01 00 00"),
            Step("18 01", "19", [.subscriptionChanged(tm, GATTSubscription(notify: true, indicate: false))]),
            Step("16 0C 00 00 00 01", "01 16 0C 00 03"),
            Step("16 20 00 00 00 01", "01 16 20 00 01"),
        ])
    }

    @Test func aFullPrepareQueueIsRefused() {
        let server = GATTServer(database: Self.box.server.database, prepareQueueLimit: 2)
        Self.run([
            Step("16 09 00 00 00 01", "17 09 00 00 00 01"),
            Step("16 09 00 01 00 02", "17 09 00 01 00 02"),
            Step("16 09 00 02 00 03", "01 16 09 00 09"),
            Step("18 01", "19", [.written(Self.box.timingMessages, [1, 2], withResponse: true)]),
        ], server: server)
    }

    @Test func aValueLongerThan512IsRefused() {
        var link = GATTServerLink()
        var store = Self.store()
        Self.run([Step("02 00 02", "03 00 02", [.mtuChanged(512)])], link: &link, store: &store)
        let chunk = String(repeating: " 55", count: 500)
        Self.run([
            Step("16 09 00 00 00" + chunk, "17 09 00 00 00" + chunk),
            Step("16 09 00 F4 01 55 55 55 55 55 55 55 55 55 55 55 55 55", "17 09 00 F4 01 55 55 55 55 55 55 55 55 55 55 55 55 55"),
            Step("18 01", "01 18 09 00 0D"),
        ], link: &link, store: &store)
    }

    @Test func cccdWritesThenNotifications() {
        let server = Self.box.server
        let tm = Self.box.timingMessages
        let cs = Self.box.clockSync
        var link = GATTServerLink()
        var store = Self.store()
        let payload = (0..<30).map { UInt8($0) }
        #expect(server.notification(tm, value: payload, link: link) == nil, "no CCCD written yet")
        Self.run([
            Step("12 0A 00 01 00", "13", [.subscriptionChanged(tm, GATTSubscription(notify: true, indicate: false))]),
            Step("0A 0A 00", "0B 01 00"),
            // Indications are not offered, reserved bits and wrong lengths are refused.
            Step("12 0A 00 02 00", "01 12 0A 00 FD"),
            Step("12 0A 00 01 01", "01 12 0A 00 FD"),
            Step("12 0A 00 01", "01 12 0A 00 0D"),
            Step("12 0A 00 01 00 00", "01 12 0A 00 0D"),
        ], link: &link, store: &store)
        // Cut to MTU - 3 at the default MTU.
        #expect(server.notification(tm, value: payload, link: link).map(hexText) == "1B 09 00 " + hexText(Array(payload[0..<20])))
        #expect(server.notification(cs, value: payload, link: link) == nil, "Clock Sync not subscribed")

        Self.run([Step("02 00 02", "03 00 02", [.mtuChanged(512)]),
                  Step("12 0F 00 01 00", "13", [.subscriptionChanged(cs, GATTSubscription(notify: true, indicate: false))])],
                 link: &link, store: &store)
        #expect(server.notification(tm, value: payload, link: link).map(hexText) == "1B 09 00 " + hexText(payload))
        #expect(server.notification(cs, value: [0x02, 0x05], link: link).map(hexText) == "1B 0E 00 02 05")

        // Another link has its own CCCDs.
        #expect(server.notification(tm, value: payload, link: GATTServerLink()) == nil)

        Self.run([Step("12 0A 00 00 00", "13", [.subscriptionChanged(tm, .none)])], link: &link, store: &store)
        #expect(server.notification(tm, value: payload, link: link) == nil)
    }

    @Test func everyUnservedOpcodeGetsItsError() {
        Self.run([
            // Requests it does not serve.
            Step("0E 03 00 05 00", "01 0E 00 00 06"),
            Step("20 03 00 05 00", "01 20 00 00 06"),
            Step("3F", "01 3F 00 00 06"),
            Step("3F 01 02", "01 3F 00 00 06"),
            // Malformed requests.
            Step("0A 03", "01 0A 00 00 04"),
            Step("02 17", "01 02 00 00 04"),
            Step("04 01 00 FF", "01 04 00 00 04"),
            Step("06 01 00 FF FF 00", "01 06 00 00 04"),
            Step("08 01 00 FF FF 00 28 00", "01 08 00 00 04"),
            Step("10 01 00 FF FF 00 28 00", "01 10 00 00 04"),
            Step("0C 0C 00 16", "01 0C 00 00 04"),
            Step("12 09", "01 12 00 00 04"),
            Step("16 09 00 00", "01 16 00 00 04"),
            Step("18 02", "01 18 00 00 04"),
            // Commands are never answered, known or not.
            Step("7F 01", nil),
            Step("40", nil),
            // Not the server's: responses, notifications, indications, confirmations.
            Step("1E", nil),
            Step("0B 01", nil),
            Step("01 0A 03 00 01", nil),
            Step("1B 09 00 01", nil),
            Step("1D 09 00 01", nil),
        ])
    }
}

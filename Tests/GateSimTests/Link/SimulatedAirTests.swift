import Testing
import GateDevices
@testable import GateCore
@testable import GateSim

@Suite struct DriftingClockTests {
    @Test func fiftyPartsPerMillionForFourHoursIsSevenHundredTwentyMilliseconds() {
        let clock = DriftingClock(offsetNanos: 3_000_000_000, basePPM: 50)
        let fourHours: Int64 = 4 * 3600 * 1_000_000_000
        #expect(clock.local(atTrue: 0) == 3_000_000_000)
        #expect(clock.local(atTrue: fourHours) == fourHours + 3_000_000_000 + 720_000_000)
    }

    @Test func aWanderingClockMapsBackToTheSameTrueTime() {
        var random = SplitMix64(seed: 9)
        for _ in 0..<50 {
            let clock = DriftingClock.drawn(&random, maxOffsetSeconds: 30, maxPPM: 50)
            #expect(clock.basePPM.magnitude + clock.swingPPM <= 50)
            for t in [Int64(0), 1_000_000, 3_600_000_000_000, 14_400_000_000_000] {
                #expect(clock.trueTime(atLocal: clock.local(atTrue: t)) == t)
            }
            // The swing is a rate: its integral over one whole period is zero.
            let noSwing = DriftingClock(offsetNanos: clock.offsetNanos, basePPM: clock.basePPM)
            #expect((clock.local(atTrue: clock.periodNanos) - noSwing.local(atTrue: clock.periodNanos)).magnitude <= 1)
        }
    }
}

@Suite struct SimulatedAirTests {
    /// No jitter, no spread: every delay is the profile's own.
    static func quiet(intervalNanos: Int64 = 10_000_000) -> LinkProfile {
        var p = LinkProfile(name: "quiet", intervalNanos: intervalNanos, latencyNanos: 200_000, latencySpreadNanos: 0,
                            jitterNanos: 0, completionDelayNanos: 0)
        p.packetsPerEvent = 2
        return p
    }

    static func events(_ air: SimulatedAir, _ side: SimulatedAir.Side, until t: Int64) -> [SimulatedAir.Event] {
        var out: [SimulatedAir.Event] = []
        while let e = air.take(for: side, upTo: t) { out.append(e) }
        return out
    }

    @Test func aPacketWaitsForTheNextConnectionEventAndIsStampedOnTheReceiversClock() throws {
        let peripheralClock = DriftingClock(offsetNanos: 5_000_000_000, basePPM: 0)
        let air = SimulatedAir(profile: Self.quiet(), central: .truth, peripheral: peripheralClock, seed: 3)
        // Two packets 1 ms apart from the central reach the peripheral at
        // the same event (one exchange apart), whatever the instant they were written.
        let a = try #require(air.send(from: .central, .clockSync, [1, 2, 3], atTrue: 20_000_000))
        let b = try #require(air.send(from: .central, .clockSync, [4, 5, 6], atTrue: 21_000_000))
        #expect(a != b)
        let got = Self.events(air, .peripheral, until: 100_000_000).filter { if case .connected = $0 { return false }; return true }
        #expect(got.count == 2)
        guard case .received(.clockSync, let bytesA, let stampA) = got[0],
              case .received(.clockSync, let bytesB, let stampB) = got[1] else {
            Issue.record("expected two receptions, got \(got)"); return
        }
        #expect(bytesA == [1, 2, 3] && bytesB == [4, 5, 6])
        let air3 = Int64(3 + 14) * 8_000
        // Same event: the second is one exchange (its packet, an empty
        // answer, two inter-frame spaces) later.
        #expect(stampB - stampA == air3 + 80_000 + 2 * 150_000)
        // Stamped on the peripheral's clock, after the write and within one interval + delays.
        let trueA = stampA - 5_000_000_000
        #expect(trueA > 20_000_000 + 200_000 && trueA <= 20_000_000 + 200_000 + 10_000_000 + air3 + 200_000)
    }

    @Test func thePeripheralLearnsItsPacketWasAcknowledgedOnlyAtTheNextEvent() throws {
        let air = SimulatedAir(profile: Self.quiet(), central: .truth, peripheral: .truth, seed: 4)
        let c = try #require(air.send(from: .central, .messages, [0], atTrue: 50_000_000))
        let p = try #require(air.send(from: .peripheral, .messages, [0], atTrue: 50_000_000))
        var receivedAt: [Int64] = [0, 0]
        var completedAt: [Int: Int64] = [:]
        for side in [SimulatedAir.Side.central, .peripheral] {
            for e in Self.events(air, side, until: 200_000_000) {
                switch e {
                case .received(_, _, let s): receivedAt[side.rawValue] = s
                case .completed(let token, let s): completedAt[token] = s
                case .connected: break
                default: Issue.record("unexpected \(e)")
                }
            }
        }
        // The central's packet: acknowledged in the same exchange.
        let centralAck = try #require(completedAt[c])
        #expect(centralAck - receivedAt[1] == 150_000 + 80_000)
        // The peripheral's: one interval later, less its own place in the exchange.
        let peripheralAck = try #require(completedAt[p])
        #expect(peripheralAck - receivedAt[0] > 9_000_000)
    }

    @Test func lostPacketsAreSentAgainInOrder() {
        var profile = Self.quiet(intervalNanos: 7_500_000)
        profile.lossProbability = 0.3
        profile.jitterNanos = 100_000
        let air = SimulatedAir(profile: profile, central: .truth, peripheral: .truth, seed: 5)
        for i in 0..<200 {
            _ = air.send(from: .peripheral, .messages, [UInt8(i)], atTrue: 10_000_000 + Int64(i) * 2_000_000)
        }
        var got: [UInt8] = []
        var last: Int64 = 0
        for e in Self.events(air, .central, until: Int64.max - 1) {
            if case .received(_, let bytes, let stamp) = e {
                got.append(bytes[0])
                // Stamps keep order up to the receiver's jitter.
                #expect(stamp + 100_000 >= last)
                last = stamp
            }
        }
        #expect(got == (0..<200).map { UInt8($0) })
        #expect(air.lostTries[1] > 30 && air.lostTries[1] < 120)
    }

    @Test func aLongOutageDropsTheConnectionAndItComesBack() {
        let outage = SimulatedAir.Outage(startNanos: 1_000_000_000, endNanos: 11_000_000_000)
        let air = SimulatedAir(profile: Self.quiet(), central: .truth, peripheral: .truth, outages: [outage], seed: 6)
        #expect(air.send(from: .central, .messages, [1], atTrue: 900_000_000) != nil)
        // Sent during the outage, before the drop: accepted, never delivered.
        #expect(air.send(from: .central, .messages, [2], atTrue: 1_500_000_000) != nil)
        // After the supervision timeout: no connection.
        #expect(air.send(from: .central, .messages, [3], atTrue: 5_000_000_000) == nil)
        #expect(air.send(from: .central, .messages, [4], atTrue: 11_500_000_000) != nil)
        var seen: [String] = []
        for e in Self.events(air, .peripheral, until: 20_000_000_000) {
            switch e {
            case .received(_, let bytes, _): seen.append("rx\(bytes[0])")
            case .disconnected(let s): seen.append(s > 2_999_000_000 && s < 3_001_000_000 ? "down" : "down@\(s)")
            case .connected(let s): seen.append(s > 11_300_000_000 && s < 11_301_000_000 ? "up" : "up@\(s)")
            case .completed: seen.append("ack")
            }
        }
        #expect(seen == ["up@200000", "rx1", "down", "up", "rx4"])
    }

    @Test func theSameSeedPlaysTheSameAir() {
        func run() -> [SimulatedAir.Event] {
            var profile = LinkProfile.usb(intervalNanos: 30_000_000)
            profile.lossProbability = 0.05
            let air = SimulatedAir(profile: profile, central: DriftingClock(offsetNanos: 7, basePPM: 20),
                                   peripheral: DriftingClock(offsetNanos: -9, basePPM: -31), seed: 77)
            for i in 0..<50 { _ = air.send(from: i % 2 == 0 ? .central : .peripheral, .clockSync, [UInt8(i)], atTrue: Int64(i) * 13_000_000) }
            return Self.events(air, .central, until: Int64.max - 1) + Self.events(air, .peripheral, until: Int64.max - 1)
        }
        #expect(run() == run())
    }
}

import GateCore
import GateDevices
import GateProtocol

/// `run`'s race: the settings' `race` keys made into the loop's
/// `RaceSetup`, with this box's name from its Bluetooth controller (two
/// boxes of one board must not share a device id).
enum RunRace {
    /// The box's device id and name: "ts-gate-3F2A" from the controller's
    /// address, or from the board when there is no controller.
    static func identity(_ settings: BoxSettings) -> String {
        guard !settings.bluetoothOff, let station = try? BLEStation.open(settings.bluetoothController) else {
            return "ts-gate-" + settings.board
        }
        defer { station.close() }
        return station.boxName
    }

    /// nil for a box alone; a line says why a race cannot be (no Bluetooth).
    static func setup(_ settings: BoxSettings, deviceId: String, console: Console) throws(GateError) -> RaceSetup? {
        guard settings.race != .solo else { return nil }
        if settings.bluetoothOff {
            console.line("ts-gate: race = " + settings.race.name + " needs Bluetooth, which the settings turn off; this box times alone")
            return nil
        }
        var role: GateRole?
        if let name = settings.raceRole { role = GateRole(wire: name) }
        var plan: RacePlan?
        let code: String
        if settings.race == .host {
            let metres = settings.raceGatesMetres
            do {
                plan = try RacePlan(finishMetres: metres[metres.count - 1], splits: Array(metres.dropFirst().dropLast()),
                                    startType: settings.startType)
            } catch {
                throw GateError("race.gates", error.message)
            }
            role = role ?? .start
            code = settings.raceSession ?? drawCode()
        } else {
            role = role ?? .finish
            code = settings.raceSession ?? ""
        }
        var setup = RaceSetup(sessionId: code, deviceName: deviceId, role: role, plan: plan)
        // Precise sync needs the radio's acknowledgement stamps, which the
        // BLE link does not read yet: seed 002's plain exchange.
        setup.preciseSync = false
        if settings.race == .host {
            console.line("race: this box hosts session " + code + " (the code a phone or box joins with), "
                + settings.raceGatesMetres.map { RaceWords.metres($0) }.joined(separator: ", ") + ", holding the "
                + RaceWords.gate(role ?? .start))
        } else {
            console.line("race: this box joins " + (code.isEmpty ? "the host it has bonded with (hold the button 5 s on both boxes to pair them)"
                : "session " + code) + " as the " + RaceWords.gate(role ?? .finish))
        }
        return setup
    }

    /// Six digits from the kernel's random source (the code admits writers).
    static func drawCode() -> String {
        var value: UInt64 = UInt64(bitPattern: MonotonicClock.nowNanos())
        if let fd = try? FileDescriptor.open("/dev/urandom", .readOnly) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 8)
            if (try? fd.read(into: buffer)) == 8 { value ^= buffer.load(as: UInt64.self) }
            buffer.deallocate()
            fd.close()
        }
        var mix = SplitMix64(seed: value)
        return DecimalText.zeroPadded(Int(mix.next() % 1_000_000), width: 6)
    }
}

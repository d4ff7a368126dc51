import GateCore
import GateDevices

/// The GATT station's place in the loop: started by `run`, handed its
/// readiness, closed with the session.
extension BoxLoop {
    /// Starts serving the GATT service over BLE when the settings allow.
    mutating func startStation(_ settings: BoxSettings, dataDirectory: String) {
        let console = self.console
        station = GATTStation.start(settings: settings, deviceId: configuration.deviceId, raceListens: race != nil,
                                    joining: configuration.race?.plan == nil, dataDirectory: dataDirectory, platform: &platform) {
            console.line(DecimalText.clockLabel(MonotonicClock.nowNanos()) + " " + $0)
        }
    }

    mutating func handleStation() throws(GateError) {
        // Taken out while it runs: it borrows the platform to (un)watch its
        // descriptors, and the log line closure must not touch the loop.
        guard var running = station else { return }
        station = nil
        let console = self.console
        running.service(platform: &platform) { console.line(DecimalText.clockLabel(MonotonicClock.nowNanos()) + " " + $0) }
        let notices = running.notices
        running.notices.removeAll()
        station = running
        for notice in notices {
            switch notice {
            case .pairingEnded(let bonded):
                // Paired: a flash and beep, then the gate's own pattern again.
                try platform.lights.show(bonded ? .crossing : .error, atNanos: platform.nowNanos)
                if bonded { try platform.speaker.play(.single(.tone(.beep), voice: configuration.voice), atNanos: platform.nowNanos) }
            case .problem(let line):
                warn(line)
            }
        }
        // What the links brought goes to the race at once; its timer ticks it.
        guard race != nil else { return }
        let fired = station?.raceTimerFired == true
        try raceStep(.link)
        if fired { try raceStep(.tick) }
    }

    /// The 5 s hold: pairing mode for 60 s, shown by its own pattern; a box
    /// without Bluetooth says why it cannot.
    mutating func startPairing() throws(GateError) {
        guard station?.canPair == true else {
            say("button (held 5 s): pairing mode needs Bluetooth LE, and this box has no controller running (bluetooth in the settings, `ts-gate selftest`)")
            try platform.lights.show(.error, atNanos: platform.nowNanos)
            return
        }
        station!.enterPairing(now: platform.nowNanos)
        station!.wakeRace(atNanos: race?.nextDueNanos, now: platform.nowNanos)
        say("button (held 5 s): pairing mode for 60 s; hold the other box's button 5 s too")
        try platform.lights.show(.pairing, atNanos: platform.nowNanos)
    }

    mutating func closeStation() {
        guard var running = station else { return }
        station = nil
        running.close(platform: &platform)
    }
}

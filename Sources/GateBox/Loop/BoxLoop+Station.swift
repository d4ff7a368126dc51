import GateCore
import GateDevices

/// The GATT station's place in the loop: started by `run`, handed its
/// readiness, closed with the session.
extension BoxLoop {
    /// Starts serving the GATT service over BLE when the settings allow.
    mutating func startStation(_ settings: BoxSettings) {
        let console = self.console
        station = GATTStation.start(settings: settings, deviceId: configuration.deviceId, raceListens: race != nil,
                                    joining: configuration.race?.plan == nil, platform: &platform) {
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
        station = running
        // What the links brought goes to the race at once; its timer ticks it.
        guard race != nil else { return }
        let fired = station?.raceTimerFired == true
        try raceStep(.link)
        if fired { try raceStep(.tick) }
    }

    mutating func closeStation() {
        guard var running = station else { return }
        station = nil
        running.close(platform: &platform)
    }
}

import GateCore
import GateDevices

/// `run` as the SD image's service (Type=notify, WatchdogSec): READY=1 once
/// the devices are open, a STATUS= line a person reads in `systemctl status
/// ts-gate`, and WATCHDOG=1 from the loop's own turns, so a hung loop is
/// killed and restarted. Outside systemd every call here does nothing.
extension RunCommand {
    /// One per process. Unchecked for concurrency: the box is one thread
    /// (house rule 2), and only `run`'s loop on it ever touches this.
    nonisolated(unsafe) static let service = SystemdNotifier.fromEnvironment()

    /// The devices are open and the session's log created: READY=1, and
    /// the loop's turns will feed the watchdog and the status line.
    static func serviceReady(_ loop: inout BoxLoop<LinuxPlatform>) {
        guard let service else { return }
        loop.afterEachTurn = RunCommand.serviceTurn
        service.ready(status: serviceStatus(.idle, cameraLost: false, settingsRefused: loop.configuration.settingsRefused != nil))
    }

    /// After each turn of the loop: the watchdog and the status line. The
    /// lines are literals and sent only on change: nothing allocated per frame.
    static func serviceTurn(_ loop: BoxLoop<LinuxPlatform>) {
        guard let service else { return }
        service.watchdog(nowNanos: loop.platform.nowNanos)
        service.status(serviceStatus(loop.session.state, cameraLost: loop.platform.cameraIsLost,
                                     settingsRefused: loop.configuration.settingsRefused != nil))
    }

    static func serviceStatus(_ state: SoloLapSession.State, cameraLost: Bool, settingsRefused: Bool = false) -> String {
        if cameraLost { return "camera lost: waiting for it to come back" }
        switch state {
        case .idle where settingsRefused:
            return "idle, on the last good settings (ts-gate.conf refused: see the log): press the button to arm"
        case .idle: return "idle: press the button to arm"
        case .stabilising: return "waiting for the tripod to be still"
        case .armed: return "armed"
        case .running: return "running: the clock is started"
        case .stopped: return "stopped"
        }
    }

    /// The session is being closed: for a reload, or to stop.
    static func serviceSessionEnded(_ end: SessionEnd) {
        switch end {
        case .reload: service?.status("reloading the settings")
        default: service?.stopping()
        }
    }
}

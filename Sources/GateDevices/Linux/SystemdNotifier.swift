import CGateShim

/// The service manager's notification socket: sd_notify(3) without
/// libsystemd, which the static firmware cannot link. Each message is one
/// datagram of `KEY=value` lines to the socket systemd names in
/// $NOTIFY_SOCKET; a name starting with '@' is an abstract socket (the '@'
/// stands for a leading NUL byte). Outside systemd (a terminal, the tests)
/// there is no such socket and `fromEnvironment` gives nil.
///
/// Sending never blocks the loop and a failure is ignored: systemd going
/// away must not stop the gate; a missed WATCHDOG=1 is what restarts it.
public final class SystemdNotifier {
    private let descriptor: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t
    /// Half of the unit's WatchdogSec, as sd_watchdog_enabled(3) advises;
    /// nil when the unit sets none (or it is meant for another process).
    public let watchdogIntervalNanos: Int64?
    private var lastWatchdogNanos: Int64?
    private var lastStatus = ""

    /// The notifier systemd asked for through the environment, or nil.
    public static func fromEnvironment() -> SystemdNotifier? {
        guard let socket = Environment.value("NOTIFY_SOCKET") else { return nil }
        var interval: Int64?
        if let micros = Environment.value("WATCHDOG_USEC").flatMap({ Int64($0) }), micros > 0 {
            let forUs = Environment.value("WATCHDOG_PID").flatMap { Int32($0) }.map { $0 == getpid() } ?? true
            if forUs { interval = micros * 1000 / 2 }
        }
        return SystemdNotifier(socketName: socket, watchdogIntervalNanos: interval)
    }

    /// nil when the name does not fit a sockaddr_un or no socket can be made.
    public init?(socketName: String, watchdogIntervalNanos: Int64?) {
        var bytes = Array(socketName.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard bytes.first == UInt8(ascii: "/") || abstract else { return nil }
        // sun_path holds 108 bytes; a path needs room for its NUL, an abstract name does not.
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count + (abstract ? 0 : 1) <= capacity else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        descriptor = fd
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (i, byte) in bytes.enumerated() { path[i] = byte }
        }
        // sun_path follows the 2-byte family.
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        self.watchdogIntervalNanos = watchdogIntervalNanos
    }

    deinit { _ = CGateShim.close(descriptor) }

    /// Sends `state` (newline-separated assignments) as one datagram.
    @discardableResult
    public func send(_ state: String) -> Bool {
        var text = state
        return text.withUTF8 { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT),
                           $0, addressLength) == bytes.count
                }
            }
        }
    }

    /// Start-up is done (the devices are open): systemd marks the unit
    /// active and starts watching for WATCHDOG=1.
    public func ready(status: String) {
        lastStatus = status
        send("READY=1\nSTATUS=" + status)
    }

    /// The line `systemctl status` shows; sent only when it changes.
    public func status(_ text: String) {
        guard text != lastStatus else { return }
        lastStatus = text
        send("STATUS=" + text)
    }

    /// WATCHDOG=1 when half the watchdog interval has passed since the last
    /// one: cheap enough to call on every turn of the loop.
    public func watchdog(nowNanos: Int64) {
        guard let interval = watchdogIntervalNanos else { return }
        if let last = lastWatchdogNanos, nowNanos - last < interval { return }
        lastWatchdogNanos = nowNanos
        send("WATCHDOG=1")
    }

    /// The process is shutting down on purpose.
    public func stopping() { send("STOPPING=1") }
}

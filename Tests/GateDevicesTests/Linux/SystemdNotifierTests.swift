import Glibc
import Testing
@testable import GateDevices

/// sd_notify's wire as systemd sees it: datagrams on a Unix socket, here an
/// abstract one the test binds (what systemd's $NOTIFY_SOCKET usually names).
@Suite struct SystemdNotifierTests {
    /// A datagram socket bound to the abstract name `name` (without its '@').
    static func listen(_ name: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [UInt8(0)] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in bytes.enumerated() { $0[i] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        #expect(bound == 0)
        return fd
    }

    /// Every datagram waiting on `fd`, as text.
    static func received(_ fd: Int32) -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 512, 0) }
            guard n > 0 else { return messages }
            messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
    }

    static func name(_ test: String) -> String { "ts-gate-test-" + test + "-" + String(getpid()) }

    @Test func readyStatusAndWatchdogReachAnAbstractSocket() throws {
        let name = Self.name("ready")
        let fd = Self.listen(name)
        defer { close(fd) }
        let notifier = try #require(SystemdNotifier(socketName: "@" + name, watchdogIntervalNanos: 1000))
        notifier.ready(status: "idle")
        notifier.status("idle")            // unchanged: not sent again
        notifier.status("armed")
        notifier.watchdog(nowNanos: 5000)
        notifier.watchdog(nowNanos: 5500)  // within half the WatchdogSec: not yet
        notifier.watchdog(nowNanos: 6000)
        #expect(Self.received(fd) == ["READY=1\nSTATUS=idle", "STATUS=armed", "WATCHDOG=1", "WATCHDOG=1"])
    }

    @Test func withoutAWatchdogNoPingIsSent() throws {
        let name = Self.name("nowatchdog")
        let fd = Self.listen(name)
        defer { close(fd) }
        let notifier = try #require(SystemdNotifier(socketName: "@" + name, watchdogIntervalNanos: nil))
        notifier.watchdog(nowNanos: 1)
        notifier.stopping()
        #expect(Self.received(fd) == ["STOPPING=1"])
    }

    @Test func aNameThatIsNeitherAPathNorAbstractIsRefused() {
        #expect(SystemdNotifier(socketName: "relative/socket", watchdogIntervalNanos: nil) == nil)
        #expect(SystemdNotifier(socketName: "/" + String(repeating: "x", count: 200), watchdogIntervalNanos: nil) == nil)
    }
}

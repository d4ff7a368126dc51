import CGateShim
import Glibc
import Testing
@testable import GateDevices

@Suite struct FileDescriptorTests {
    @Test func openReportsTheErrnoOfAMissingFile() {
        #expect(throws: Errno.noEntry) { try FileDescriptor.open("/nonexistent/ts-gate", .readOnly) }
    }

    @Test func errnoDescriptionsComeFromStrerror() {
        #expect(Errno.noEntry.description == "No such file or directory")
        #expect(Errno.noSpace.description == "No space left on device")
    }

    @Test func writingToAClosedDescriptorIsEBADF() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = FileDescriptor(rawValue: fds[1])
        writer.close()
        FileDescriptor(rawValue: fds[0]).close()
        #expect(throws: Errno.badDescriptor) { try writer.writeAll("x") }
    }

    @Test func writingIntoAPipeWithNoReaderIsEPIPE() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        FileDescriptor(rawValue: fds[0]).close()
        let writer = FileDescriptor(rawValue: fds[1])
        defer { writer.close() }
        // SIGPIPE would kill the test process: ignore it for this test.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        #expect(throws: Errno.brokenPipe) { try writer.writeAll("x") }
    }

    @Test func writesAndReadsBackWholeText() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/f.txt"
        let fd = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive])
        let text = String(repeating: "ts-gate ✱ ", count: 20_000)
        try fd.writeAll(text)
        try fd.sync()
        fd.close()
        #expect(try FileDescriptor.readText(path: path) == text)
        #expect(throws: Errno.exists) { try FileDescriptor.open(path, [.writeOnly, .create, .exclusive]) }
    }
}

@Suite struct PollerTests {
    @Test func reportsOnlyTheReadableDescriptor() throws {
        var a: [Int32] = [0, 0], b: [Int32] = [0, 0]
        #expect(pipe(&a) == 0 && pipe(&b) == 0)
        defer { for fd in a + b { close(fd) } }
        var poller = Poller(capacity: 2)
        defer { poller.release() }
        let slotA = poller.register(FileDescriptor(rawValue: a[0]))
        let slotB = poller.register(FileDescriptor(rawValue: b[0]))
        #expect(try poller.wait(timeoutMillis: 0) == 0)
        try FileDescriptor(rawValue: b[1]).writeAll("!")
        #expect(try poller.wait(timeoutMillis: 1000) == 1)
        #expect(!poller.isReadable(slotA))
        #expect(poller.isReadable(slotB))
    }
}

@Suite struct SignalDescriptorTests {
    @Test func deliversSIGHUPAsReloadThroughTheDescriptor() throws {
        let signals = try SignalDescriptor.open()
        defer { signals.close() }
        #expect(try signals.next() == nil)
        raise(SIGHUP)
        #expect(try signals.next() == .reload)
        raise(SIGTERM)
        #expect(try signals.next() == .stop(signal: SIGTERM))
        #expect(try signals.next() == nil)
    }
}

@Suite struct TimerDescriptorTests {
    @Test func firesAndCountsExpirations() throws {
        let timer = try TimerDescriptor.open()
        defer { timer.close() }
        #expect(try timer.expirations() == 0)
        try timer.schedule(firstNanos: 1_000_000, intervalNanos: 1_000_000)
        var poller = Poller(capacity: 1)
        defer { poller.release() }
        let slot = poller.register(timer.descriptor)
        #expect(try poller.wait(timeoutMillis: 1000) == 1 && poller.isReadable(slot))
        usleep(5_000)
        #expect(try timer.expirations() >= 2)
        try timer.schedule(firstNanos: 0, intervalNanos: 0)   // disarmed
        #expect(try poller.wait(timeoutMillis: 20) == 0)
    }
}

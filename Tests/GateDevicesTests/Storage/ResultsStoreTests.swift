import Testing
import GateCore
@testable import GateDevices

@Suite struct ResultsStoreTests {
    @Test func numbersSessionsAndNeverReusesADirectory() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ResultsStore(dataDirectory: dir.path + "/data/nested")
        #expect(try store.sessionIds().isEmpty)
        let first = try store.createSession()
        first.close()
        let second = try store.createSession()
        second.close()
        #expect(first.sessionId == "session-0001")
        #expect(second.sessionId == "session-0002")
        #expect(try store.sessionIds() == ["session-0001", "session-0002"])
        // A foreign directory and a gap do not confuse the numbering.
        try Directory.createNew(dir.path + "/data/nested/session-0009")
        try Directory.createNew(dir.path + "/data/nested/notes")
        let third = try store.createSession()
        third.close()
        #expect(third.sessionId == "session-0010")
    }

    @Test func appendsLinesThatAreOnDiskWhenAppendReturns() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ResultsStore(dataDirectory: dir.path)
        let log = try store.createSession()
        try log.append("{\"type\":\"a\"}")
        try log.append("{\"type\":\"b\"}")
        #expect(try FileDescriptor.readText(path: log.path) == "{\"type\":\"a\"}\n{\"type\":\"b\"}\n")
        log.close()
        #expect(log.path == store.resultsPath(session: "session-0001"))
    }

    @Test func aDataDirectoryThatIsAFileIsNamedInTheError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.path + "/not-a-dir"
        let fd = try FileDescriptor.open(file, [.writeOnly, .create])
        fd.close()
        let store = ResultsStore(dataDirectory: file + "/data")
        do {
            _ = try store.createSession()
            Issue.record("expected an error")
        } catch {
            #expect(error.subject == file + "/data")
            #expect(error.problem == "creating the data directory failed: Not a directory")
        }
    }

    @Test func anUnwritableDataDirectoryIsNamedInTheError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // /proc refuses mkdir for everyone, root included.
        let store = ResultsStore(dataDirectory: "/proc/ts-gate-results")
        #expect(throws: GateError.self) { try store.createSession() }
        do { _ = try store.createSession() } catch { #expect(error.message.hasPrefix("/proc/ts-gate-results: creating the data directory failed")) }
    }
}

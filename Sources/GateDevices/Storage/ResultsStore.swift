import CGateShim
import GateCore

/// Results on the card (house rule 7): one directory per session, one
/// append-only JSON Lines file in it, every record fsync'd before the box
/// goes on. Nothing is ever rewritten; a new session never reuses a directory.
public struct ResultsStore {
    public let dataDirectory: String

    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
    }

    /// Session directories, oldest first ("session-0001", ...).
    public func sessionIds() throws(GateError) -> [String] {
        guard Directory.exists(dataDirectory) else { return [] }
        do {
            return try Directory.entries(dataDirectory).filter { ResultsStore.sessionNumber($0) != nil }
        } catch {
            throw GateError(dataDirectory, error, doing: "listing sessions")
        }
    }

    public func resultsPath(session: String) -> String {
        dataDirectory + "/" + session + "/" + ResultsFormat.fileName
    }

    /// Appends a coach's record (a session's name or note) to a session's
    /// results file, synced. Only appends: what the box wrote stays as it
    /// was. A power cut may have left the file's last line torn, without
    /// its newline: that line is ended first, so the new record is a line
    /// of its own (the reader then reports the torn one and skips it).
    public func append(_ jsonLine: String, toSession session: String) throws(GateError) {
        let path = resultsPath(session: session)
        do throws(Errno) {
            let fd = try FileDescriptor.open(path, [.readWrite, .append])
            defer { fd.close() }
            var last: UInt8 = 0x0A
            if lseek(fd.rawValue, -1, SEEK_END) >= 0 && CGateShim.read(fd.rawValue, &last, 1) != 1 { throw Errno.current }
            try fd.writeAll((last == 0x0A ? "" : "\n") + jsonLine + "\n")
            try fd.sync()
        } catch {
            throw GateError(path, error, doing: "appending to the session's results")
        }
    }

    /// Creates the next session directory and its results file.
    public func createSession() throws(GateError) -> SessionLog {
        do {
            try Directory.create(dataDirectory)
        } catch {
            throw GateError(dataDirectory, error, doing: "creating the data directory")
        }
        var next = (try sessionIds().compactMap { ResultsStore.sessionNumber($0) }.max() ?? 0) + 1
        // Another writer may race us to a number: mkdir is the arbiter.
        while true {
            let id = "session-" + DecimalText.zeroPadded(next, width: 4)
            let directory = dataDirectory + "/" + id
            do {
                try Directory.createNew(directory)
            } catch {
                if error == .exists { next += 1; continue }
                throw GateError(directory, error, doing: "creating the session directory")
            }
            let path = directory + "/" + ResultsFormat.fileName
            let fd: FileDescriptor
            do {
                fd = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive, .append])
                try Directory.sync(directory)
                try Directory.sync(dataDirectory)
            } catch {
                throw GateError(path, error, doing: "creating the results file")
            }
            return SessionLog(sessionId: id, path: path, descriptor: fd)
        }
    }

    static func sessionNumber(_ name: String) -> Int? {
        guard name.hasPrefix("session-"), name.utf8.count > 8 else { return nil }
        guard let n = DecimalText.parseInt(name.dropFirst(8)), n > 0 else { return nil }
        return Int(n)
    }
}

/// An open session's results file: append a line, fsync, go on.
public struct SessionLog {
    public let sessionId: String
    public let path: String
    private let descriptor: FileDescriptor

    init(sessionId: String, path: String, descriptor: FileDescriptor) {
        self.sessionId = sessionId
        self.path = path
        self.descriptor = descriptor
    }

    /// The session's directory: the results and the files beside them.
    public var directory: String { String(path.dropLast(ResultsFormat.fileName.utf8.count + 1)) }

    /// The data directory, holding every session's directory.
    public var dataDirectory: String {
        let session = directory
        guard let slash = session.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return String(session[..<slash])
    }

    /// Appends one record and waits until it is on the card.
    public func append(_ jsonLine: String) throws(GateError) {
        do {
            try descriptor.writeAll(jsonLine + "\n")
            try descriptor.sync()
        } catch {
            throw GateError(path, error, doing: "appending a result")
        }
    }

    /// Writes a file beside the results (a run's stability trace), synced,
    /// never over one already there: returns its name.
    public func writeSideFile(_ name: String, _ text: String) throws(GateError) -> String {
        let directory = String(path.dropLast(ResultsFormat.fileName.utf8.count + 1))
        let sidePath = directory + "/" + name
        do {
            let fd = try FileDescriptor.open(sidePath, [.writeOnly, .create, .exclusive])
            defer { fd.close() }
            try fd.writeAll(text)
            try fd.sync()
            try Directory.sync(directory)
        } catch {
            throw GateError(sidePath, error, doing: "writing " + name)
        }
        return name
    }

    public func close() { descriptor.close() }
}

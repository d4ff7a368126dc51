import CGateShim
import GateCore
import GateDevices

/// `ts-gate export csv|html`: files for a spreadsheet or a browser, made
/// from the sessions' JSON Lines, which stay the record. Written to a new
/// file (never over one already there) or to standard output.
enum ExportCommand {
    static func run(_ options: ExportOptions, console: Console) -> Int32 {
        guard let files = SessionFiles(dataDirectory: options.dataDirectory, console: console),
              let ids = files.ids(only: options.session, option: options.format == .csv ? "--session" : "", console: console)
        else { return 1 }
        var failed = false
        let sessions = files.read(ids, console: console, failed: &failed)
        let bytes: [UInt8]
        switch options.format {
        case .csv:
            bytes = Array(CSVExport.text(options.query.apply(sessions)).utf8)
        case .html:
            guard let session = sessions.first else { return 1 }   // unreadable: already said
            bytes = SessionReport.html(session, units: options.speedUnits,
                                       photos: photos(of: session, in: files.sessionDirectory(session.id), console: console))
        }
        guard write(bytes, to: options.output, console: console) else { return 1 }
        if let output = options.output { console.line("wrote " + output + " (" + String(bytes.count) + " bytes)") }
        return failed ? 1 : 0
    }

    /// The session's photos that are on the card; a crossing without them
    /// (an older box, the photo cap reached) simply has none in the report.
    static func photos(of session: RecordedSession, in directory: String, console: Console) -> [SessionReport.Photo] {
        var photos: [SessionReport.Photo] = []
        for wanted in SessionReport.photoPaths(session) {
            let path = directory + "/" + wanted.path
            guard Directory.exists(path) else { continue }
            do {
                photos.append(SessionReport.Photo(runId: wanted.runId, lap: wanted.lap, kind: wanted.kind, png: try FileDescriptor.readBytes(path: path)))
            } catch {
                console.problem("ts-gate: " + path + ": cannot read: " + error.description + "; the report goes without it")
            }
        }
        return photos
    }

    static func write(_ bytes: [UInt8], to output: String?, console: Console) -> Bool {
        guard let output else {
            do { try FileDescriptor.standardOutput.writeAll(bytes) } catch {
                console.problem("ts-gate: standard output: " + error.description)
                return false
            }
            return true
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(output, [.writeOnly, .create, .exclusive])
        } catch {
            console.problem("ts-gate: " + output + ": "
                + (error == .exists ? "already exists; export writes a new file (remove it or give another --output)" : "cannot create: " + error.description))
            return false
        }
        defer { fd.close() }
        do {
            try fd.writeAll(bytes)
            try fd.sync()
        } catch {
            _ = unlink(output)   // half a file is worse than none
            console.problem("ts-gate: " + output + ": cannot write: " + error.description)
            return false
        }
        return true
    }
}

import CGateShim

/// A small file the box owns and replaces whole (never a user's results):
/// written beside itself, flushed, then renamed over the old one, so a power
/// cut leaves either the old file or the new one, never half of each.
public enum ReplacedFile {
    public static func write(_ text: String, to path: String, permissions: UInt32 = 0o644) throws(Errno) {
        let temporary = path + ".new"
        let fd = try FileDescriptor.open(temporary, [.writeOnly, .create, .truncate], permissions: permissions)
        do {
            try fd.writeAll(text)
            try fd.sync()
        } catch {
            fd.close()
            _ = unlink(temporary)
            throw error
        }
        fd.close()
        if rename(temporary, path) != 0 {
            let failure = Errno.current
            _ = unlink(temporary)
            throw failure
        }
        // The rename itself reaches the card with the directory's own flush.
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let dirFd = try FileDescriptor.open(directory, [.readOnly, .directory])
        defer { dirFd.close() }
        try dirFd.sync()
    }
}

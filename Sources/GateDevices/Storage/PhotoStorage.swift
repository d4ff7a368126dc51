import CGateShim
import GateCore

/// What the card can take: its free space (statvfs) and the photos already
/// on it, for `PhotoBudget`.
public enum PhotoStorage {
    /// Bytes an unprivileged writer may still use on the filesystem of
    /// `path`; nil when it cannot be asked.
    public static func freeBytes(_ path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Bytes of the photos of every session in `dataDirectory`
    /// (`session-*/photos/*`), read once when a session starts.
    public static func photoBytes(dataDirectory: String) -> Int64 {
        guard let sessions = try? Directory.entries(dataDirectory) else { return 0 }
        var total: Int64 = 0
        for session in sessions where session.hasPrefix("session-") {
            let photos = dataDirectory + "/" + session + "/" + PhotoNames.directory
            guard let names = try? Directory.entries(photos) else { continue }
            for name in names { total += fileBytes(photos + "/" + name) }
        }
        return total
    }

    static func fileBytes(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

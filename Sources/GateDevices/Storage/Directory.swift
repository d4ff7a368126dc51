import CGateShim

/// The few directory operations the results store needs.
public enum Directory {
    /// Creates `path` and its missing parents (mkdir -p).
    public static func create(_ path: String) throws(Errno) {
        if path.isEmpty { return }
        var partial = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            if !partial.isEmpty && !partial.hasSuffix("/") { partial += "/" }
            partial += component
            if mkdir(partial, 0o755) != 0 {
                let errno = Errno.current
                if errno != .exists { throw errno }
                guard isDirectory(partial) else { throw Errno.notDirectory }
            }
        }
    }

    /// Creates exactly `path`; throws `.exists` if it is already there.
    public static func createNew(_ path: String) throws(Errno) {
        if mkdir(path, 0o755) != 0 { throw Errno.current }
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && gate_stat_is_dir(&info) != 0
    }

    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Names in `path`, without "." and "..", sorted (readdir's order is the disk's).
    public static func entries(_ path: String) throws(Errno) -> [String] {
        guard let dir = opendir(path) else { throw Errno.current }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = String(cString: gate_dirent_name(entry))
            if name != "." && name != ".." { names.append(name) }
        }
        names.sort()
        return names
    }

    /// Makes a new directory entry durable (after creating a file in it).
    public static func sync(_ path: String) throws(Errno) {
        let fd = try FileDescriptor.open(path, [.readOnly, .directory])
        defer { fd.close() }
        try fd.sync()
    }
}

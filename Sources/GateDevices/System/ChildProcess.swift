import CGateShim

/// Runs a helper program to its end: the command line's own tools (espeak-ng
/// speaking an athlete's name), never the loop, which must not block.
public enum ChildProcess {
    /// Runs `arguments` (the first is the program, looked up on PATH) and
    /// returns its exit status (128 + signal when a signal ended it).
    /// Throws ENOENT when the program is not installed.
    public static func run(_ arguments: [String]) throws(Errno) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let failed = argv.withUnsafeBufferPointer { gate_spawnp(&pid, $0[0], $0.baseAddress!) }
        guard failed == 0 else { throw Errno(failed) }
        var status: Int32 = 0
        _ = try retryingOnInterrupt { waitpid(pid, &status, 0) }
        return gate_exit_status(status)
    }
}

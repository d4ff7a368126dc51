import CGateShim

/// poll() over a fixed set of descriptors, registered once before the loop
/// (after swift-nio's selector: concrete registrations, no allocation per wait).
public struct Poller {
    private let fds: UnsafeMutablePointer<pollfd>
    public let capacity: Int
    public private(set) var count = 0

    public init(capacity: Int) {
        self.capacity = capacity
        fds = .allocate(capacity: capacity)
    }

    /// Frees the table; the descriptors themselves belong to their owners.
    public func release() { fds.deallocate() }

    /// Adds a descriptor waited on for input; returns its slot, which
    /// `isReadable` takes.
    public mutating func register(_ fd: FileDescriptor) -> Int {
        register(fd, events: Int16(POLLIN), enabled: true)
    }

    /// Adds a descriptor waited on for room to write (a playback PCM),
    /// disabled until `setEnabled`: such a device reports POLLOUT or POLLERR
    /// all the time when idle, so it is only in the wait while it streams.
    public mutating func registerForOutput(_ fd: FileDescriptor) -> Int {
        register(fd, events: Int16(POLLOUT), enabled: false)
    }

    private mutating func register(_ fd: FileDescriptor, events: Int16, enabled: Bool) -> Int {
        precondition(count < capacity, "poller is full")
        fds[count] = pollfd(fd: enabled ? fd.rawValue : ~fd.rawValue, events: events, revents: 0)
        count += 1
        return count - 1
    }

    /// Points a slot at a new descriptor (a device reopened), enabled.
    public func replace(_ slot: Int, with fd: FileDescriptor) {
        fds[slot].fd = fd.rawValue
        fds[slot].revents = 0
    }

    /// Switches a slot between waiting for input and waiting for room to
    /// write: a socket that connects (writable when connected) and then reads.
    public func setWaitsForOutput(_ slot: Int, _ output: Bool) {
        fds[slot].events = Int16(output ? POLLOUT : POLLIN)
        fds[slot].revents = 0
    }

    /// poll() skips a negative descriptor; its complement keeps the number.
    public func setEnabled(_ slot: Int, _ enabled: Bool) {
        let fd = fds[slot].fd
        if (fd >= 0) != enabled { fds[slot].fd = ~fd }
        if !enabled { fds[slot].revents = 0 }
    }

    /// Waits up to `timeoutMillis` (-1: forever). Returns the number of ready
    /// descriptors, 0 on timeout. EINTR comes back as 0: the caller's loop
    /// re-evaluates its timers and waits again.
    public mutating func wait(timeoutMillis: Int32) throws(Errno) -> Int {
        let n = poll(fds, nfds_t(count), timeoutMillis)
        if n < 0 {
            let errno = Errno.current
            if errno == .interrupted { return 0 }
            throw errno
        }
        return Int(n)
    }

    /// Whatever the slot waits for happened (input or room to write), or an error.
    public func isReady(_ slot: Int) -> Bool {
        fds[slot].revents != 0
    }

    public func isReadable(_ slot: Int) -> Bool {
        fds[slot].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
    }

    /// Room to write, or an error the write will name (EPIPE after an underrun).
    public func isWritable(_ slot: Int) -> Bool {
        fds[slot].revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0
    }
}

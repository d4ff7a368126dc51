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

    /// Adds a descriptor; returns its slot, which `isReadable` takes.
    public mutating func register(_ fd: FileDescriptor) -> Int {
        precondition(count < capacity, "poller is full")
        fds[count] = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        count += 1
        return count - 1
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

    public func isReadable(_ slot: Int) -> Bool {
        fds[slot].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
    }
}

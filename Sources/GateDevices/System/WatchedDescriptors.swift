/// The descriptors the loop's own sources put in a platform's one wait
/// (`DescriptorWatcher`: the GATT station's sockets, the coach's page's),
/// on top of the platform's fixed devices. The poller's table is fixed, so
/// a slot given back is disabled and reused rather than removed.
public struct WatchedDescriptors {
    private var slots: [(slot: Int, owner: WatchOwner)] = []
    private var free: [Int] = []

    public init() {}

    /// A slot waiting for input on `descriptor`; nil when the table is full.
    public mutating func watch(_ descriptor: FileDescriptor, for owner: WatchOwner, in poller: inout Poller) -> Int? {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            poller.replace(slot, with: descriptor)
        } else {
            guard poller.count < poller.capacity else { return nil }
            slot = poller.register(descriptor)
        }
        poller.setWaitsForOutput(slot, false)
        slots.append((slot, owner))
        return slot
    }

    public mutating func unwatch(_ slot: Int, in poller: inout Poller) {
        guard let i = slots.firstIndex(where: { $0.slot == slot }) else { return }
        slots.remove(at: i)
        poller.setEnabled(slot, false)
        free.append(slot)
    }

    /// Whose slots are ready after a wait.
    public func ready(in poller: Poller) -> ReadySources {
        var ready: ReadySources = []
        for watched in slots where poller.isReady(watched.slot) { ready.insert(watched.owner.ready) }
        return ready
    }
}

/// The simulator's CLOCK_MONOTONIC: it moves only when the platform's wait
/// jumps it to the next event, so a session is deterministic and can run
/// faster than real time. Shared by the simulated devices (owned by the platform).
public final class VirtualClock {
    public private(set) var nowNanos: Int64

    public init(startNanos: Int64 = 0) { nowNanos = startNanos }

    public func advance(to nanos: Int64) {
        precondition(nanos >= nowNanos, "virtual time never runs backwards")
        nowNanos = nanos
    }
}

import CGateShim

/// The loop's optional real-time footing: all memory locked (no page fault
/// in the frame path, mlockall) and a SCHED_FIFO priority above ordinary
/// work. Both need privileges (CAP_IPC_LOCK, CAP_SYS_NICE or root); without
/// them the box still times correctly (every time is a kernel stamp), it
/// only risks latency, so the caller logs one warning and carries on.
public enum RealTime {
    /// Below the kernel's threaded IRQ handlers (50), above everything else.
    public static let priority: Int32 = 40

    /// What could not be set up, one entry per refusal; empty when all took.
    public static func enable() -> [String] {
        var refused: [String] = []
        if mlockall(MCL_CURRENT | MCL_FUTURE) != 0 {
            refused.append("mlockall: " + Errno.current.description)
        }
        var param = sched_param()
        param.sched_priority = priority
        if sched_setscheduler(0, SCHED_FIFO, &param) != 0 {
            refused.append("SCHED_FIFO " + String(priority) + ": " + Errno.current.description)
        }
        return refused
    }
}

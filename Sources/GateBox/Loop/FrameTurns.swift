/// How long the loop works on each frame, on the wall clock: from the
/// frame's dequeue to the end of its turn (detection, the photos' copy and
/// slice, records). A turn longer than a frame period means the next frame
/// waited: on the box, a frame late (and the camera drops frames when it
/// happens often). In a simulation it measures the same work.
public struct FrameTurns: Equatable {
    public private(set) var count = 0
    public private(set) var longestNanos: Int64 = 0
    public private(set) var totalNanos: Int64 = 0
    /// Turns longer than a frame period.
    public private(set) var overPeriod = 0
    /// The longest turn without a crossing: a crossing's turn also writes
    /// and fsyncs its records, which photos do not change.
    public private(set) var longestWithoutCrossingNanos: Int64 = 0
    public private(set) var overPeriodWithoutCrossing = 0

    public init() {}

    mutating func record(nanos: Int64, periodNanos: Int64, crossing: Bool) {
        count += 1
        totalNanos += nanos
        longestNanos = max(longestNanos, nanos)
        if nanos > periodNanos { overPeriod += 1 }
        guard !crossing else { return }
        longestWithoutCrossingNanos = max(longestWithoutCrossingNanos, nanos)
        if nanos > periodNanos { overPeriodWithoutCrossing += 1 }
    }
}

/// The last few seconds of the accelerometer, kept so each timed run can be
/// saved with the motion of the tripod around it (a coach can see whether a
/// "tripod moved" flag was a knock or a gust). A fixed ring, filled at the
/// IMU's rate; nothing is allocated per sample.
public struct StabilityTrace {
    public let capacity: Int
    private var samples: [AccelSample]
    private var next = 0
    public private(set) var count = 0

    /// 512 samples: 5.1 s at the default 100 Hz.
    public init(capacity: Int = 512) {
        self.capacity = capacity
        samples = Array(repeating: AccelSample(x: 0, y: 0, z: 0, timestampNanos: 0), count: capacity)
    }

    public mutating func add(_ sample: AccelSample) {
        samples[next] = sample
        next = (next + 1) % capacity
        count = min(count + 1, capacity)
    }

    /// The kept samples from `fromNanos` on, oldest first, as CSV: time since
    /// `originNanos` in ms, then x, y, z in g.
    public func csv(fromNanos: Int64, originNanos: Int64) -> String {
        var text = "t_ms,x_g,y_g,z_g\n"
        for i in 0..<count {
            let s = samples[(next - count + i + capacity) % capacity]
            guard s.timestampNanos >= fromNanos else { continue }
            text += DecimalText.fixed(Double(s.timestampNanos - originNanos) / 1e6, places: 1) + ","
                + DecimalText.fixed(s.x, places: 4) + "," + DecimalText.fixed(s.y, places: 4) + ","
                + DecimalText.fixed(s.z, places: 4) + "\n"
        }
        return text
    }
}

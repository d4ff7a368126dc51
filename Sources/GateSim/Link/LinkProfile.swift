/// What a simulated BLE connection between two boxes is like, and where each
/// number comes from. Nothing here is tuned to make sync look good: the
/// values are the Core Specification's rules or measured figures of real
/// controllers and host transports, and the spread of each is drawn per box.
public struct LinkProfile: Equatable, Sendable {
    public var name: String
    /// Connection interval: 7.5 ms to 4 s in 1.25 ms steps (Core Spec v5.3,
    /// Vol 6 Part B 4.5.1). The box asks for 7.5 ms; phones often grant 15-50.
    public var intervalNanos: Int64
    /// Inter-frame space between packets of one event: 150 us (Vol 6 Part B 4.1.1).
    public var interFrameNanos: Int64 = 150_000
    /// LE 1M PHY: 8 us a byte; a packet adds preamble 1, access address 4,
    /// header 2 and CRC 3 bytes (Vol 6 Part B 2.1); the L2CAP header 4 more.
    public var nanosPerByte: Int64 = 8_000
    /// The ATT payload of one packet: both boxes ask for an MTU of 512
    /// (seed 002 section 2.3) and LE Data Length Extension's 251-byte
    /// packets carry 244 bytes of it (251 less L2CAP's 4 and ATT's 3).
    public var attPayloadBytes = 244
    /// Packets a side can send in one connection event before the event
    /// closes. Controllers differ (2 to 6 at 7.5 ms were reported); 4 is typical.
    public var packetsPerEvent = 4
    /// Host to controller and controller to host: the HCI transport and the
    /// driver. A Pi's on-board controller on a 3 Mbaud UART: 0.1 ms on the
    /// wire for a 30-byte packet plus interrupt and workqueue latency; a USB
    /// dongle: an event endpoint polled every 1 ms (USB full speed interrupt
    /// interval, the Bluetooth USB transport's rule). `latencyNanos` is a
    /// box's mean, drawn per box within +-`latencySpreadNanos` (two boxes of
    /// one model are alike, not identical); `jitterNanos` the per-packet
    /// spread on top (uniform, 0 to jitter).
    public var latencyNanos: Int64
    public var latencySpreadNanos: Int64
    public var jitterNanos: Int64
    /// How late a controller reports a packet acknowledged (HCI Number Of
    /// Completed Packets): at once on some, at the event's end or batched on
    /// others. Uniform, 0 to this, per packet.
    public var completionDelayNanos: Int64
    /// A packet lost on the air (CRC error, interference) is sent again at
    /// the next connection event; later packets wait behind it (in order).
    public var lossProbability: Double = 0
    /// Silence for this long drops the connection (supervision timeout,
    /// 100 ms to 32 s; 2 s here, as phones commonly use 2-6 s).
    public var supervisionTimeoutNanos: Int64 = 2_000_000_000
    /// From the air coming back to a new connection: the peripheral's
    /// advertising interval (100 ms is the box's) plus the central's scan
    /// window and connection setup.
    public var reconnectNanos: Int64 = 300_000_000

    public init(name: String, intervalNanos: Int64, latencyNanos: Int64, latencySpreadNanos: Int64, jitterNanos: Int64,
                completionDelayNanos: Int64) {
        self.name = name
        self.intervalNanos = intervalNanos
        self.latencyNanos = latencyNanos
        self.latencySpreadNanos = latencySpreadNanos
        self.jitterNanos = jitterNanos
        self.completionDelayNanos = completionDelayNanos
    }

    /// A Raspberry Pi's on-board controller (UART HCI at 3 Mbaud).
    public static func uart(intervalNanos: Int64) -> LinkProfile {
        LinkProfile(name: "uart", intervalNanos: intervalNanos, latencyNanos: 300_000, latencySpreadNanos: 100_000,
                    jitterNanos: 250_000, completionDelayNanos: 300_000)
    }

    /// A USB dongle: its events wait for the next 1 ms poll of the endpoint.
    public static func usb(intervalNanos: Int64) -> LinkProfile {
        LinkProfile(name: "usb", intervalNanos: intervalNanos, latencyNanos: 600_000, latencySpreadNanos: 150_000,
                    jitterNanos: 1_000_000, completionDelayNanos: 1_000_000)
    }

    /// Air time of a packet carrying `bytes` of ATT PDU.
    func airNanos(bytes: Int) -> Int64 { Int64(bytes + 4 + 10) * nanosPerByte }
    /// An empty packet (header only): 10 bytes, 80 us.
    var emptyNanos: Int64 { 10 * nanosPerByte }
}

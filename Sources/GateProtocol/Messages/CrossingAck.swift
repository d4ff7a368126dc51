/// crossing_ack: the box's own extension, not in seed 002. The host of a race
/// of boxes answers each crossing_event with one, naming the crossing by the
/// sender's role and stamp; the sender keeps the crossing and sends it again
/// after a reconnect until this arrives, and the host counts a crossing once
/// by (deviceId, crossingTimeNanos). Phones ignore the type (seed 002, 7.2).
///
///     {"type":"crossing_ack","timestamp":...,"deviceId":"abc-123",
///      "payload":{"role":"finish","crossingTimeNanos":1706000100123456789}}
public struct CrossingAck: Equatable, Sendable, MessagePayload {
    public static let type = "crossing_ack"

    public var role: GateRole
    /// The acknowledged crossing_event's crossingTimeNanos, on the sender's clock.
    public var crossingTimeNanos: Int64

    public init(role: GateRole, crossingTimeNanos: Int64) {
        self.role = role
        self.crossingTimeNanos = crossingTimeNanos
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> CrossingAck {
        CrossingAck(role: try payload.word("role", as: GateRole.self), crossingTimeNanos: try payload.int64("crossingTimeNanos"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("role", .string(role.wire))
        payload.append("crossingTimeNanos", .int(crossingTimeNanos))
    }
}

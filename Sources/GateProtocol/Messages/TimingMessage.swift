/// One protocol message (seed 002, 3.1): who sent it, when, and what.
public struct TimingMessage: Equatable, Sendable {
    /// Unix time in milliseconds when the sender wrote the message.
    public var timestamp: Int64
    /// The sender's device UUID.
    public var deviceId: String
    public var payload: TimingPayload

    public init(timestamp: Int64, deviceId: String, payload: TimingPayload) {
        self.timestamp = timestamp
        self.deviceId = deviceId
        self.payload = payload
    }

    /// The envelope's `type`: "crossing_event", ...
    public var type: String { payload.type }
}

/// Every message type of seed 002 (3.2 and 7.3), one case each, and the
/// box's one extension type, crossing_ack.
public enum TimingPayload: Equatable, Sendable {
    case sessionCreate(SessionCreate)
    case sessionJoin(SessionJoin)
    case sessionJoinAccepted(SessionJoinAccepted)
    case sessionEnd(SessionEnd)
    case clockSyncPing(ClockSyncPing)
    case clockSyncPong(ClockSyncPong)
    case clockSyncResult(ClockSyncResult)
    case gateCalibrating(GateCalibrating)
    case gateReady(GateReady)
    case gateNotReady(GateNotReady)
    case crossingEvent(CrossingEvent)
    case splitTimeCalculated(SplitTimeCalculated)
    case heartbeat(Heartbeat)
    case resetForNextRun(ResetForNextRun)
    case armGates(ArmGates)
    case error(ErrorReport)
    /// The box's extension: the host of a race acknowledges a crossing_event.
    case crossingAck(CrossingAck)
    /// A type from a later protocol version: seed 002, 7.2 says log and
    /// ignore it. Its payload is not kept; encoding writes an empty one.
    case unknown(type: String)

    public var type: String {
        switch self {
        case .sessionCreate: return "session_create"
        case .sessionJoin: return "session_join"
        case .sessionJoinAccepted: return "session_join_accepted"
        case .sessionEnd: return "session_end"
        case .clockSyncPing: return "clock_sync_ping"
        case .clockSyncPong: return "clock_sync_pong"
        case .clockSyncResult: return "clock_sync_result"
        case .gateCalibrating: return "gate_calibrating"
        case .gateReady: return "gate_ready"
        case .gateNotReady: return "gate_not_ready"
        case .crossingEvent: return "crossing_event"
        case .splitTimeCalculated: return "split_time_calculated"
        case .heartbeat: return "heartbeat"
        case .resetForNextRun: return "reset_for_next_run"
        case .armGates: return "arm_gates"
        case .error: return "error"
        case .crossingAck: return CrossingAck.type
        case .unknown(let type): return type
        }
    }

    static func decode(type: String, payload: FieldReader) throws(MessageDecodeError) -> TimingPayload {
        switch type {
        case "session_create": return .sessionCreate(try SessionCreate.decode(payload))
        case "session_join": return .sessionJoin(try SessionJoin.decode(payload))
        case "session_join_accepted": return .sessionJoinAccepted(try SessionJoinAccepted.decode(payload))
        case "session_end": return .sessionEnd(try SessionEnd.decode(payload))
        case "clock_sync_ping": return .clockSyncPing(try ClockSyncPing.decode(payload))
        case "clock_sync_pong": return .clockSyncPong(try ClockSyncPong.decode(payload))
        case "clock_sync_result": return .clockSyncResult(try ClockSyncResult.decode(payload))
        case "gate_calibrating": return .gateCalibrating(try GateCalibrating.decode(payload))
        case "gate_ready": return .gateReady(try GateReady.decode(payload))
        case "gate_not_ready": return .gateNotReady(try GateNotReady.decode(payload))
        case "crossing_event": return .crossingEvent(try CrossingEvent.decode(payload))
        case "split_time_calculated": return .splitTimeCalculated(try SplitTimeCalculated.decode(payload))
        case "heartbeat": return .heartbeat(try Heartbeat.decode(payload))
        case "reset_for_next_run": return .resetForNextRun(try ResetForNextRun.decode(payload))
        case "arm_gates": return .armGates(try ArmGates.decode(payload))
        case "error": return .error(try ErrorReport.decode(payload))
        case CrossingAck.type: return .crossingAck(try CrossingAck.decode(payload))
        default: return .unknown(type: type)
        }
    }

    func encode(into payload: inout JSONObject) {
        switch self {
        case .sessionCreate(let body): body.encode(into: &payload)
        case .sessionJoin(let body): body.encode(into: &payload)
        case .sessionJoinAccepted(let body): body.encode(into: &payload)
        case .sessionEnd(let body): body.encode(into: &payload)
        case .clockSyncPing(let body): body.encode(into: &payload)
        case .clockSyncPong(let body): body.encode(into: &payload)
        case .clockSyncResult(let body): body.encode(into: &payload)
        case .gateCalibrating(let body): body.encode(into: &payload)
        case .gateReady(let body): body.encode(into: &payload)
        case .gateNotReady(let body): body.encode(into: &payload)
        case .crossingEvent(let body): body.encode(into: &payload)
        case .splitTimeCalculated(let body): body.encode(into: &payload)
        case .heartbeat(let body): body.encode(into: &payload)
        case .resetForNextRun(let body): body.encode(into: &payload)
        case .armGates(let body): body.encode(into: &payload)
        case .error(let body): body.encode(into: &payload)
        case .crossingAck(let body): body.encode(into: &payload)
        case .unknown: break
        }
    }
}

extension TimingMessage {
    /// Reads one message. Unknown fields are ignored and an unknown type gives
    /// `.unknown` (seed 002, 9.2 and 7.2); anything else wrong is refused,
    /// naming the type, the field and what was expected.
    public static func decode(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(MessageDecodeError) -> TimingMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw .json(error)
        }
        return try decode(value)
    }

    public static func decode(_ text: String, limits: JSONLimits = JSONLimits()) throws(MessageDecodeError) -> TimingMessage {
        try decode(Array(text.utf8), limits: limits)
    }

    public static func decode(_ value: JSONValue) throws(MessageDecodeError) -> TimingMessage {
        guard case .object(let object) = value else {
            throw .field(messageType: "", field: "(message)", expected: "an object", found: value.kindName)
        }
        let envelope = FieldReader(object: object, messageType: "", path: "")
        let type = try envelope.string("type")
        let typed = FieldReader(object: object, messageType: type, path: "")
        let timestamp = try typed.int64("timestamp")
        let deviceId = try typed.string("deviceId")
        let payload: TimingPayload
        if let body = try typed.optionalObject("payload") {
            payload = try TimingPayload.decode(type: type, payload: body)
        } else {
            // A missing payload reads as {}: fine for an unknown type, which is
            // ignored whole; a known type then names the payload as missing.
            let empty = FieldReader(object: JSONObject(), messageType: type, path: "payload")
            do {
                payload = try TimingPayload.decode(type: type, payload: empty)
            } catch {
                throw typed.refuse("payload", expected: "an object", found: "missing")
            }
        }
        return TimingMessage(timestamp: timestamp, deviceId: deviceId, payload: payload)
    }

    /// The message as a JSON value: type, timestamp, deviceId, payload, in that order.
    public var json: JSONValue {
        var envelope = JSONObject()
        envelope.append("type", .string(type))
        envelope.append("timestamp", .int(timestamp))
        envelope.append("deviceId", .string(deviceId))
        var body = JSONObject()
        payload.encode(into: &body)
        envelope.append("payload", .object(body))
        return .object(envelope)
    }

    /// Compact JSON bytes, ready to fragment.
    public func encoded() -> [UInt8] { JSONWriter.bytes(json) }

    public func encodedText() -> String { JSONWriter.text(json) }
}

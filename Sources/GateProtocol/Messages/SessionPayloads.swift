/// How one payload type reads itself from, and writes itself into, the
/// payload object. Field names are seed 002's, written in its order.
protocol MessagePayload {
    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> Self
    func encode(into payload: inout JSONObject)
}

/// Who is speaking (seed 002, 9.1): sent in session_create and session_join,
/// all optional since peers from before 9.1 leave them out.
public struct PeerVersionInfo: Equatable, Sendable {
    /// "major.minor"; see ProtocolVersion.negotiate.
    public var protocolVersion: String?
    public var appVersion: String?
    /// "ios", "android"; the box says "ts-gate".
    public var platform: String?

    public init(protocolVersion: String? = nil, appVersion: String? = nil, platform: String? = nil) {
        self.protocolVersion = protocolVersion
        self.appVersion = appVersion
        self.platform = platform
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> PeerVersionInfo {
        PeerVersionInfo(protocolVersion: try payload.optionalString("protocolVersion"),
                        appVersion: try payload.optionalString("appVersion"),
                        platform: try payload.optionalString("platform"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("protocolVersion", ifPresent: protocolVersion.map { .string($0) })
        payload.append("appVersion", ifPresent: appVersion.map { .string($0) })
        payload.append("platform", ifPresent: platform.map { .string($0) })
    }
}

/// Feature flags (seed 002, 9.3). Each is optional: absent means the peer did
/// not say. Flags this box does not know are ignored, as 9.2 asks.
public struct Capabilities: Equatable, Sendable {
    public var highSpeedCamera: Bool?
    public var maxFps: Int?
    public var binaryClockSync: Bool?
    public var multiGate: Bool?
    /// The box's extension: it can sync from the radio's acknowledgement
    /// stamps sent in a FOLLOW_UP (`ClockSyncExchange`'s precise mode).
    public var preciseClockSync: Bool?

    public init(highSpeedCamera: Bool? = nil, maxFps: Int? = nil, binaryClockSync: Bool? = nil, multiGate: Bool? = nil,
                preciseClockSync: Bool? = nil) {
        self.highSpeedCamera = highSpeedCamera
        self.maxFps = maxFps
        self.binaryClockSync = binaryClockSync
        self.multiGate = multiGate
        self.preciseClockSync = preciseClockSync
    }

    static func decode(_ object: FieldReader) throws(MessageDecodeError) -> Capabilities {
        Capabilities(highSpeedCamera: try object.optionalBool("highSpeedCamera"), maxFps: try object.optionalInt("maxFps"),
                     binaryClockSync: try object.optionalBool("binaryClockSync"), multiGate: try object.optionalBool("multiGate"),
                     preciseClockSync: try object.optionalBool("preciseClockSync"))
    }

    /// The payload's "capabilities" object, if it has one.
    static func decodeIfPresent(in payload: FieldReader) throws(MessageDecodeError) -> Capabilities? {
        guard let object = try payload.optionalObject("capabilities") else { return nil }
        return try decode(object)
    }

    func encoded() -> JSONValue {
        var object = JSONObject()
        object.append("highSpeedCamera", ifPresent: highSpeedCamera.map { .bool($0) })
        object.append("maxFps", ifPresent: maxFps.map { .int($0) })
        object.append("binaryClockSync", ifPresent: binaryClockSync.map { .bool($0) })
        object.append("multiGate", ifPresent: multiGate.map { .bool($0) })
        object.append("preciseClockSync", ifPresent: preciseClockSync.map { .bool($0) })
        return .object(object)
    }
}

/// session_create.settings.
public struct SessionSettings: Equatable, Sendable {
    /// Metres from start to finish, when the host knows it.
    public var distance: Double?
    public var startType: WireStartType

    public init(distance: Double? = nil, startType: WireStartType) {
        self.distance = distance
        self.startType = startType
    }
}

/// session_create: the host opens a session.
public struct SessionCreate: Equatable, Sendable, MessagePayload {
    public var sessionId: String
    /// The 6-digit join code, as text: a leading zero is part of it.
    public var sessionCode: String
    public var hostRole: GateRole
    public var settings: SessionSettings
    public var version: PeerVersionInfo
    public var capabilities: Capabilities?

    public init(sessionId: String, sessionCode: String, hostRole: GateRole, settings: SessionSettings,
                version: PeerVersionInfo = PeerVersionInfo(), capabilities: Capabilities? = nil) {
        self.sessionId = sessionId
        self.sessionCode = sessionCode
        self.hostRole = hostRole
        self.settings = settings
        self.version = version
        self.capabilities = capabilities
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> SessionCreate {
        let settings = try payload.object("settings")
        return SessionCreate(
            sessionId: try payload.string("sessionId"), sessionCode: try payload.string("sessionCode"),
            hostRole: try payload.word("hostRole", as: GateRole.self),
            settings: SessionSettings(distance: try settings.optionalDouble("distance"),
                                      startType: try settings.word("startType", as: WireStartType.self)),
            version: try PeerVersionInfo.decode(payload),
            capabilities: try Capabilities.decodeIfPresent(in: payload))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("sessionId", .string(sessionId))
        payload.append("sessionCode", .string(sessionCode))
        payload.append("hostRole", .string(hostRole.wire))
        var settingsObject = JSONObject()
        settingsObject.append("distance", ifPresent: settings.distance.map { .double($0) })
        settingsObject.append("startType", .string(settings.startType.wire))
        payload.append("settings", .object(settingsObject))
        version.encode(into: &payload)
        payload.append("capabilities", ifPresent: capabilities?.encoded())
    }
}

/// session_join: a device asks to join with a role.
public struct SessionJoin: Equatable, Sendable, MessagePayload {
    public var sessionId: String
    public var requestedRole: GateRole
    public var version: PeerVersionInfo
    public var capabilities: Capabilities?
    /// The box's extension: the joiner's display name, which the host lists
    /// in session_join_accepted.devices. Optional; phones leave it out.
    public var name: String?

    public init(sessionId: String, requestedRole: GateRole, version: PeerVersionInfo = PeerVersionInfo(),
                capabilities: Capabilities? = nil, name: String? = nil) {
        self.sessionId = sessionId
        self.requestedRole = requestedRole
        self.version = version
        self.capabilities = capabilities
        self.name = name
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> SessionJoin {
        SessionJoin(sessionId: try payload.string("sessionId"), requestedRole: try payload.word("requestedRole", as: GateRole.self),
                    version: try PeerVersionInfo.decode(payload),
                    capabilities: try Capabilities.decodeIfPresent(in: payload),
                    name: try payload.optionalString("name"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("sessionId", .string(sessionId))
        payload.append("requestedRole", .string(requestedRole.wire))
        version.encode(into: &payload)
        payload.append("capabilities", ifPresent: capabilities?.encoded())
        payload.append("name", ifPresent: name.map { .string($0) })
    }
}

/// One entry of session_join_accepted.devices.
public struct SessionDevice: Equatable, Sendable {
    public var deviceId: String
    public var role: GateRole
    public var name: String
    /// Metres from the start line, for a lap gate (seed 000's GateAssignment).
    public var distanceFromStart: Double?

    public init(deviceId: String, role: GateRole, name: String, distanceFromStart: Double? = nil) {
        self.deviceId = deviceId
        self.role = role
        self.name = name
        self.distanceFromStart = distanceFromStart
    }
}

/// session_join_accepted: the host's answer, with every device in the session.
public struct SessionJoinAccepted: Equatable, Sendable, MessagePayload {
    public var sessionId: String
    public var assignedRole: GateRole
    /// For an assigned lap gate, its metres from the start line.
    public var distanceFromStart: Double?
    public var devices: [SessionDevice]
    /// The box's extension, seed 000's GateAssignment.gateIndex: 0 the start,
    /// 1...N-2 the lap gates, N-1 the finish. Optional; phones ignore it.
    public var gateIndex: Int?

    public init(sessionId: String, assignedRole: GateRole, distanceFromStart: Double? = nil, devices: [SessionDevice],
                gateIndex: Int? = nil) {
        self.sessionId = sessionId
        self.assignedRole = assignedRole
        self.distanceFromStart = distanceFromStart
        self.devices = devices
        self.gateIndex = gateIndex
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> SessionJoinAccepted {
        var devices: [SessionDevice] = []
        for device in try payload.objects("devices") {
            devices.append(SessionDevice(deviceId: try device.string("deviceId"), role: try device.word("role", as: GateRole.self),
                                         name: try device.string("name"),
                                         distanceFromStart: try device.optionalDouble("distanceFromStart")))
        }
        return SessionJoinAccepted(sessionId: try payload.string("sessionId"),
                                   assignedRole: try payload.word("assignedRole", as: GateRole.self),
                                   distanceFromStart: try payload.optionalDouble("distanceFromStart"), devices: devices,
                                   gateIndex: try payload.optionalInt("gateIndex"))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("sessionId", .string(sessionId))
        payload.append("assignedRole", .string(assignedRole.wire))
        payload.append("distanceFromStart", ifPresent: distanceFromStart.map { .double($0) })
        var array: [JSONValue] = []
        for device in devices {
            var object = JSONObject()
            object.append("deviceId", .string(device.deviceId))
            object.append("role", .string(device.role.wire))
            object.append("name", .string(device.name))
            object.append("distanceFromStart", ifPresent: device.distanceFromStart.map { .double($0) })
            array.append(.object(object))
        }
        payload.append("devices", .array(array))
        payload.append("gateIndex", ifPresent: gateIndex.map { .int($0) })
    }
}

/// session_end.
public struct SessionEnd: Equatable, Sendable, MessagePayload {
    public var sessionId: String
    public var reason: SessionEndReason

    public init(sessionId: String, reason: SessionEndReason) {
        self.sessionId = sessionId
        self.reason = reason
    }

    static func decode(_ payload: FieldReader) throws(MessageDecodeError) -> SessionEnd {
        SessionEnd(sessionId: try payload.string("sessionId"), reason: try payload.word("reason", as: SessionEndReason.self))
    }

    func encode(into payload: inout JSONObject) {
        payload.append("sessionId", .string(sessionId))
        payload.append("reason", .string(reason.wire))
    }
}

/// The Device Info characteristic's value (seed 002, section 2 and 9): who
/// this box is, in the fields of section 9.1 and the flags of 9.3, so a
/// phone can tell a ts-gate box from a phone before it joins. The seed lists
/// only `{ deviceId, deviceName, platform, appVersion }` for the
/// characteristic; protocolVersion and capabilities are section 9's, added
/// because a peer negotiates with them before its first message.
public struct DeviceInfo: Equatable, Sendable {
    public var deviceId: String
    public var deviceName: String
    public var version: PeerVersionInfo
    public var capabilities: Capabilities?

    public init(deviceId: String, deviceName: String, version: PeerVersionInfo, capabilities: Capabilities? = nil) {
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.version = version
        self.capabilities = capabilities
    }

    /// deviceId, deviceName, platform, appVersion, protocolVersion, capabilities.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("deviceId", .string(deviceId))
        object.append("deviceName", .string(deviceName))
        object.append("platform", ifPresent: version.platform.map { .string($0) })
        object.append("appVersion", ifPresent: version.appVersion.map { .string($0) })
        object.append("protocolVersion", ifPresent: version.protocolVersion.map { .string($0) })
        object.append("capabilities", ifPresent: capabilities?.encoded())
        return .object(object)
    }

    /// Compact JSON bytes: the characteristic's whole value (read with Read
    /// Blob past the first MTU).
    public func encoded() -> [UInt8] { JSONWriter.bytes(json) }
}

/// Finding seed 002's service on a peer box and subscribing to it, as the
/// central of a box-to-box link does once connected (seed 002 section 2.2,
/// steps 4 and 6): Exchange MTU (512), the service by its UUID, its
/// characteristics, the CCCDs of Timing Messages and Clock Sync, then
/// notifications on both. It only chooses the GATTClient's next procedures
/// from the client's events; the loop still moves the bytes.

/// The peer's handles, once found.
public struct GatePeerHandles: Equatable, Sendable {
    public var service: GATTRemoteService
    public var timingMessages: UInt16
    public var timingMessagesCCCD: UInt16
    public var deviceInfo: UInt16
    public var clockSync: UInt16
    public var clockSyncCCCD: UInt16
    /// Whether the peer's Clock Sync takes Write Command (the box's does).
    public var clockSyncWithoutResponse: Bool
}

public struct GatePeerDiscovery: Sendable {
    public enum State: Equatable, Sendable {
        case idle, exchangingMTU, findingService, findingCharacteristics, findingDescriptors, subscribing
        case ready(GatePeerHandles)
        /// What went wrong, for the log; the link should be dropped.
        case failed(String)
    }

    public private(set) var state: State = .idle
    private let requestedMTU: Int
    private var service: GATTRemoteService?
    private var characteristics: [GATTRemoteCharacteristic] = []
    private var cccds: [UInt16: UInt16] = [:]
    private var pendingWrites = 0

    public init(requestedMTU: Int = 512) { self.requestedMTU = requestedMTU }

    /// `exchangeMTU` false when the peer already exchanged the MTU with this
    /// box's server: ATT allows one exchange per link, whoever starts it.
    public mutating func start(_ client: inout GATTClient, exchangeMTU: Bool = true) -> GATTClientOutput {
        guard exchangeMTU else {
            state = .findingService
            return client.start(.discoverPrimaryService(GateGATTUUID.service))
        }
        state = .exchangingMTU
        return client.start(.exchangeMTU(requestedMTU))
    }

    /// Takes every event the client reports while discovery runs; returns the
    /// requests it starts. Events of other procedures are ignored.
    public mutating func handle(_ event: GATTClientEvent, client: inout GATTClient) -> GATTClientOutput {
        switch (state, event) {
        case (.exchangingMTU, .mtuExchanged):
            state = .findingService
            return client.start(.discoverPrimaryService(GateGATTUUID.service))
        case (.findingService, .servicesDiscovered(_, let services)):
            guard let found = services.first else { return fail("the peer has no seed 002 service") }
            service = found
            state = .findingCharacteristics
            return client.start(.discoverCharacteristics(start: found.start, end: found.end))
        case (.findingCharacteristics, .characteristicsDiscovered(let found)):
            characteristics = found
            guard let timing = self.characteristic(GateGATTUUID.timingMessages),
                  let sync = self.characteristic(GateGATTUUID.clockSync),
                  self.characteristic(GateGATTUUID.deviceInfo) != nil else {
                return fail("the peer's service lacks a characteristic of seed 002")
            }
            state = .findingDescriptors
            pendingWrites = 2
            var output = client.start(.discoverDescriptors(start: timing.valueHandle + 1, end: timing.end))
            output.append(client.start(.discoverDescriptors(start: sync.valueHandle + 1, end: sync.end)))
            return output
        case (.findingDescriptors, .descriptorsDiscovered(let descriptors)):
            for descriptor in descriptors where descriptor.uuid == .clientCharacteristicConfiguration {
                if let owner = characteristics.last(where: { $0.valueHandle < descriptor.handle && descriptor.handle <= $0.end }) {
                    cccds[owner.valueHandle] = descriptor.handle
                }
            }
            pendingWrites -= 1
            guard pendingWrites == 0 else { return GATTClientOutput() }
            guard let timing = self.characteristic(GateGATTUUID.timingMessages), let timingCCCD = cccds[timing.valueHandle],
                  let sync = self.characteristic(GateGATTUUID.clockSync), let syncCCCD = cccds[sync.valueHandle] else {
                return fail("the peer's Timing Messages or Clock Sync has no CCCD")
            }
            state = .subscribing
            pendingWrites = 2
            var output = client.start(.write(handle: timingCCCD, value: [0x01, 0x00]))
            output.append(client.start(.write(handle: syncCCCD, value: [0x01, 0x00])))
            return output
        case (.subscribing, .writeCompleted):
            pendingWrites -= 1
            if pendingWrites == 0, let handles = handles() { state = .ready(handles) }
            return GATTClientOutput()
        case (.exchangingMTU, .failed(_, _, let error)), (.findingService, .failed(_, _, let error)),
             (.findingCharacteristics, .failed(_, _, let error)), (.findingDescriptors, .failed(_, _, let error)),
             (.subscribing, .failed(_, _, let error)):
            return fail("the peer refused a discovery step: " + error.description)
        default:
            return GATTClientOutput()
        }
    }

    /// Passes every event of a client output through `handle`, and the events
    /// its own steps raise; returns all the PDUs to send and all the events,
    /// for the loop to act on the rest (notifications, the MTU).
    public mutating func absorb(_ output: GATTClientOutput, client: inout GATTClient) -> GATTClientOutput {
        var result = GATTClientOutput(send: output.send)
        var pending = output.events
        while !pending.isEmpty {
            let event = pending.removeFirst()
            result.events.append(event)
            let more = handle(event, client: &client)
            result.send.append(contentsOf: more.send)
            pending.append(contentsOf: more.events)
        }
        return result
    }

    private func characteristic(_ uuid: ATTUUID) -> GATTRemoteCharacteristic? {
        characteristics.first { $0.uuid == uuid }
    }

    private func handles() -> GatePeerHandles? {
        guard let service, let timing = characteristic(GateGATTUUID.timingMessages),
              let info = characteristic(GateGATTUUID.deviceInfo), let sync = characteristic(GateGATTUUID.clockSync),
              let timingCCCD = cccds[timing.valueHandle], let syncCCCD = cccds[sync.valueHandle] else { return nil }
        return GatePeerHandles(service: service, timingMessages: timing.valueHandle, timingMessagesCCCD: timingCCCD,
                               deviceInfo: info.valueHandle, clockSync: sync.valueHandle, clockSyncCCCD: syncCCCD,
                               clockSyncWithoutResponse: sync.properties.contains(.writeWithoutResponse))
    }

    private mutating func fail(_ why: String) -> GATTClientOutput {
        state = .failed(why)
        return GATTClientOutput()
    }
}

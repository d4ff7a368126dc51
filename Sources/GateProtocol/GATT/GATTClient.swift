/// A GATT client as a state machine (Core Spec Vol 3 Part G 4): procedures
/// in, request PDUs out, received PDUs in, events out. No I/O and no timer:
/// the loop sends what it returns, feeds it what the link receives, and owns
/// ATT's 30 s transaction timeout (`isBusy` tells it a request is out).
///
/// ATT allows one outstanding request per bearer (Part F 3.3.2), so
/// procedures queue and run one at a time; a procedure that takes several
/// requests (discovery continuing past a full response, Read Blob, a long
/// write) keeps the bearer until it completes. Write Command and the
/// Handle Value Confirmation need no response and go out at once.

/// A procedure the client runs.
public enum GATTClientProcedure: Equatable, Sendable {
    /// Exchange MTU, offering this receive MTU (the box asks for 512, seed 002 section 2.3).
    case exchangeMTU(Int)
    /// Discover Primary Service by Service UUID (Part G 4.4.2: Find By Type Value).
    case discoverPrimaryService(ATTUUID)
    /// Discover All Characteristics of a Service (4.6.1: Read By Type 0x2803).
    case discoverCharacteristics(start: UInt16, end: UInt16)
    /// Discover All Characteristic Descriptors (4.7.1: Find Information).
    case discoverDescriptors(start: UInt16, end: UInt16)
    /// Read, then Read Blob while the value fills the response (4.8.1, 4.8.3).
    case read(handle: UInt16)
    /// Write Request, or Prepare and Execute Write when the value is longer
    /// than MTU - 3 (4.9.3, 4.9.4).
    case write(handle: UInt16, value: [UInt8])
}

/// A service found on the peer: its handle range.
public struct GATTRemoteService: Equatable, Sendable {
    public var start: UInt16
    public var end: UInt16
}

/// A characteristic found on the peer. `end` is the last handle before the
/// next characteristic (or the service's end): its descriptors lie after
/// the value handle up to it.
public struct GATTRemoteCharacteristic: Equatable, Sendable {
    public var declarationHandle: UInt16
    public var properties: GATTProperties
    public var valueHandle: UInt16
    public var uuid: ATTUUID
    public var end: UInt16
}

public enum GATTClientEvent: Equatable, Sendable {
    case mtuExchanged(Int)
    case servicesDiscovered(ATTUUID, [GATTRemoteService])
    case characteristicsDiscovered([GATTRemoteCharacteristic])
    case descriptorsDiscovered([ATTHandleUUID])
    case readCompleted(handle: UInt16, value: [UInt8])
    case writeCompleted(handle: UInt16)
    /// The peer refused a request of the procedure with this error.
    case failed(GATTClientProcedure, handle: UInt16, error: ATTErrorCode)
    case notification(handle: UInt16, value: [UInt8])
    /// Already confirmed: the Confirmation is in the same output.
    case indication(handle: UInt16, value: [UInt8])
    /// A PDU for the client that fits no request it has out (or is malformed): dropped.
    case unexpected(opcode: UInt8)
}

/// What the loop does after a call: send `send` in order, act on `events`.
public struct GATTClientOutput: Equatable, Sendable {
    public var send: [[UInt8]] = []
    public var events: [GATTClientEvent] = []
    public init(send: [[UInt8]] = [], events: [GATTClientEvent] = []) { self.send = send; self.events = events }

    mutating func append(_ other: GATTClientOutput) {
        send.append(contentsOf: other.send)
        events.append(contentsOf: other.events)
    }
}

public struct GATTClient: Sendable {
    public private(set) var mtu: Int = GATTServerLink.defaultMTU
    private var queue: [GATTClientProcedure] = []
    private var running: Running?

    /// A running procedure, what it has gathered, and the request it awaits.
    private struct Running: Sendable {
        var procedure: GATTClientProcedure
        var awaiting: UInt8
        var services: [GATTRemoteService] = []
        var characteristics: [GATTRemoteCharacteristic] = []
        var descriptors: [ATTHandleUUID] = []
        var value: [UInt8] = []
        /// Long write: the next offset to prepare.
        var offset = 0
    }

    public init() {}

    /// True while a request is out: the loop times the transaction.
    public var isBusy: Bool { running != nil }
    /// Procedures waiting behind the running one.
    public var queuedCount: Int { queue.count }

    /// Takes the MTU the peer settled by its own Exchange MTU Request to this
    /// box's server: one MTU serves both roles on a link.
    public mutating func adoptMTU(_ mtu: Int) { self.mtu = max(GATTServerLink.defaultMTU, mtu) }

    /// Queues a procedure; starts it at once when the bearer is free.
    public mutating func start(_ procedure: GATTClientProcedure) -> GATTClientOutput {
        queue.append(procedure)
        return running == nil ? next() : GATTClientOutput()
    }

    /// A Write Command: no response, so it does not wait for the bearer.
    /// The value is cut to MTU - 3.
    public func writeCommand(handle: UInt16, value: [UInt8]) -> [UInt8] {
        ATTPDU.writeCommand(handle: handle, value: Array(value.prefix(mtu - 3))).encoded()
    }

    /// Forgets the running and queued procedures (the link dropped or the
    /// transaction timed out, after which ATT allows no more requests).
    public mutating func reset() {
        queue = []
        running = nil
        mtu = GATTServerLink.defaultMTU
    }

    /// Takes one PDU the link received for the client (ATTOpcode.route == .client).
    public mutating func receive(_ bytes: [UInt8]) -> GATTClientOutput {
        let opcode = bytes.first ?? 0
        guard let pdu = try? ATTPDU.decode(bytes) else { return GATTClientOutput(events: [.unexpected(opcode: opcode)]) }
        switch pdu {
        case .notification(let handle, let value):
            return GATTClientOutput(events: [.notification(handle: handle, value: value)])
        case .indication(let handle, let value):
            return GATTClientOutput(send: [ATTPDU.confirmation.encoded()], events: [.indication(handle: handle, value: value)])
        default:
            break
        }
        guard var current = running else { return GATTClientOutput(events: [.unexpected(opcode: opcode)]) }
        if case .errorResponse(let request, let handle, let error) = pdu {
            guard request == current.awaiting else { return GATTClientOutput(events: [.unexpected(opcode: opcode)]) }
            return finishOrFail(&current, handle: handle, error: error)
        }
        guard ATTOpcode.info(current.awaiting)?.response == opcode else {
            return GATTClientOutput(events: [.unexpected(opcode: opcode)])
        }
        if let request = step(&current, pdu) {
            current.awaiting = request.opcode
            running = current
            return GATTClientOutput(send: [request.encoded()])
        }
        return complete(current)
    }

    /// Starts the next queued procedure, skipping any that need no request.
    private mutating func next() -> GATTClientOutput {
        var output = GATTClientOutput()
        while running == nil, !queue.isEmpty {
            let procedure = queue.removeFirst()
            var current = Running(procedure: procedure, awaiting: 0)
            guard let request = first(&current) else {
                output.append(complete(current))
                continue
            }
            current.awaiting = request.opcode
            running = current
            output.send.append(request.encoded())
        }
        return output
    }

    /// The first request of a procedure; nil when there is nothing to ask.
    private func first(_ current: inout Running) -> ATTPDU? {
        switch current.procedure {
        case .exchangeMTU(let offered):
            return .exchangeMTURequest(clientMTU: UInt16(clamping: offered))
        case .discoverPrimaryService(let uuid):
            return findService(uuid, from: 0x0001)
        case .discoverCharacteristics(let start, let end):
            return start <= end && start != 0 ? .readByTypeRequest(start: start, end: end, type: .characteristic) : nil
        case .discoverDescriptors(let start, let end):
            return start <= end && start != 0 ? .findInformationRequest(start: start, end: end) : nil
        case .read(let handle):
            return .readRequest(handle: handle)
        case .write(let handle, let value):
            if value.count <= mtu - 3 { return .writeRequest(handle: handle, value: value) }
            return prepare(handle: handle, value: value, offset: &current.offset)
        }
    }

    private func findService(_ uuid: ATTUUID, from start: UInt16) -> ATTPDU {
        var value: [UInt8] = []
        uuid.append(to: &value)
        return .findByTypeValueRequest(start: start, end: 0xFFFF, type: 0x2800, value: value)
    }

    private func prepare(handle: UInt16, value: [UInt8], offset: inout Int) -> ATTPDU {
        let end = min(value.count, offset + mtu - 5)
        let part = Array(value[offset..<end])
        let request = ATTPDU.prepareWriteRequest(handle: handle, offset: UInt16(offset), value: part)
        offset = end
        return request
    }

    /// Takes a response; the procedure's next request, or nil when it is done.
    private mutating func step(_ current: inout Running, _ response: ATTPDU) -> ATTPDU? {
        switch (current.procedure, response) {
        case (.exchangeMTU(let offered), .exchangeMTUResponse(let serverMTU)):
            mtu = max(GATTServerLink.defaultMTU, min(offered, Int(serverMTU)))
            return nil
        case (.discoverPrimaryService(let uuid), .findByTypeValueResponse(let groups)):
            for group in groups { current.services.append(GATTRemoteService(start: group.start, end: group.end)) }
            guard let last = groups.last, last.end != 0xFFFF, last.end >= last.start else { return nil }
            return findService(uuid, from: last.end + 1)
        case (.discoverCharacteristics(_, let end), .readByTypeResponse(let entries)):
            for entry in entries where entry.value.count == 5 || entry.value.count == 19 {
                guard let uuid = ATTUUID(wire: entry.value[3...]) else { continue }
                current.characteristics.append(GATTRemoteCharacteristic(
                    declarationHandle: entry.handle, properties: GATTProperties(rawValue: entry.value[0]),
                    valueHandle: entry.value.le16(at: 1), uuid: uuid, end: end))
            }
            guard let last = entries.last, last.handle < end else { return nil }
            return .readByTypeRequest(start: last.handle + 1, end: end, type: .characteristic)
        case (.discoverDescriptors(_, let end), .findInformationResponse(let entries)):
            current.descriptors.append(contentsOf: entries)
            guard let last = entries.last, last.handle < end else { return nil }
            return .findInformationRequest(start: last.handle + 1, end: end)
        case (.read(let handle), .readResponse(let value)), (.read(let handle), .readBlobResponse(let value)):
            current.value.append(contentsOf: value)
            // A full response may mean more: ask from where it ended.
            guard value.count == mtu - 1, current.value.count < GATTServer.maxValueLength else { return nil }
            return .readBlobRequest(handle: handle, offset: UInt16(current.value.count))
        case (.write, .writeResponse), (.write, .executeWriteResponse):
            return nil
        case (.write(let handle, let value), .prepareWriteResponse):
            if current.offset < value.count { return prepare(handle: handle, value: value, offset: &current.offset) }
            return .executeWriteRequest(write: true)
        default:
            return nil
        }
    }

    /// An Error Response: the end of a discovery (Attribute Not Found) or of a
    /// long read (Attribute Not Long, Invalid Offset past a first read), else a failure.
    private mutating func finishOrFail(_ current: inout Running, handle: UInt16, error: ATTErrorCode) -> GATTClientOutput {
        switch current.procedure {
        case .discoverPrimaryService, .discoverCharacteristics, .discoverDescriptors:
            if error == .attributeNotFound { return complete(current) }
        case .read:
            if current.awaiting == ATTOpcode.readBlobRequest, error == .attributeNotLong || error == .invalidOffset {
                return complete(current)
            }
        case .exchangeMTU:
            // A server without Exchange MTU keeps the default: not a failure.
            if error == .requestNotSupported { return complete(current) }
        case .write:
            break
        }
        var output = GATTClientOutput(events: [.failed(current.procedure, handle: handle, error: error)])
        running = nil
        output.append(next())
        return output
    }

    /// Reports a finished procedure and starts the next.
    private mutating func complete(_ current: Running) -> GATTClientOutput {
        var output = GATTClientOutput()
        switch current.procedure {
        case .exchangeMTU:
            output.events.append(.mtuExchanged(mtu))
        case .discoverPrimaryService(let uuid):
            output.events.append(.servicesDiscovered(uuid, current.services))
        case .discoverCharacteristics:
            var found = current.characteristics
            for index in found.indices.dropLast() { found[index].end = found[index + 1].declarationHandle - 1 }
            output.events.append(.characteristicsDiscovered(found))
        case .discoverDescriptors:
            output.events.append(.descriptorsDiscovered(current.descriptors))
        case .read(let handle):
            output.events.append(.readCompleted(handle: handle, value: current.value))
        case .write(let handle, _):
            output.events.append(.writeCompleted(handle: handle))
        }
        running = nil
        output.append(next())
        return output
    }
}

/// The server's writes: Write Request, Write Command, Prepare and Execute
/// Write (Core Spec Vol 3 Part F 3.4.5 and 3.4.6), and the notifications it
/// sends (3.4.7.1). A write changes nothing here: it is checked (handle,
/// permission, the box's authorization, length) and handed back as an effect.
extension GATTServer {
    /// The checks every write passes before it is applied or queued.
    private func writable<Source: GATTValueSource>(_ handle: UInt16, withResponse: Bool,
                                                   source: inout Source) throws(GATTRefusal) -> GATTAttribute {
        guard let attribute = database.attribute(handle) else { throw GATTRefusal(handle, .invalidHandle) }
        guard withResponse ? attribute.writable : attribute.writableWithoutResponse else {
            throw GATTRefusal(handle, .writeNotPermitted)
        }
        if case .characteristic(let characteristic) = attribute.value,
           let refusal = source.authorize(.write, of: characteristic) {
            throw GATTRefusal(handle, refusal)
        }
        return attribute
    }

    /// The effect of writing `value` whole to a checked attribute; throws for a value the attribute cannot hold.
    private func apply(_ attribute: GATTAttribute, _ value: [UInt8], withResponse: Bool,
                       link: inout GATTServerLink) throws(GATTRefusal) -> GATTServerEffect {
        guard value.count <= GATTServer.maxValueLength else { throw GATTRefusal(attribute.handle, .invalidAttributeValueLength) }
        switch attribute.value {
        case .characteristic(let characteristic):
            return .written(characteristic, value, withResponse: withResponse)
        case .cccd(let characteristic):
            guard value.count == 2 else { throw GATTRefusal(attribute.handle, .invalidAttributeValueLength) }
            let properties = database.characteristic(characteristic)?.properties ?? []
            let subscription = GATTSubscription(notify: value[0] & 0x01 != 0, indicate: value[0] & 0x02 != 0)
            // Bits the characteristic does not offer, or reserved ones, are refused.
            guard value[0] & 0xFC == 0, value[1] == 0,
                  !subscription.notify || properties.contains(.notify),
                  !subscription.indicate || properties.contains(.indicate) else {
                throw GATTRefusal(attribute.handle, .cccdImproperlyConfigured)
            }
            link.setSubscription(subscription, of: characteristic)
            return .subscriptionChanged(characteristic, subscription)
        case .fixed:
            throw GATTRefusal(attribute.handle, .writeNotPermitted)
        }
    }

    func write<Source: GATTValueSource>(handle: UInt16, value: [UInt8], withResponse: Bool, link: inout GATTServerLink,
                                        source: inout Source) throws(GATTRefusal) -> GATTServerEffect {
        let attribute = try writable(handle, withResponse: withResponse, source: &source)
        return try apply(attribute, value, withResponse: withResponse, link: &link)
    }

    /// A Write Command: applied when allowed, dropped silently otherwise.
    func writeCommand<Source: GATTValueSource>(handle: UInt16, value: [UInt8], link: inout GATTServerLink,
                                               source: inout Source) -> [GATTServerEffect] {
        guard let effect = try? write(handle: handle, value: value, withResponse: false, link: &link, source: &source) else {
            return []
        }
        return [effect]
    }

    /// Queues one part of a long write. Permission and authorization are
    /// checked now (Part F 3.4.6.1); offsets and length at execution.
    func prepareWrite<Source: GATTValueSource>(handle: UInt16, offset: Int, value: [UInt8], link: inout GATTServerLink,
                                               source: inout Source) throws(GATTRefusal) {
        _ = try writable(handle, withResponse: true, source: &source)
        guard link.prepareQueue.count < prepareQueueLimit else { throw GATTRefusal(handle, .prepareQueueFull) }
        link.prepareQueue.append(GATTPreparedWrite(handle: handle, offset: offset, value: value))
    }

    /// Writes (or cancels) the queue. Each handle's parts must run on from
    /// offset 0 without a gap; the first handle that fails names the error
    /// and nothing is written. The queue is empty afterwards either way.
    func executeWrite(_ write: Bool, link: inout GATTServerLink) throws(GATTRefusal) -> [GATTServerEffect] {
        let queue = link.prepareQueue
        link.prepareQueue = []
        guard write else { return [] }
        var order: [UInt16] = []
        var values: [UInt16: [UInt8]] = [:]
        for part in queue {
            var value = values[part.handle] ?? []
            if values[part.handle] == nil { order.append(part.handle) }
            guard part.offset <= value.count else { throw GATTRefusal(part.handle, .invalidOffset) }
            let overwritten = min(value.count, part.offset + part.value.count)
            value.replaceSubrange(part.offset..<overwritten, with: part.value)
            guard value.count <= GATTServer.maxValueLength else { throw GATTRefusal(part.handle, .invalidAttributeValueLength) }
            values[part.handle] = value
        }
        var staged = link
        var effects: [GATTServerEffect] = []
        for handle in order {
            guard let attribute = database.attribute(handle), let value = values[handle] else { continue }
            effects.append(try apply(attribute, value, withResponse: true, link: &staged))
        }
        link = staged
        return effects
    }

    /// The Handle Value Notification carrying `value` for `characteristic`,
    /// or nil when this link has not enabled its notifications. The value is
    /// cut to MTU - 3 (Part F 3.4.7.1); the Fragmenter keeps messages within it.
    public func notification(_ characteristic: GATTCharacteristicID, value: [UInt8], link: GATTServerLink) -> [UInt8]? {
        guard link.subscription(characteristic).notify else { return nil }
        return ATTPDU.notification(handle: characteristic.valueHandle, value: Array(value.prefix(link.mtu - 3))).encoded()
    }
}

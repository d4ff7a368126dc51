import GateCore
import GateProtocol

/// The host's side: seats, sync, arming.
extension RaceCoordinator {
    mutating func hostReceived(_ message: TimingMessage, from peer: Int, now: Int64, _ effects: inout [RaceEffect]) {
        switch message.payload {
        case .sessionJoin(let join):
            hostJoin(join, deviceId: message.deviceId, sentMillis: message.timestamp, from: peer, now: now, &effects)
        case .gateReady:
            if let seat = seatIndex(of: message.deviceId) { seatReady(seat, true, reason: "", now: now, &effects) }
        case .gateNotReady(let body):
            if let seat = seatIndex(of: message.deviceId) { seatReady(seat, false, reason: body.reason, now: now, &effects) }
        case .crossingEvent(let event):
            hostCrossingEvent(event, deviceId: message.deviceId, from: peer, now: now, &effects)
        case .error(let report):
            effects.append(.say("race: " + boxName(peer) + " reports " + report.code + ": " + report.message))
        case .sessionEnd(let end):
            if end.sessionId == sessionId { effects.append(.say("race: " + boxName(peer) + " left the session")) }
        default:
            break
        }
    }

    /// How many results a seat keeps for its absent box: the newest.
    static let missedResultsKept = 16

    /// A result went out to every link: a seat whose box is away keeps it.
    mutating func keepForAbsentBoxes(_ split: SplitTimeCalculated) {
        for i in seats.indices where seats[i].deviceId != nil && seats[i].deviceId != deviceId {
            let up = seats[i].peer.map { $0 < links.count && links[$0].connected } ?? false
            guard !up else { continue }
            seats[i].missedResults.append(split)
            if seats[i].missedResults.count > RaceCoordinator.missedResultsKept { seats[i].missedResults.removeFirst() }
        }
    }

    func seatIndex(of deviceId: String) -> Int? {
        for i in seats.indices where seats[i].deviceId == deviceId { return i }
        return nil
    }

    func refusal(_ code: String, _ text: String) -> TimingPayload {
        .error(ErrorReport(code: code, message: text))
    }

    // MARK: joining

    mutating func hostJoin(_ join: SessionJoin, deviceId: String, sentMillis: Int64, from peer: Int, now: Int64,
                           _ effects: inout [RaceEffect]) {
        let bondedPeer = peer < links.count && links[peer].trusted
        guard join.sessionId == sessionId || bondedPeer else {
            effects.append(.send(refusal("WRONG_SESSION", "this box hosts session " + sessionId + ", not " + join.sessionId), to: peer))
            effects.append(.say("race: box " + deviceId + " asked to join session " + join.sessionId + "; refused, this is " + sessionId))
            return
        }
        if case .refused(let reason) = ProtocolVersion.negotiate(theirs: join.version.protocolVersion) {
            effects.append(.send(refusal("VERSION_MISMATCH", reason), to: peer))
            effects.append(.say("race: box " + deviceId + " refused: " + reason))
            return
        }
        var rejoin = true
        var seat = seatIndex(of: deviceId)
        if seat == nil {
            rejoin = false
            guard join.requestedRole != .controlOnly else {
                effects.append(.send(refusal("ROLE_UNAVAILABLE", "a race of boxes has no control-only joiners"), to: peer))
                effects.append(.say("race: box " + deviceId + " asked to join as control only; refused"))
                return
            }
            seat = freeSeat(preferring: join.requestedRole)
        }
        guard let seat else {
            effects.append(.send(refusal("SESSION_FULL", "every gate of the race has a box"), to: peer))
            effects.append(.say("race: box " + deviceId + " refused: every gate already has a box"))
            return
        }
        // A box that rejoins over another link leaves the old one unnamed.
        for i in links.indices where i != peer && links[i].deviceId == deviceId { links[i].deviceId = nil }
        ensureLink(peer)
        links[peer].deviceId = deviceId
        links[peer].joinedMillis = sentMillis
        links[peer].preciseClockSync = join.capabilities?.preciseClockSync ?? false
        seats[seat].deviceId = deviceId
        seats[seat].name = join.name ?? deviceId
        seats[seat].peer = peer
        seats[seat].ready = false
        let gate = seats[seat].gate
        effects.append(.send(.sessionJoinAccepted(SessionJoinAccepted(
            sessionId: sessionId, assignedRole: gate.role, distanceFromStart: gate.role == .lap ? gate.distanceMetres : nil,
            devices: sessionDevices(), gateIndex: seat)), to: peer))
        effects.append(.say("race: " + RaceWords.gate(gate.role) + " (box " + deviceId + ") " + (rejoin ? "rejoined" : "joined")
                            + " at " + RaceWords.metres(gate.distanceMetres)))
        let missed = seats[seat].missedResults
        seats[seat].missedResults.removeAll()
        for split in missed { effects.append(.send(.splitTimeCalculated(split), to: peer)) }
        if !missed.isEmpty {
            effects.append(.say("race: " + String(missed.count) + (missed.count == 1 ? " result" : " results")
                                + " kept while box " + deviceId + " was away sent to it"))
        }
        evaluate(now: now, &effects)
    }

    /// The requested role's first free gate, else the plan's first free gate.
    func freeSeat(preferring role: GateRole) -> Int? {
        for i in seats.indices where seats[i].deviceId == nil && seats[i].gate.role == role { return i }
        for i in seats.indices where seats[i].deviceId == nil { return i }
        return nil
    }

    /// Every box of the session, the host first, then the gates in order.
    func sessionDevices() -> [SessionDevice] {
        var devices: [SessionDevice] = []
        if gateIndex == nil { devices.append(SessionDevice(deviceId: deviceId, role: .controlOnly, name: deviceName)) }
        for seat in seats {
            guard let id = seat.deviceId else { continue }
            devices.append(SessionDevice(deviceId: id, role: seat.gate.role, name: seat.name,
                                         distanceFromStart: seat.gate.role == .lap ? seat.gate.distanceMetres : nil))
        }
        return devices
    }

    // MARK: sync and readiness

    mutating func hostSyncChanged(peer: Int, canTime: Bool, reason: String, prediction: ClockPrediction?,
                                  rttNanos: Int64, samplesUsed: Int, now: Int64, _ effects: inout [RaceEffect]) {
        ensureLink(peer)
        let could = links[peer].canTime
        links[peer].canTime = canTime
        if let prediction { links[peer].prediction = prediction; links[peer].predictedAtNanos = now }
        if canTime && !could {
            if let p = prediction {
                let quality = ClockSyncQuality(uncertaintyMs: p.uncertaintyMs)
                effects.append(.send(.clockSyncResult(GateProtocol.ClockSyncResult(
                    offsetNanos: p.offsetNanos, rttNanos: rttNanos, uncertaintyMs: p.uncertaintyMs,
                    quality: SyncQuality(wire: quality.name) ?? .fair, samplesUsed: samplesUsed)), to: peer))
                effects.append(.say("race: clock of " + boxName(peer) + " synced, " + quality.name + " +-"
                                    + DecimalText.fixed(p.uncertaintyMs, places: 1) + " ms"))
            }
        } else if !canTime && could {
            var details = JSONObject()
            details.append("lastUncertaintyMs", .double(prediction?.uncertaintyMs ?? .nan))
            details.append("requiredMs", .double(settings.requiredSyncMs))
            effects.append(.send(refusal("CLOCK_SYNC_FAILED", "Unable to achieve acceptable clock sync quality: " + reason)
                                    .withDetails(details), to: peer))
            effects.append(.say("race: clock sync with " + boxName(peer) + " too poor to time (" + reason + "); no run is armed until it recovers"))
            effects.append(.indicate(.syncTooPoor))
            disarmIfWaiting(because: "clock sync lost", &effects)
        }
        evaluate(now: now, &effects)
    }

    mutating func seatReady(_ seat: Int, _ ready: Bool, reason: String, now: Int64, _ effects: inout [RaceEffect]) {
        let was = seats[seat].ready
        seats[seat].ready = ready
        if ready == was { return }
        let name = RaceWords.gate(seats[seat].gate.role) + " at " + RaceWords.metres(seats[seat].gate.distanceMetres)
        if ready {
            effects.append(.say("race: " + name + " ready"))
        } else {
            effects.append(.say("race: " + name + " not ready" + (reason.isEmpty ? "" : ": " + reason)))
            disarmIfWaiting(because: name + " not ready", &effects)
        }
        evaluate(now: now, &effects)
    }

    /// Armed but not started: back to ready, and the joiners disarm too.
    mutating func disarmIfWaiting(because why: String, _ effects: inout [RaceEffect]) {
        guard state == .waitingForCrossing else { return }
        state = .ready
        for i in pending.indices { pending[i] = nil }
        effects.append(.send(.resetForNextRun(ResetForNextRun(keepCalibration: true)), to: nil))
        effects.append(.say("race: run " + String(runNumber) + " disarmed: " + why))
    }

    /// Before a run: the state from who is there, synced and ready; arms
    /// when everything is. Armed, running and finished are left alone.
    mutating func evaluate(now: Int64, _ effects: inout [RaceEffect]) {
        guard isHost else { return }
        switch state {
        case .idle, .connecting, .syncing, .ready: break
        default: return
        }
        var seated = true, synced = true, ready = true
        for seat in seats {
            guard seat.deviceId != nil else { seated = false; continue }
            if let peer = seat.peer {
                if peer >= links.count || !links[peer].connected { seated = false; continue }
                if !links[peer].canTime { synced = false }
            }
            if !seat.ready { ready = false }
        }
        let next: RaceState
        if !seated {
            next = state == .idle ? .idle : .connecting
        } else if !synced {
            next = .syncing
        } else if !ready {
            next = .ready
        } else {
            arm(&effects)
            return
        }
        if next != state {
            switch next {
            case .syncing: effects.append(.say("race: every gate has a box; syncing clocks"))
            case .ready: effects.append(.say("race: every clock synced; waiting for every gate to be ready"))
            default: break
            }
            state = next
        }
    }

    mutating func arm(_ effects: inout [RaceEffect]) {
        runNumber = runsEnded + 1
        for i in pending.indices { pending[i] = nil }
        state = .waitingForCrossing
        effects.append(.send(.armGates(ArmGates(runNumber: runNumber)), to: nil))
        effects.append(.say("race: run " + String(runNumber) + " armed: every gate ready"))
        effects.append(.indicate(.ready))
    }
}

extension TimingPayload {
    /// An error payload with its details object.
    func withDetails(_ details: JSONObject) -> TimingPayload {
        guard case .error(var report) = self else { return self }
        report.details = details
        return .error(report)
    }
}

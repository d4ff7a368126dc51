import GateCore
import GateProtocol

/// A joiner's side: one link, to the host (link 0).
extension RaceCoordinator {
    static let hostLink = 0

    mutating func sendJoin(_ effects: inout [RaceEffect]) {
        let join = SessionJoin(
            sessionId: sessionId, requestedRole: role ?? .finish,
            version: PeerVersionInfo(protocolVersion: ProtocolVersion.current.text, platform: "ts-gate"),
            capabilities: Capabilities(binaryClockSync: true, multiGate: true, preciseClockSync: offersPreciseSync),
            name: deviceName)
        effects.append(.send(.sessionJoin(join), to: RaceCoordinator.hostLink))
    }

    /// Every crossing the host has not acknowledged, oldest first.
    mutating func resendOutbox(_ effects: inout [RaceEffect]) {
        for event in outbox { effects.append(.send(.crossingEvent(event), to: RaceCoordinator.hostLink)) }
    }

    var hostLinkUp: Bool { RaceCoordinator.hostLink < links.count && links[RaceCoordinator.hostLink].connected }

    mutating func sendReadiness(_ effects: inout [RaceEffect]) {
        guard joined, hostLinkUp, let role else { return }
        if localReady {
            effects.append(.send(.gateReady(GateReady(role: role, gatePosition: gatePosition, capturedFps: capturedFps)),
                                 to: RaceCoordinator.hostLink))
        } else {
            effects.append(.send(.gateNotReady(GateNotReady(role: role, reason: localReadyReason.isEmpty ? "not_ready" : localReadyReason)),
                                 to: RaceCoordinator.hostLink))
        }
    }

    /// A crossing (or start event) of this box: kept until acknowledged, sent now if the link is up.
    mutating func joinerCrossing(_ event: CrossingEvent, now: Int64, _ effects: inout [RaceEffect]) {
        guard joined else {
            effects.append(.say("race: a crossing before this box joined the race is ignored"))
            return
        }
        switch state {
        case .waitingForCrossing, .running: break
        default:
            effects.append(.say("race: a crossing while no run is armed is ignored"))
            return
        }
        outbox.append(event)
        if hostLinkUp {
            effects.append(.send(.crossingEvent(event), to: RaceCoordinator.hostLink))
        } else {
            effects.append(.say("race: crossing kept until the host is back"))
        }
        if event.role == .start, state == .waitingForCrossing {
            state = .running(startNanos: event.crossingTimeNanos)
            effects.append(.indicate(.running))
        }
    }

    mutating func joinerReceived(_ message: TimingMessage, now: Int64, _ effects: inout [RaceEffect]) {
        switch message.payload {
        case .sessionJoinAccepted(let accepted):
            // A box that joins its bonded host without a code takes the host's.
            if sessionId.isEmpty && !accepted.sessionId.isEmpty { sessionId = accepted.sessionId }
            guard accepted.sessionId == sessionId else {
                effects.append(.say("race: the host accepted this box into session " + accepted.sessionId + ", not "
                                    + sessionId + "; ignored"))
                effects.append(.send(refusal("WRONG_SESSION", "this box joins session " + sessionId + ", not "
                                             + accepted.sessionId), to: RaceCoordinator.hostLink))
                return
            }
            let rejoin = joined
            joined = true
            ensureLink(RaceCoordinator.hostLink)
            links[RaceCoordinator.hostLink].joinedMillis = message.timestamp
            role = accepted.assignedRole
            gateIndex = accepted.gateIndex ?? (accepted.assignedRole == .start ? 0 : nil)
            if state == .idle || state == .connecting { state = .syncing }
            var line = "race: " + (rejoin ? "rejoined" : "joined") + " session " + sessionId + " as the " + RaceWords.gate(accepted.assignedRole)
            if let metres = accepted.distanceFromStart { line += " at " + RaceWords.metres(metres) }
            effects.append(.say(line))
            sendReadiness(&effects)
        case .error(let report):
            joinerError(report, &effects)
        case .clockSyncResult(let result):
            let good: Bool
            switch result.quality {
            case .excellent, .good, .fair: good = true
            default: good = false
            }
            if good && state == .syncing {
                state = .ready
                effects.append(.say("race: clock synced with the host, " + result.quality.wire + " +-"
                                    + DecimalText.fixed(result.uncertaintyMs, places: 1) + " ms"))
            }
        case .armGates(let arm):
            runNumber = arm.runNumber
            state = .waitingForCrossing
            effects.append(.say("race: run " + String(arm.runNumber) + " armed"))
            effects.append(.indicate(.ready))
        case .crossingEvent(let start):
            // The host relays the start, on its own clock.
            guard start.role == .start else { return }
            switch state {
            case .waitingForCrossing, .running:
                state = .running(startNanos: start.crossingTimeNanos)
                if gateIndex != 0 { effects.append(.indicate(.running)) }
            default: break
            }
        case .crossingAck(let ack):
            for i in outbox.indices where outbox[i].crossingTimeNanos == ack.crossingTimeNanos {
                outbox.remove(at: i)
                break
            }
        case .splitTimeCalculated(let split):
            // One kept by the host while this box was away ends no run here.
            switch state {
            case .waitingForCrossing, .running: state = .finished
            default: break
            }
            runsEnded = max(runsEnded, split.detail?.runNumber ?? runNumber)
            if let record = RaceRunRecord(sessionId: sessionId, deviceId: deviceId, split: split) {
                runsRecorded += 1
                effects.append(.record(record))
                effects.append(.say(record.summary))
            } else {
                effects.append(.say("race: " + split.runId + ": " + DecimalText.fixed(split.splitTimeMs / 1e3, places: 3) + " s +-"
                                    + DecimalText.fixed(split.totalUncertaintyMs, places: 1) + " ms"))
            }
            effects.append(.indicate(.runFinished))
        case .resetForNextRun:
            switch state {
            case .waitingForCrossing, .running, .finished: state = .ready
            default: break
            }
        default:
            break
        }
    }

    mutating func joinerError(_ report: ErrorReport, _ effects: inout [RaceEffect]) {
        effects.append(.say("race: the host reports " + report.code + ": " + report.message))
        switch report.code {
        case "CLOCK_SYNC_FAILED":
            switch state {
            case .ready, .waitingForCrossing: state = .syncing
            default: break
            }
            effects.append(.indicate(.syncTooPoor))
        case "SESSION_FULL", "WRONG_SESSION", "ROLE_UNAVAILABLE", "VERSION_MISMATCH":
            if !joined { state = .connecting }
        default:
            break
        }
    }
}

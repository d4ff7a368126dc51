import GateCore
import GateProtocol

/// The host's side of a run: crossings from every gate, the split.
extension RaceCoordinator {
    mutating func hostCrossingEvent(_ event: CrossingEvent, deviceId: String, from peer: Int, now: Int64,
                                    _ effects: inout [RaceEffect]) {
        guard let seat = seatIndex(of: deviceId) else {
            effects.append(.say("race: a crossing from box " + deviceId + ", which has not joined, is ignored"))
            return
        }
        // Acknowledged every time, so a sender whose ack was lost stops sending.
        effects.append(.send(.crossingAck(CrossingAck(role: event.role, crossingTimeNanos: event.crossingTimeNanos)), to: peer))
        guard counted.insert(deviceId: deviceId, nanos: event.crossingTimeNanos) else { return }
        take(PendingCrossing(nanos: event.crossingTimeNanos, uncertaintyMs: event.uncertaintyMs, frameIndex: event.frameIndex,
                             occupancy: event.occupancyAtTrigger, interpolationMs: event.interpolationOffsetMs,
                             peer: seats[seat].peer ?? peer),
             gate: seat, now: now, &effects)
    }

    /// The offset of the clock a crossing was stamped on (0: the host's).
    func offset(of crossing: PendingCrossing) -> Int64 {
        guard let peer = crossing.peer, peer < links.count, let p = links[peer].prediction else { return 0 }
        return links[peer].prediction(atHostNanos: crossing.nanos - p.offsetNanos)?.offsetNanos ?? p.offsetNanos
    }

    /// The crossing's instant on the host's clock (Int64.min if it does not fit).
    func onHostClock(_ crossing: PendingCrossing) -> Int64 {
        let (value, overflow) = crossing.nanos.subtractingReportingOverflow(offset(of: crossing))
        return overflow ? Int64.min : value
    }

    /// One gate's crossing of the run: the start starts it (the first one
    /// only), the others wait for the start if it is late (a start box whose
    /// link was down), and the run ends when every gate has one.
    mutating func take(_ crossing: PendingCrossing, gate: Int, now: Int64, _ effects: inout [RaceEffect]) {
        let name = RaceWords.gate(seats[gate].gate.role)
        switch state {
        case .waitingForCrossing, .running: break
        default:
            effects.append(.say("race: a crossing at the " + name + " while no run is armed is ignored"))
            return
        }
        guard pending[gate] == nil else {
            effects.append(.say("race: the " + name + " was crossed again in run " + String(runNumber) + "; the first crossing counts"))
            return
        }
        if gate == 0 {
            pending[0] = crossing
            let start = onHostClock(crossing)
            // Crossings at later gates before this start were someone else's.
            for i in 1..<pending.count {
                if let other = pending[i], onHostClock(other) <= start { pending[i] = nil }
            }
            state = .running(startNanos: start)
            effects.append(.indicate(.running))
            effects.append(.say("race: run " + String(runNumber) + " started at the start gate"))
            // Every box learns the run started (seed 002, Appendix A), on the host's clock.
            effects.append(.send(.crossingEvent(CrossingEvent(
                role: .start, crossingTimeNanos: start, clockOffsetNanos: 0, frameIndex: crossing.frameIndex,
                occupancyAtTrigger: crossing.occupancy, interpolationOffsetMs: crossing.interpolationMs,
                uncertaintyMs: crossing.uncertaintyMs)), to: nil))
        } else {
            if let start = pending[0], onHostClock(crossing) <= onHostClock(start) {
                effects.append(.say("race: a crossing at the " + name + " before the start is ignored"))
                return
            }
            pending[gate] = crossing
        }
        for p in pending where p == nil { return }
        finishRun(now: now, &effects)
    }

    mutating func finishRun(now: Int64, _ effects: inout [RaceEffect]) {
        runsEnded = runNumber
        state = .finished
        rearmAtNanos = now + settings.rearmDelayNanos
        var gates: [GateCrossing] = []
        var detailGates: [SplitGate] = []
        for (i, slot) in pending.enumerated() {
            guard let crossing = slot else { return }
            let seat = seats[i]
            var clock = GateClock.reference
            if let peer = crossing.peer {
                guard peer < links.count, let latest = links[peer].prediction,
                      let p = links[peer].prediction(atHostNanos: crossing.nanos - latest.offsetNanos) else {
                    effects.append(.say("race: run " + String(runNumber) + " not timed: no clock sync with box "
                                        + (seat.deviceId ?? "?")))
                    endRun(now: now, &effects)
                    return
                }
                clock = GateClock(id: peer + 1, prediction: p)
            }
            gates.append(GateCrossing(distanceMetres: seat.gate.distanceMetres, crossingNanos: crossing.nanos,
                                      detectionUncertaintyMs: crossing.uncertaintyMs, clock: clock))
            detailGates.append(SplitGate(gateIndex: i, role: seat.gate.role, distanceFromStart: seat.gate.distanceMetres,
                                         crossingTimeNanos: crossing.nanos, clockOffsetNanos: clock.offsetNanos,
                                         uncertaintyMs: crossing.uncertaintyMs))
        }
        let splits: [SegmentSplit]
        do {
            splits = try SegmentSplits.compute(gates)
        } catch {
            effects.append(.say("race: run " + String(runNumber) + " not timed: " + error.message))
            endRun(now: now, &effects)
            return
        }
        let last = splits[splits.count - 1]
        let budget = last.cumulativeBudget
        var segments: [SplitSegment] = []
        for s in splits {
            segments.append(SplitSegment(fromGateIndex: s.fromGateIndex, toGateIndex: s.toGateIndex, splitNanos: s.splitNanos,
                                         cumulativeSplitNanos: s.cumulativeSplitNanos))
        }
        let start = gates[0], finish = gates[gates.count - 1]
        let split = SplitTimeCalculated(
            runId: RaceWords.runId(runNumber), splitTimeMs: last.cumulativeSplitMs,
            startTimeNanos: start.crossingNanos &- start.clock.offsetNanos,
            finishTimeNanos: finish.crossingNanos &- finish.clock.offsetNanos,
            totalUncertaintyMs: budget.totalMs,
            detail: SplitDetail(runNumber: runNumber, startType: plan?.startType.code ?? "flying", gates: detailGates,
                                segments: segments,
                                budget: budget))
        effects.append(.send(.splitTimeCalculated(split), to: nil))
        keepForAbsentBoxes(split)
        if let record = RaceRunRecord(sessionId: sessionId, deviceId: deviceId, split: split) {
            runsRecorded += 1
            effects.append(.record(record))
            effects.append(.say(record.summary))
        }
        effects.append(.indicate(.runFinished))
        endRun(now: now, &effects)
    }

    /// The run is over: after the re-arm delay (at once when it is 0) the
    /// joiners reset and the next run is armed (`rearm`).
    mutating func endRun(now: Int64, _ effects: inout [RaceEffect]) {
        for i in pending.indices { pending[i] = nil }
        if settings.rearmDelayNanos <= 0 { rearm(now: now, &effects) }
    }

    /// reset_for_next_run (keeping calibration), then arm_gates once every
    /// gate is still there, synced and ready.
    mutating func rearm(now: Int64, _ effects: inout [RaceEffect]) {
        rearmAtNanos = nil
        guard state == .finished else { return }
        effects.append(.send(.resetForNextRun(ResetForNextRun(keepCalibration: true)), to: nil))
        state = .ready
        evaluate(now: now, &effects)
    }
}

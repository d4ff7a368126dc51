import GateCore
import GateProtocol

/// One gate of a race: its role and its metres from the start line.
public struct PlannedGate: Equatable, Sendable {
    public var role: GateRole
    public var distanceMetres: Double

    public init(role: GateRole, distanceMetres: Double) {
        self.role = role
        self.distanceMetres = distanceMetres
    }
}

/// Why a plan cannot be raced.
public enum RacePlanError: Error, Equatable {
    case gateCount(Int)
    case startNotFirst
    case finishNotLast
    /// Gate `index` between start and finish is not a lap gate.
    case notALapGate(index: Int)
    /// Gate `index` is not farther than the gate before it.
    case distanceNotIncreasing(index: Int)

    public var message: String {
        switch self {
        case .gateCount(let n): return "race plan: " + String(n) + " gates; a race has 2 to 4 (start, up to two lap gates, finish)"
        case .startNotFirst: return "race plan: the first gate must be the start, at 0 m"
        case .finishNotLast: return "race plan: the last gate must be the finish"
        case .notALapGate(let i): return "race plan: gate " + String(i) + " lies between start and finish, so it must be a lap gate"
        case .distanceNotIncreasing(let i): return "race plan: gate " + String(i) + " is not farther from the start than gate " + String(i - 1)
        }
    }
}

/// The host's plan of a race (seed 000, 9.4-9.5): gates in order, start at
/// 0 m, up to two lap gates, the finish last; gate index = position here.
public struct RacePlan: Equatable, Sendable {
    public let gates: [PlannedGate]
    public let startType: StartType

    public init(gates: [PlannedGate], startType: StartType = .flying) throws(RacePlanError) {
        guard gates.count >= 2 && gates.count <= SegmentSplits.maximumGates else { throw .gateCount(gates.count) }
        guard gates[0].role == .start && gates[0].distanceMetres == 0 else { throw .startNotFirst }
        guard gates[gates.count - 1].role == .finish else { throw .finishNotLast }
        for i in 1..<gates.count {
            if i < gates.count - 1 && gates[i].role != .lap { throw .notALapGate(index: i) }
            guard gates[i].distanceMetres > gates[i - 1].distanceMetres else { throw .distanceNotIncreasing(index: i) }
        }
        self.gates = gates
        self.startType = startType
    }

    /// Start at 0 m, a lap gate at each of `splits`, the finish at `finish`.
    public init(finishMetres finish: Double, splits: [Double] = [], startType: StartType = .flying) throws(RacePlanError) {
        var gates = [PlannedGate(role: .start, distanceMetres: 0)]
        for metres in splits { gates.append(PlannedGate(role: .lap, distanceMetres: metres)) }
        gates.append(PlannedGate(role: .finish, distanceMetres: finish))
        try self.init(gates: gates, startType: startType)
    }

    public var finishMetres: Double { gates[gates.count - 1].distanceMetres }
}

/// Words a coach reads: "finish gate", "lap gate".
enum RaceWords {
    static func gate(_ role: GateRole) -> String {
        switch role {
        case .start: return "start gate"
        case .finish: return "finish gate"
        case .lap: return "lap gate"
        case .controlOnly: return "control box"
        }
    }

    static func metres(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) + " m" : DecimalText.fixed(value, places: 1) + " m"
    }

    static func seconds(_ nanos: Int64) -> String { DecimalText.fixed(Double(nanos) / 1e9, places: 3) + " s" }

    static func runId(_ number: Int) -> String { "run-" + DecimalText.zeroPadded(number, width: 3) }
}

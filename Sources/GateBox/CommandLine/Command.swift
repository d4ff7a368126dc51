import GateCore
import GateSim

/// What the command line asked for.
public enum Command: Equatable {
    case simulate(SimulateOptions)
    case results(ResultsOptions)
    case help
    case version
}

public struct SimulateOptions: Equatable {
    public var simulation = SimulationOptions()
    public var dataDirectory: String?
    /// Run on the virtual clock as fast as possible instead of in real time.
    public var fast = false
    public init() {}
}

public struct ResultsOptions: Equatable {
    public var dataDirectory: String?
    public var csv = false
    /// One session ("session-0003"); nil: every session.
    public var session: String?
    public init() {}
}

/// A command line that cannot be run: one line for the user, exit status 2.
public struct UsageError: Error, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

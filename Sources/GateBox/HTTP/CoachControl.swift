import GateCore

/// What the coach's page may ask the box to do, for those who know the PIN.
enum CoachCommand: Equatable {
    case arm
    case disarm
    /// Call the start (countdown or voice), as a tap on an armed box.
    case start
    /// The next athlete for the next run, as the button's double tap.
    case athlete
    /// The next preset (the box disarmed), as the button's triple tap.
    case preset

    init?(name: String) {
        switch name {
        case "arm": self = .arm
        case "disarm": self = .disarm
        case "start": self = .start
        case "athlete": self = .athlete
        case "preset": self = .preset
        default: return nil
        }
    }

    static let names = "arm, disarm, start, athlete or preset"
}

/// The page's control: a 4-digit PIN drawn when the server starts, said
/// aloud and logged when a person at the box asks, and kept by each browser
/// in a cookie. Reading is open on the box's network; every control
/// request is checked against the PIN. Wrong PINs are limited to
/// `maxFailures` a minute for everyone, so the 10,000 codes cannot be tried
/// in less than about a day.
struct CoachControl {
    let pin: String
    /// When the last wrong PINs came (monotonic ns), at most `maxFailures`.
    private(set) var failures: [Int64] = []
    /// Commands accepted this turn, for the loop to carry out.
    var commands: [CoachCommand] = []
    static let maxFailures = 5
    static let failureWindowNanos: Int64 = 60_000_000_000
    static let cookie = "ts-gate-pin"

    init(pin: String) { self.pin = pin }

    /// A PIN from 32 random bits: 0000-9999.
    init(random bits: UInt32) {
        let n = Int(bits % 10_000)
        pin = String(n / 1000) + String(n / 100 % 10) + String(n / 10 % 10) + String(n % 10)
    }

    enum Verdict: Equatable {
        case allowed
        case wrong
        /// Too many wrong PINs lately: not even checked.
        case locked
    }

    /// Checks `given` (nil: none sent). Only a wrong PIN counts against the limit.
    mutating func check(_ given: String?, now: Int64) -> Verdict {
        failures.removeAll { now - $0 >= CoachControl.failureWindowNanos }
        guard let given, !given.isEmpty else { return .wrong }
        if failures.count >= CoachControl.maxFailures { return .locked }
        if CoachControl.same(given, pin) { return .allowed }
        failures.append(now)
        return .wrong
    }

    /// Compares every byte whatever the first difference, so the time an
    /// answer takes says nothing about how much of a guess was right.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// The PIN in words: "four eight two one".
    var words: [Phrase] { pin.utf8.compactMap { Phrase.number(Int($0) - 48) } }
}

import GateCore
import GateDevices

/// The button's taps in a row (`TapSequence`): one tap is the button's
/// tap as before; two pick the next athlete for the next run; three pick
/// the next preset, which closes the session so a new one starts with it;
/// four say the coach's page PIN aloud (and log it).
/// The picking itself is `NextRunPicker`'s; the loop only passes it on and
/// plays what it says.
extension BoxLoop {
    mutating func handle(taps count: Int) throws(GateError) -> SessionEnd? {
        switch count {
        case 1:
            try handle(ButtonGestures.Gesture.tap)
        case 2:
            guard configuration.race == nil else {
                say("button (double tap): a race's runs do not record athletes yet; the button does not pick one")
                return nil
            }
            guard let picked = picker.nextAthlete(voice: configuration.voice) else {
                say("button (double tap): no athletes to pick from (ts-gate athletes add NAME)")
                return nil
            }
            say("button (double tap): " + picked.line)
            try platform.speaker.play(picked.sound, atNanos: platform.nowNanos)
        case 3:
            guard configuration.race == nil else {
                say("button (triple tap): a race's preset is the host's configuration; the button does not change it")
                return nil
            }
            guard session.state == .idle else {
                say("button (triple tap): disarm first (hold 2-5 s) to change the preset; the gate is " + session.state.name)
                return nil
            }
            // The new session says the preset's name as it begins
            // (`announcePreset`): this one's speaker closes with it.
            let picked = picker.nextPreset()
            say("button (triple tap): " + picked.line)
            return .preset(picked.preset.id)
        case 4:
            try announcePIN()
        default:
            say("button: " + String(count) + " taps mean nothing (2: next athlete, 3: next preset while disarmed, 4: say the coach's page PIN)")
        }
        return nil
    }
}

extension NextRunPicker {
    /// "athletes: 3 (Ada Quick, Ben Fast, Cy Swift); next run: Ada Quick".
    var squadLine: String {
        var text = "athletes: " + String(squad.athletes.count) + " ("
            + squad.athletes.map { $0.name }.joined(separator: ", ") + "); next run: " + (athlete?.name ?? "nobody")
        text += "; double tap for the next athlete"
        if let key = bestsKey { text += "; bests at " + key } else { text += "; these runs set no bests (no start event with a preset's distance)" }
        return text
    }
}

import GateCore
import GateDevices

/// The configuration the box last ran on, kept on the data partition: a bad
/// edit of ts-gate.conf (on the SD image, a file anyone can change on a
/// laptop) is refused by its line, and the box runs on this copy instead of
/// stopping, blinking the error pattern until someone presses the button.
struct LastGoodSettings {
    let path: String

    init(dataDirectory: String) {
        path = dataDirectory + "/last-good.conf"
    }

    /// After `sources` loaded cleanly: keep its configuration's text, when
    /// it differs from the copy already kept. A failure to keep it is told,
    /// never fatal: the box runs on what it has just read.
    func keep(_ sources: SettingsSources, console: Console) {
        guard let config = sources.resolvedConfigFile, config != path,
              let text = try? FileDescriptor.readText(path: config) else { return }
        if let kept = try? FileDescriptor.readText(path: path), kept == text { return }
        do {
            try Directory.create(String(path[..<path.lastIndex(of: "/")!]))
            try ReplacedFile.write(text, to: path)
        } catch {
            console.problem("ts-gate: " + path + ": keeping the last good configuration failed: " + error.description)
        }
    }

    /// The settings from the board file and the kept configuration, or nil
    /// when none was kept or it no longer loads (a board file changed since).
    func load(_ sources: SettingsSources) -> BoxSettings? {
        guard Directory.exists(path) else { return nil }
        var fallback = sources
        fallback.configFile = path
        return try? fallback.load()
    }

    /// What the log and the status say when the configuration is refused.
    static func refusal(_ error: GateError) -> String {
        error.message + "; running on the last good configuration until it is fixed"
    }
}

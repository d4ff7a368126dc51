import GateCore
import GateDevices

/// Where a box's settings come from: the board file, then the user's
/// configuration over it. On the SD image both live in /etc/ts-gate.
struct SettingsSources: Equatable {
    var boardFile: String?
    var configFile: String?
    /// `run --preset ID`: over the configuration's preset.
    var preset: String?

    static let installedBoard = "/etc/ts-gate/board.conf"
    static let installedConfig = "/etc/ts-gate/ts-gate.conf"

    /// The configuration file in use: the one given, else the installed one if present.
    var resolvedConfigFile: String? {
        configFile ?? (Directory.exists(SettingsSources.installedConfig) ? SettingsSources.installedConfig : nil)
    }

    /// Reads and checks both files; errors name the file and line.
    func load() throws(GateError) -> BoxSettings {
        var settings = BoxSettings()
        let board = boardFile ?? (Directory.exists(SettingsSources.installedBoard) ? SettingsSources.installedBoard : nil)
        let config = resolvedConfigFile
        guard let board else {
            throw GateError(SettingsSources.installedBoard, "no board file: give --board FILE (the boards are in board/<name>/board.conf)")
        }
        for path in [board] + (config.map { [$0] } ?? []) {
            let text: String
            do { text = try FileDescriptor.readText(path: path) } catch {
                throw GateError(path, error, doing: "reading the settings")
            }
            do {
                try settings.apply(try KeyValueFile.parse(text, file: path), file: path)
            } catch {
                throw GateError(error.file + " line " + String(error.line), error.problem)
            }
        }
        if let preset {
            do { try settings.apply([KeyValueEntry(key: "preset", value: preset, line: 0)], file: "--preset") } catch {
                throw GateError("--preset", error.problem)
            }
        }
        do { try settings.validate() } catch {
            if error.file == "--preset" { throw GateError("--preset " + (preset ?? ""), error.problem) }
            throw GateError(error.file + " line " + String(error.line), error.problem)
        }
        return settings
    }
}

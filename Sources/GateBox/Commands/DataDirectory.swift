import GateDevices

/// Where results live when --data-dir is not given: $TS_GATE_DATA_DIR, else
/// ~/.local/share/ts-gate on a PC. The SD image's service passes --data-dir.
func defaultDataDirectory() -> String {
    if let explicit = Environment.value("TS_GATE_DATA_DIR") { return explicit }
    if let home = Environment.value("HOME") { return home + "/.local/share/ts-gate" }
    return "ts-gate-data"
}

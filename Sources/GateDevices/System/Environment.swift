import CGateShim

/// The process environment (getenv), read once at start-up.
public enum Environment {
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let text = String(cString: raw)
        return text.isEmpty ? nil : text
    }
}

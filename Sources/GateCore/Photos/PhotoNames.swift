/// Where a crossing's photos go and what they are called: read by the
/// session's HTML report, so the names are fixed.
/// `<session-dir>/photos/<runId>-<lap>-strip.png` (the photo-finish
/// strip), `-frame.png` (the crossing frame with the gate line) and
/// `-f<k>.png` (scrub frame k frames from the crossing frame: f-2, f-1,
/// f+1, f+2).
public enum PhotoNames {
    public static let directory = "photos"

    public static func strip(runId: String, lap: Int) -> String { prefix(runId, lap) + "strip.png" }

    public static func frame(runId: String, lap: Int) -> String { prefix(runId, lap) + "frame.png" }

    /// Offset 0 is the crossing frame itself.
    public static func scrub(runId: String, lap: Int, offset: Int) -> String {
        if offset == 0 { return frame(runId: runId, lap: lap) }
        return prefix(runId, lap) + "f" + (offset > 0 ? "+" : "-") + String(offset.magnitude) + ".png"
    }

    private static func prefix(_ runId: String, _ lap: Int) -> String { runId + "-" + String(lap) + "-" }
}

@testable import GateCore

/// Hand-written results lines, as a box with athletes writes them, for the
/// history and export tests.
enum HistoryFixtures {
    static func session(_ id: String, startType: String = "flying", mode: String = "solo", timestamp: Int64,
                        preset: String? = nil, distance: Double? = nil) -> String {
        var line = #"{"type":"session","format":1,"sessionId":""# + id + #"","deviceId":"box","mode":""# + mode
            + #"","startType":""# + startType + #"","detection":"photo-finish","fps":120,"width":320,"height":240,"gatePosition":0.5000,"viewWidthM":4.000,"timestamp":"#
            + String(timestamp) + #","simulated":false"#
        if let preset { line += #","preset":""# + preset + "\"" }
        if let distance { line += #","distanceM":"# + String(distance) }
        return line + "}"
    }

    /// A timed crossing; `athlete` adds the athlete fields, `pb` a best.
    static func crossing(_ id: String, run: Int, lap: Int, splitMs: Double?, athlete: String? = nil, colour: String = "blue",
                         athleteId: String = "a1", pb: Bool = false, sb: Bool = false, falseStart: Bool = false) -> String {
        var line = #"{"type":"crossing","sessionId":""# + id + #"","runId":"run-00"# + String(run) + #"","lap":"# + String(lap)
            + #","role":"solo","crossingTimeNanos":"# + String(5_000_000_000 + lap * 1_000_000_000)
            + #","frameIndex":600,"interpolationOffsetMs":-1.000,"uncertaintyMs":0.400,"occupancyAtTrigger":0.500,"direction":"ltr","startTimeNanos":5000000000,"elapsedMs":"#
            + String(splitMs ?? 0) + #","splitTimeMs":"# + (splitMs.map { String($0) } ?? "null")
            + #","totalUncertaintyMs":0.600,"speedMps":9.000,"droppedFrames":0,"stable":true,"timestamp":1767225605000"#
        if falseStart { line += #","reactionMs":40.000,"falseStart":true"# }
        if let athlete {
            line += #","athlete":""# + athlete + #"","athleteColour":""# + colour + #"","athleteId":""# + athleteId + "\""
            if pb { line += #","pb":true,"previousBestMs":4200.000,"improvementMs":120.000"# }
            if sb { line += #","sb":true"# }
        }
        return line + "}"
    }

    /// A race run over `gates` gates 30 m apart.
    static func raceRun(run: Int, gates: Int, splitMs: Double, athlete: String? = nil) -> String {
        var line = #"{"type":"race_run","sessionId":"race-1","deviceId":"box","runId":"run-00"# + String(run) + #"","runNumber":"# + String(run)
            + #","startType":"flying","gates":"# + String(gates)
        for g in 0..<gates { line += #","gate"# + String(g) + #"DistanceM":"# + String(Double(g) * 30) }
        let segment = splitMs / Double(gates - 1)
        for s in 1..<gates {
            line += #","split"# + String(s) + #"Ms":"# + String(segment) + #","cumulative"# + String(s) + #"Ms":"# + String(segment * Double(s))
                + #","speed"# + String(s) + #"Mps":"# + String(30 / (segment / 1000))
        }
        line += #","splitTimeMs":"# + String(splitMs) + #","finishTimeNanos":9000000000,"totalUncertaintyMs":1.000,"syncMs":0.500"#
        if let athlete { line += #","athlete":""# + athlete + "\"" }
        return line + "}"
    }

    static let day: Int64 = 86_400_000
    /// 2026-11-01T00:00:00Z.
    static let november1: Int64 = 1_793_491_200_000

    /// Five sessions: two flying lap sessions, a touch-release preset
    /// session, a two-box race and a three-box race.
    static var sessions: [RecordedSession] {
        [
            RecordedSession(id: "session-0001", text: [
                session("session-0001", timestamp: november1 + 9 * 3_600_000),
                crossing("session-0001", run: 0, lap: 0, splitMs: nil),
                crossing("session-0001", run: 1, lap: 1, splitMs: 4100, athlete: "Ana Silva", athleteId: "a1", pb: true),
                crossing("session-0001", run: 2, lap: 2, splitMs: 4300, athlete: "Bo Lind", athleteId: "a2"),
                #"{"type":"session_note","sessionId":"session-0001","name":"Tuesday flying 30s","timestamp":1793500000000}"#,
            ].joined(separator: "\n") + "\n"),
            RecordedSession(id: "session-0002", text: [
                session("session-0002", startType: "touchRelease", timestamp: november1 + 2 * day, preset: "40yd", distance: 36.576),
                crossing("session-0002", run: 1, lap: 1, splitMs: 5100, athlete: "Bo Lind", athleteId: "a2"),
                crossing("session-0002", run: 2, lap: 1, splitMs: 5000, athlete: "Bo Lind", athleteId: "a2", sb: true),
                crossing("session-0002", run: 3, lap: 1, splitMs: 4900, athlete: "ANAÏS Roy", athleteId: "a3"),
                #"{"type":"session_note","sessionId":"session-0002","note":"Wet track, head wind","timestamp":1793700000000}"#,
            ].joined(separator: "\n") + "\n"),
            RecordedSession(id: "session-0003", text: [
                session("session-0003", mode: "race", timestamp: november1 + 5 * day),
                raceRun(run: 1, gates: 2, splitMs: 3300, athlete: "Ana Silva"),
                raceRun(run: 2, gates: 2, splitMs: 3250, athlete: "Bo Lind"),
            ].joined(separator: "\n") + "\n"),
            RecordedSession(id: "session-0004", text: [
                session("session-0004", mode: "race", timestamp: november1 + 9 * day),
                raceRun(run: 1, gates: 3, splitMs: 6400, athlete: "Bo Lind"),
            ].joined(separator: "\n") + "\n"),
            RecordedSession(id: "session-0005", text: [
                session("session-0005", timestamp: november1 - day),
                crossing("session-0005", run: 0, lap: 0, splitMs: nil),
                crossing("session-0005", run: 1, lap: 1, splitMs: 3900, falseStart: true),
                crossing("session-0005", run: 2, lap: 2, splitMs: 4500),
                crossing("session-0005", run: 3, lap: 3, splitMs: 4400),
                crossing("session-0005", run: 4, lap: 4, splitMs: 4450),
            ].joined(separator: "\n") + "\n"),
        ]
    }

    static func ids(_ sessions: [RecordedSession]) -> [String] { sessions.map { $0.id } }
}

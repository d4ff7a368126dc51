import Foundation
import Testing
import GateDevices
@testable import GateBox

@Suite struct TSGateTests {
    /// On an x86_64 CPU below the builds' floor, `ts-gate` stops before any
    /// command runs (an SSE4 instruction would stop it with SIGILL
    /// somewhere later), naming what the CPU lacks.
    @Test func aCPUBelowTheFloorIsRefusedByWhatItLacks() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let data = dir.path + "/data"
        let run = try CapturedRun(["--simulate", "--fast", "--runs", "1", "--data-dir", data], in: dir,
                                  missingCPUFeatures: "sse4_2 popcnt")
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors == "ts-gate: this x86_64 build needs an x86-64-v2 CPU (Intel Nehalem, Atom Silvermont, "
            + "AMD Bulldozer, Jaguar or later); this one lacks sse4_2 popcnt\n")
        #expect(!FileManager.default.fileExists(atPath: data), "nothing ran")
    }

    @Test func aCPUThatMeetsTheFloorRuns() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let run = try CapturedRun(["--version"], in: dir, missingCPUFeatures: "")
        #expect(run.status == 0 && run.output == "ts-gate 0.1.0\n" && run.errors.isEmpty)
    }
}

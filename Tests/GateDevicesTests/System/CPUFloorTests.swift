import Testing
@testable import GateDevices

@Suite struct CPUFloorTests {
    /// CPUID leaf 1's ECX bits, as /proc/cpuinfo names them.
    static let pni: UInt32 = 1 << 0, ssse3: UInt32 = 1 << 9, cx16: UInt32 = 1 << 13
    static let sse41: UInt32 = 1 << 19, sse42: UInt32 = 1 << 20, popcnt: UInt32 = 1 << 23

    @Test func everyFeatureOfTheFloorIsNamedWhenMissing() {
        #expect(CPUFloor.missing(ecx: 0) == "pni ssse3 cx16 sse4_1 sse4_2 popcnt")
        #expect(CPUFloor.missing(ecx: UInt32.max) == "")
    }

    @Test func aCore2PenrynLacksOnlySSE42AndPopcnt() {
        // SSE4.1 came a generation before SSE4.2 and POPCNT (Nehalem).
        let penryn = Self.pni | Self.ssse3 | Self.cx16 | Self.sse41 | (1 << 3) | (1 << 7)
        #expect(CPUFloor.missing(ecx: penryn) == "sse4_2 popcnt")
    }

    @Test func aNehalemMeetsIt() {
        let nehalem = Self.pni | Self.ssse3 | Self.cx16 | Self.sse41 | Self.sse42 | Self.popcnt
        #expect(CPUFloor.missing(ecx: nehalem) == "")
    }

    /// The tests' own machine meets it (on aarch64 there is none to meet):
    /// the detector's tests run code built for it.
    @Test func thisMachineMeetsIt() {
        #expect(CPUFloor.missingHere() == "")
    }
}

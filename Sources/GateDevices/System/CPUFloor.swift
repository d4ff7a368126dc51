import CGateShim

/// The least x86_64 CPU the builds run on: x86-64-v2 (Package.swift and
/// image/toolset.sh compile for it). An older CPU would stop on the first
/// SSE4 instruction with SIGILL, somewhere in a frame; `ts-gate` checks
/// first and says so instead. aarch64 has no such floor (NEON is in every
/// aarch64 CPU).
public enum CPUFloor {
    /// x86-64-v2's features that CPUID leaf 1 reports in ECX: bit and name
    /// (as /proc/cpuinfo spells them). Its last one, LAHF in 64-bit mode,
    /// is in leaf 0x80000001, and in every CPU that has these.
    static let features: [(bit: UInt32, name: String)] = [
        (0, "pni"), (9, "ssse3"), (13, "cx16"), (19, "sse4_1"), (20, "sse4_2"), (23, "popcnt"),
    ]

    /// The names of the features missing from `ecx` (CPUID leaf 1), with a
    /// space between them; empty when none is.
    public static func missing(ecx: UInt32) -> String {
        var names = ""
        for feature in features where ecx & (1 << feature.bit) == 0 {
            names += (names.isEmpty ? "" : " ") + feature.name
        }
        return names
    }

    /// This CPU's missing features (empty on aarch64).
    public static func missingHere() -> String {
        #if arch(x86_64)
        return missing(ecx: gate_cpuid_1_ecx())
        #else
        return ""
        #endif
    }

    /// What `ts-gate` says when this CPU lacks `missing`.
    public static func problem(missing: String) -> String {
        "this x86_64 build needs an x86-64-v2 CPU (Intel Nehalem, Atom Silvermont, AMD Bulldozer, Jaguar "
            + "or later); this one lacks " + missing
    }
}

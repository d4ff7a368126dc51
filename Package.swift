// swift-tools-version: 6.1
//
// One codebase, two builds (DEVELOPERS.md, house rule 1):
// - host: `swift build` / `swift test`, full Swift, for tests and the simulator;
// - firmware: the same targets compiled as Embedded Swift by `make firmware`,
//   with every Embedded flag in a generated toolset file, none here.
import PackageDescription

// x86_64 builds are for x86-64-v2 CPUs (SSE4.2 and POPCNT: every x86_64
// board CPU since 2013, Atom and Celeron included). Segmenting a frame runs
// in vector lanes, and SSE2 has no 32-bit lane multiply nor a 32-to-16-bit
// pack: with SSE4.1's a 640x480 frame took 9 us less (a quarter of
// `segment`). `ts-gate` refuses to start on an older CPU (CPUFloor). Only
// the detector's module needs it. This manifest runs on the build machine,
// so `arch` is the host's: the firmware builds (image/firmware.sh, which
// sets TS_GATE_FIRMWARE) cross-build aarch64 here, and take every flag from
// their toolset, this one too for x86_64.
#if arch(x86_64)
let cpuFloor: [SwiftSetting] = Context.environment["TS_GATE_FIRMWARE"] == nil
    ? [.unsafeFlags(["-target-cpu", "nehalem"])] : []
#else
let cpuFloor: [SwiftSetting] = []
#endif

let package = Package(
    name: "ts-gate",
    products: [
        .executable(name: "ts-gate", targets: ["ts-gate"]),
        // The modules, for the benchmark package in Tests/Benchmarks (`make
        // bench`), which depends on this one by path so that its dependency
        // (ordo-one/benchmark and its build plugin) stays out of these builds.
        .library(name: "GateModules", targets: ["GateCore", "GateProtocol", "GateDevices", "GateSim", "GateBox"]),
    ],
    targets: [
        // The only place C headers enter: Linux UAPI and library headers with
        // static inline wrappers for variadic calls and function-like macros.
        .target(name: "CGateShim"),
        // Pure logic, no I/O: frames, detection, stability, sessions, timing
        // maths, result records and their text encodings.
        .target(name: "GateCore", swiftSettings: cpuFloor, linkerSettings: [.linkedLibrary("m")]),
        // The protocol between gates (seed 002): its JSON, typed messages,
        // version negotiation, ATT fragmentation, and ATT and GATT (server and
        // client). Bytes in, bytes out, no I/O.
        .target(name: "GateProtocol", dependencies: ["GateCore"]),
        // The libc seam (Errno, descriptors, clocks, poll) and the Linux
        // devices behind the protocols the simulator also implements.
        .target(name: "GateDevices", dependencies: ["CGateShim", "GateCore"],
                linkerSettings: [.linkedLibrary("z"), .linkedLibrary("gpiod"), .linkedLibrary("v4l2"), .linkedLibrary("v4lconvert")]),
        // Simulated camera, IMU, buttons, speaker, LED/buzzer on a virtual clock.
        .target(name: "GateSim", dependencies: ["GateCore", "GateDevices"]),
        // The box: command line, configuration, wiring and the poll loop.
        .target(name: "GateBox", dependencies: ["GateCore", "GateProtocol", "GateDevices", "GateSim"]),
        // Firmware-only stand-ins for library code the static image never runs
        // (empty in the host build; see link-trim.c).
        .target(name: "CFirmwareLinkTrim"),
        // -parse-as-library: the entry is the C-level main in EntryPoint.swift
        // (Embedded Swift has no CommandLine), not a top-level-code main.
        .executableTarget(name: "ts-gate", dependencies: ["GateBox", "CFirmwareLinkTrim"],
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])]),

        // Host-only tools (may use Foundation): `make accuracy`, and the
        // JPEG encoder of its --mjpeg (libjpeg-dev; never in the firmware).
        .executableTarget(name: "gate-accuracy", dependencies: ["GateCore", "GateDevices", "GateSim", "CAccuracyJPEG"],
                          path: "Tests/Accuracy"),
        .target(name: "CAccuracyJPEG", path: "Tests/AccuracyJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // Host-only: the fuzz targets of every parser of outside input (`make fuzz`;
        // built apart with -sanitize=fuzzer -D GATE_FUZZ by Tests/Fuzz/fuzz.sh).
        .executableTarget(name: "gate-fuzz", dependencies: ["GateCore", "GateProtocol", "CFuzzDriver"], path: "Tests/Fuzz",
                          exclude: ["fuzz.sh", "regressions"],
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .target(name: "CFuzzDriver", path: "Tests/FuzzDriver"),
        // Host-only: `make accuracy-sync`, two boxes' clock sync over the simulated air.
        .executableTarget(name: "gate-sync", dependencies: ["GateCore", "GateSim"], path: "Tests/SyncAccuracy"),

        .testTarget(name: "GateCoreTests", dependencies: ["GateCore"]),
        .testTarget(name: "GateProtocolTests", dependencies: ["GateProtocol", "GateCore"]),
        .testTarget(name: "GateDevicesTests", dependencies: ["GateDevices", "CGateShim"]),
        .testTarget(name: "GateSimTests", dependencies: ["GateSim", "GateCore"]),
        .testTarget(name: "GateBoxTests", dependencies: ["GateBox", "GateCore", "GateDevices", "GateSim"]),
    ]
)

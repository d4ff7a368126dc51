// swift-tools-version: 6.1
//
// The benchmarks (`make bench`), a package of their own so that
// ordo-one/benchmark, its malloc interposer and its build plugin never enter
// the host or firmware builds of ts-gate. It uses the ts-gate package (two
// directories up) by path. The benchmark plugin finds benchmark targets by
// their directory's parent being named "Benchmarks": this directory.
//
//   swift package --package-path Tests/Benchmarks --scratch-path .build-bench \
//       benchmark --target GateBenchmarks
import PackageDescription

let package = Package(
    name: "ts-gate-benchmarks",
    dependencies: [
        .package(name: "ts-gate", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "GateBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GateModules", package: "ts-gate"),
            ],
            path: "GateBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

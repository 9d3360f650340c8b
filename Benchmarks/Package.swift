// swift-tools-version: 6.1
// The benchmarks are a package of their own, so that the root package's `swift build`, `swift test` and CI never
// build them nor fetch ordo-one/benchmark. Run them from this folder: `swift package benchmark --no-progress`.
import PackageDescription

let package = Package(
    name: "VitalSnapBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "VitalSnap", path: ".."),
        // Only the MallocInterposer trait: the default traits also pull swift-runtime-interposer, which is not
        // among the machine's offline package copies.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ReaderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VitalSnapImaging", package: "VitalSnap"),
                .product(name: "VitalSnapOCR", package: "VitalSnap"),
            ],
            path: "Benchmarks/ReaderBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

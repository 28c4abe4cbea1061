// swift-tools-version: 6.0
// Benchmarks live in their own package so CI's `swift test` never builds them.
// Run: swift run -c release --package-path tools/benchmarks timing-benchmark
import PackageDescription

let package = Package(
    name: "benchmarks",
    dependencies: [.package(name: "CoreAnimationLinux", path: "../..")],
    targets: [
        .target(name: "AllocCounter"),
        .executableTarget(
            name: "timing-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux"), "AllocCounter"],
            path: "Sources/TimingBenchmark"),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
// Benchmarks live in their own package so CI's `swift test` never builds them.
// Run: swift run -c release --package-path tools/benchmarks timing-benchmark
//      swift run -c release --package-path tools/benchmarks baseline-benchmark   (see README.md)
//      swift run -c release --package-path tools/benchmarks render-benchmark     (the renderer)
import PackageDescription

let package = Package(
    name: "benchmarks",
    dependencies: [.package(name: "CoreAnimationLinux", path: "../..")],
    targets: [
        .target(name: "AllocCounter"),
        // Hand-written GL floor for the renderer benchmark (headless EGL, no engine) and the one
        // definition of its scene.
        .target(
            name: "GLBaseline",
            linkerSettings: [.linkedLibrary("EGL"), .linkedLibrary("OpenGL")]),
        .executableTarget(
            name: "baseline-benchmark",
            dependencies: ["GLBaseline"],
            path: "Sources/BaselineBenchmark"),
        .executableTarget(
            name: "render-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux"),
                           .product(name: "CADemoScenes", package: "CoreAnimationLinux"), "GLBaseline"],
            path: "Sources/RenderBenchmark"),
        // CGContext drawing of the CPU peers' workloads (issue 19's benchmarks).
        .executableTarget(
            name: "cgcontext-benchmark",
            dependencies: [.product(name: "CoreGraphics", package: "CoreAnimationLinux"), "GLBaseline"],
            path: "Sources/CGContextBenchmark"),
        // 1,000 drawn layers, 10 % calling setNeedsDisplay each frame (issue 19's benchmarks).
        .executableTarget(
            name: "drawn-layers-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux")],
            path: "Sources/DrawnLayersBenchmark"),
        // Text (issue 20): 10,000 changing glyphs and 100 fontSize animations, next to Skia.
        .executableTarget(
            name: "text-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux")],
            path: "Sources/TextBenchmark"),
        // Lottie (issue 23): four corpus samples at 512×512, next to rlottie and ThorVG.
        .executableTarget(
            name: "lottie-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux"),
                           .product(name: "CALottie", package: "CoreAnimationLinux")],
            path: "Sources/LottieBenchmark"),
        // Filters (issue 24): 20 blurs and 10 blend modes next to Skia; the resvg suite next to resvg.
        .executableTarget(
            name: "filter-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux"),
                           .product(name: "CADemoScenes", package: "CoreAnimationLinux")],
            path: "Sources/FilterBenchmark"),
        .executableTarget(
            name: "svg-suite-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux"),
                           .product(name: "CASVG", package: "CoreAnimationLinux")],
            path: "Sources/SVGSuiteBenchmark"),
        .executableTarget(
            name: "timing-benchmark",
            dependencies: [.product(name: "QuartzCore", package: "CoreAnimationLinux"), "AllocCounter"],
            path: "Sources/TimingBenchmark"),
    ],
    swiftLanguageModes: [.v6]
)

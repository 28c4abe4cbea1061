// swift-tools-version: 6.0
// libFuzzer targets for the importers that read untrusted files (issue 17, "Keep it caught").
// Their own package, so CI's `swift test` never builds them. Build and run: see README.md.
import PackageDescription

let package = Package(
    name: "fuzz",
    dependencies: [.package(name: "CoreAnimationLinux", path: "../..")],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver` (the targets keep their own `main`).
        .target(name: "CFuzzDriver"),
        .executableTarget(
            name: "fuzz-svg",
            dependencies: ["CFuzzDriver", .product(name: "CASVG", package: "CoreAnimationLinux")],
            path: "Sources/FuzzSVG"),
        .executableTarget(
            name: "fuzz-scene",
            dependencies: ["CFuzzDriver", .product(name: "CAScene", package: "CoreAnimationLinux")],
            path: "Sources/FuzzScene"),
        .executableTarget(
            name: "fuzz-lottie",
            dependencies: ["CFuzzDriver", .product(name: "CALottie", package: "CoreAnimationLinux")],
            path: "Sources/FuzzLottie"),
        .executableTarget(
            name: "fuzz-font",
            dependencies: ["CFuzzDriver", .product(name: "CoreText", package: "CoreAnimationLinux"),
                           .product(name: "CoreGraphics", package: "CoreAnimationLinux")],
            path: "Sources/FuzzFont"),
        .executableTarget(
            name: "fuzz-path",
            dependencies: ["CFuzzDriver", .product(name: "CASVG", package: "CoreAnimationLinux"),
                           .product(name: "QuartzCore", package: "CoreAnimationLinux")],
            path: "Sources/FuzzPath"),
        .executableTarget(
            name: "fuzz-image",
            dependencies: ["CFuzzDriver", .product(name: "ImageIO", package: "CoreAnimationLinux"),
                           .product(name: "CoreGraphics", package: "CoreAnimationLinux")],
            path: "Sources/FuzzImage"),
        .executableTarget(
            name: "fuzz-png",
            dependencies: ["CFuzzDriver", .product(name: "CoreGraphics", package: "CoreAnimationLinux")],
            path: "Sources/FuzzPNG"),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
// Core Animation for Linux. Module layering (one direction only):
//   CoreGraphics (value types) → CoreAnimation (model + timing, no GL) → QuartzCore (umbrella)
import PackageDescription

let package = Package(
    name: "CoreAnimationLinux",
    products: [
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
    ],
    targets: [
        // libpng, for CGImage's PNG encode/decode (simplified png_image_* API only).
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(name: "CoreGraphics", dependencies: ["CPNG"]),
        .target(
            name: "CoreAnimation",
            dependencies: [
                "CoreGraphics",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "QuartzCore", dependencies: ["CoreGraphics", "CoreAnimation"]),
        .testTarget(name: "CoreGraphicsTests", dependencies: ["CoreGraphics"]),
        .testTarget(name: "CoreAnimationTests", dependencies: ["CoreAnimation"]),
        .testTarget(name: "QuartzCoreTests", dependencies: ["QuartzCore"]),
    ],
    swiftLanguageModes: [.v6]
)

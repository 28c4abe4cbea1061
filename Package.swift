// swift-tools-version: 6.0
// Core Animation for Linux. Module layering (one direction only):
//   CoreGraphics (value types) → CoreAnimation (model + timing, no GL)
//   → CARender (render tree → batches, no GL) → CAOpenGL (GL backend, never sees a layer)
//   → CASurfaces (EGL headless) → QuartzCore (umbrella with CARenderer)
// C libraries are system-library shims (C…): module map + shim header.
import PackageDescription

let package = Package(
    name: "CoreAnimationLinux",
    products: [
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "CAScene", targets: ["CAScene"]),
        // carender (issue 5): the command-line renderer, and the scenes it and the benchmarks share.
        .executable(name: "carender", targets: ["carender"]),
        .library(name: "CADemoScenes", targets: ["CADemoScenes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        // carender's command line (issue 5).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CGL", path: "Sources/CGL", pkgConfig: "opengl",
                       providers: [.apt(["libgl-dev", "libopengl-dev"])]),
        .systemLibrary(name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
                       providers: [.apt(["libegl-dev"])]),
        // Shaders/*.glsl|vert|frag embedded with C23 #embed (see Sources/CShaders/shaders.c).
        .target(name: "CShaders"),
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
        .target(name: "CARender", dependencies: ["CoreGraphics", "CoreAnimation"]),
        .target(name: "CAOpenGL", dependencies: ["CGL", "CShaders", "CoreGraphics", "CARender"]),
        .target(name: "CASurfaces", dependencies: ["CEGL"]),
        .target(name: "QuartzCore", dependencies: ["CoreGraphics", "CoreAnimation", "CARender", "CAOpenGL", "CASurfaces"]),
        // Scene files (issue 5): the JSON scene format — load, validate, encode (no GL).
        .target(name: "CAScene", dependencies: ["CoreGraphics", "CoreAnimation"]),
        .testTarget(name: "SceneTests", dependencies: ["CAScene", "QuartzCore", "CADemoScenes"],
                    exclude: ["Corpus"]),
        // Scenes built in Swift that tools and tests share (the bundled demo).
        .target(name: "CADemoScenes", dependencies: ["QuartzCore", "CAScene"]),
        // carender (issue 5): the command-line tool, and XCTest tests that run its binary as a
        // user would (XCTest on purpose: CI reports a non-zero XCTest count).
        // libdeflate, for carender's fast PNG writer (level 1; libpng's simplified API has no
        // compression level, and libdeflate is ~2× faster than zlib at level 1).
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .executableTarget(
            name: "carender",
            dependencies: ["QuartzCore", "CAScene", "CADemoScenes", "CDeflate",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "CarenderTests", dependencies: ["carender", "CoreGraphics"]),
        .testTarget(name: "CoreGraphicsTests", dependencies: ["CoreGraphics"]),
        .testTarget(name: "CoreAnimationTests", dependencies: ["CoreAnimation"]),
        .testTarget(name: "QuartzCoreTests", dependencies: ["QuartzCore"]),
        // Goldens/ holds reference PNGs read in place through #filePath, not bundled resources.
        .testTarget(name: "RendererTests", dependencies: ["QuartzCore", "CARender"], exclude: ["Goldens"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c2x
)

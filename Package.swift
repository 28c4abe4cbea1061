// swift-tools-version: 6.0
// Core Animation for Linux. Module layering (one direction only):
//   CoreGraphics (value types) → CoreText (fonts, shaping, layout, glyph drawing; issue 20)
//   → CoreAnimation (model + timing, no GL)
//   → CARender (render tree → the frame format, CAFrame; no GL) → CAOpenGL (GL backend: reads
//   CAFrame only, never sees a layer or the builder)
//   → CASurfaces (EGL headless) → QuartzCore (umbrella with CARenderer)
// Beside it, building layer trees from files (no GL): CASVG (SVG import), CAScene (scene files);
// on top: CAWindow (GLFW windows), CADemoScenes (the demo and stress scenes), the tools
// carender and ca-preview; beside QuartzCore, UIKitCompat (UIKit's value types for ported iOS code).
// C libraries are system-library shims (C…): module map + shim header.
import PackageDescription

let package = Package(
    name: "CoreAnimationLinux",
    products: [
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        // Text (issue 20): Apple's Core Text subset; also re-exported by QuartzCore.
        .library(name: "CoreText", targets: ["CoreText"]),
        // Image I/O (issue 19): CGImageSource / CGImageDestination, as Apple's ImageIO framework.
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "CAScene", targets: ["CAScene"]),
        // carender (issue 5): the command-line renderer, and the scenes it and the benchmarks share.
        .executable(name: "carender", targets: ["carender"]),
        .library(name: "CADemoScenes", targets: ["CADemoScenes"]),
        // Windowed preview (issue 7).
        .library(name: "CAWindow", targets: ["CAWindow"]),
        .executable(name: "ca-preview", targets: ["ca-preview"]),
        // SVG import (issue 6): SVG data → a live layer tree.
        .library(name: "CASVG", targets: ["CASVG"]),
        // Porting aid (issue 18): UIKit's value types that Core Animation code touches
        // (UIColor, UIBezierPath, UIImage, UIFont, UIEdgeInsets …), so a ported iOS file
        // changes only its import line. Not named UIKit on purpose (docs/UIKIT-COMPAT.md).
        .library(name: "UIKitCompat", targets: ["UIKitCompat"]),
        // Core Image's CIFilter subset that CALayer's filters take (issue 24); re-exported by QuartzCore.
        .library(name: "CoreImage", targets: ["CoreImage"]),
        // Lottie import (issue 23): Lottie JSON and dotLottie → a live layer tree of keyframe animations.
        .library(name: "CALottie", targets: ["CALottie"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        // carender's command line (issue 5).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target QuartzCore` (DocC; a build-time plugin
        // only, nothing of it is linked into the products).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // dotLottie archives (issue 23): the zip reader CALottie opens `.lottie` files with.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
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
        .target(name: "CoreGraphics", dependencies: ["CPNG", "CPrefetch", "CFloatLanes", "CPixelKernels", "CCoverage"]),
        // Text (issue 20): a Core Text subset (CTFont, CGFont, CTLine, CTRun, CTFramesetter,
        // CTFrame, CTParagraphStyle) on FreeType (outlines, metrics), HarfBuzz (shaping),
        // fontconfig (lookup, fallback), FriBidi (UAX #9) and ICU's line breaker (UAX #14).
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi",
                       providers: [.apt(["libfribidi-dev"])]),
        // ICU's line breaker behind a header that names no ICU type (see its header: Foundation
        // carries its own ICU headers, which clash with the system's in one Clang module map).
        .target(name: "CICUBreak", linkerSettings: [.linkedLibrary("icuuc")]),
        .target(name: "CoreText",
                dependencies: ["CoreGraphics", "CFreeType", "CHarfBuzz", "CFontconfig", "CFriBidi", "CICUBreak"]),
        .testTarget(name: "CoreTextTests", dependencies: ["CoreText", "CATestSupport"]),
        // Image I/O (issue 19): Apple's ImageIO functions (CGImageSource, CGImageDestination) for
        // PNG (CoreGraphics' libpng path), JPEG (libjpeg-turbo's TurboJPEG API), GIF (giflib) and
        // WebP (libwebp, libwebpdemux). Beside CoreGraphics, as on Apple; not re-exported by
        // QuartzCore (Apple's is not).
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", path: "Sources/CGIF", pkgConfig: "libgif",
                       providers: [.apt(["libgif-dev"])]),
        .target(name: "ImageIO", dependencies: ["CoreGraphics", "CTurboJPEG", "CWebP", "CGIF"]),
        // Fixtures/ holds WebP files made with cwebp/img2webp (see its README), read in place.
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "CoreGraphics"], exclude: ["Fixtures"]),
        // Core Image (issue 24): CIFilter, CIVector, CIColor and the kCIInput…Key constants that
        // CALayer's filters, backgroundFilters and compositingFilter take; run on the GPU by
        // the renderer (docs/FILTERS.md). Depends on CoreGraphics only.
        .target(name: "CoreImage", dependencies: ["CoreGraphics"]),
        .testTarget(name: "CoreImageTests", dependencies: ["CoreImage"]),
        // The Swift runtime's swift_isDeallocating/swift_tryRetain, declared for CoreAnimation's
        // cross-thread release (a header; the runtime defines them).
        .target(name: "CSwiftRuntime"),
        .target(
            name: "CoreAnimation",
            dependencies: [
                "CoreGraphics",
                "CSwiftRuntime",
                // Filter parameters animate by key path (filters.<name>.inputRadius, issue 24).
                "CoreImage",
                // CATextLayer lays out and draws its text with Core Text (issue 20).
                "CoreText",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The frame format (issue 16): what one frame hands a backend — passes, targets, batches,
        // instance layouts, clip table, textures. Plain data on CoreGraphics alone; the builder
        // (CARender) produces it, a backend (CAOpenGL) consumes it and never sees the builder.
        .target(name: "CAFrame", dependencies: ["CoreGraphics"]),
        // The real stack position for the render walk's stack guard (ASan's fake stacks move locals).
        .target(name: "CStackPointer"),
        .target(name: "CARender", dependencies: ["CoreGraphics", "CoreAnimation", "CAFrame", "CoreImage", "CoreText", "CStackPointer"]),
        .target(name: "CAOpenGL", dependencies: ["CGL", "CShaders", "CoreGraphics", "CAFrame"]),
        // The CPU backend (issue 22): executes the same CAFrame frames in memory, on every core; no GL.
        .target(name: "CPrefetch"),
        // Four-lane truncation and clamps (cvttps2dq, maxps/minps) for FloatLanes' inlinable helpers.
        .target(name: "CFloatLanes"),
        // Eight-pixel AVX2 loops CoreGraphics' span painters pick at run time (issue 19).
        .target(name: "CPixelKernels", dependencies: ["CFloatLanes", "CPrefetch", "CCoverage"]),
        // The coverage rasteriser's edge accumulation, the same arithmetic in C (issue 19).
        .target(name: "CCoverage"),
        .target(name: "CASoftware", dependencies: ["CoreGraphics", "CAFrame", "CPrefetch", "CFloatLanes"]),
        .target(name: "CASurfaces", dependencies: ["CEGL", "CoreGraphics"]),
        .target(name: "QuartzCore", dependencies: ["CoreGraphics", "CoreText", "CoreImage", "CoreAnimation", "CAFrame", "CARender", "CAOpenGL", "CASurfaces", "CASoftware"]),
        // Scene files (issue 5): the JSON scene format — load, validate, encode (no GL).
        // (Path data in scenes is SVG path data: the grammar is CASVG's.)
        .target(name: "CAScene", dependencies: ["CoreGraphics", "CoreText", "CoreImage", "CoreAnimation", "CASVG", "CALottie", "ImageIO"]),
        // FrameHashes/ holds the recorded frame hashes FrameIdentityTests reads in place (#filePath).
        .testTarget(name: "SceneTests", dependencies: ["CAScene", "QuartzCore", "CADemoScenes", "CATestSupport", "ImageIO"],
                    exclude: ["Corpus", "FrameHashes"]),
        // Scenes built in Swift that tools and tests share (the bundled demo).
        .target(name: "CADemoScenes", dependencies: ["QuartzCore", "CAScene"]),
        // SVG import (issue 6): parses SVG into CAShapeLayer/CAGradientLayer trees; no GL.
        // libxml2's SAX parser for SVG's XML, behind a C header naming no libxml2 type
        // (libxml2's headers include ICU's, which clash with Foundation's in one module graph).
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .target(name: "CXMLSAX", dependencies: ["CLibXML2"]),
        // ImageIO decodes `<image>` rasters (PNG, JPEG, GIF, WebP); CoreImage holds the filter graphs.
        .target(name: "CASVG", dependencies: ["CoreGraphics", "CoreText", "CoreAnimation", "CoreImage", "CXMLSAX", "ImageIO"]),
        // Fuzz/ holds the seed corpus and corpus-expected-failures.tsv is read in place (#filePath).
        .testTarget(name: "SVGTests", dependencies: ["QuartzCore", "CASVG", "CATestSupport"],
                    exclude: ["Fuzz", "corpus-expected-failures.tsv", "text-corpus-expected-failures.tsv"]),
        // Windowed preview (issue 7): GLFW windows driving the same CARenderer as the headless
        // path, display-driven CADisplayLink, ScenePreview, and the ca-preview tool.
        .systemLibrary(name: "CGLFW", path: "Sources/CGLFW", pkgConfig: "glfw3",
                       providers: [.apt(["libglfw3-dev"])]),
        .target(name: "CAWindow", dependencies: ["QuartzCore", "CGLFW", "CEGL"]),
        .executableTarget(name: "ca-preview", dependencies: ["CAWindow", "CADemoScenes"]),
        // Builds and patches of the stress scenes with no GL, for callgrind (docs/PERFORMANCE.md);
        // in no product.
        .executableTarget(name: "builder-benchmark", dependencies: ["CADemoScenes", "CARender", "CoreAnimation"]),
        .testTarget(name: "WindowTests", dependencies: ["CAWindow", "CADemoScenes", "CATestSupport"]),
        // Helpers several test targets share (a seeded generator, the test font configuration);
        // in no product.
        .target(name: "CATestSupport", dependencies: ["CoreGraphics", "CoreText"]),
        .testTarget(name: "CoreGraphicsTests", dependencies: ["CoreGraphics", "CATestSupport"]),
        // Export (issue 5): CAExport, the fast PNG writer for rendered frames (its own deflate
        // encoder, specialised for them; libpng's simplified API has no compression level), and
        // its tests. libdeflate only for CRC-32 and Adler-32.
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(name: "CAExport", dependencies: ["CDeflate"]),
        .testTarget(name: "CAExportTests", dependencies: ["CAExport", "CoreGraphics", "CDeflate", "CATestSupport"]),
        // carender (issue 5): the command-line tool, and XCTest tests that run its binary as a
        // user would (XCTest on purpose: CI reports a non-zero XCTest count).
        .executableTarget(
            name: "carender",
            dependencies: ["QuartzCore", "CAScene", "CASVG", "CAWindow", "CADemoScenes", "CAExport",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           "CALottie"]),
        .testTarget(name: "CarenderTests", dependencies: ["carender", "CoreGraphics", "leak-check"]),
        // Hostile input (issue 17): thousands of malformed inputs through each reader of untrusted
        // files in one process, failing when the heap grows with their number; in no product.
        .target(name: "CHeapStats"),
        .executableTarget(name: "leak-check", dependencies: ["CASVG", "CAScene", "CALottie", "ImageIO", "CoreGraphics", "CHeapStats"]),
        .testTarget(name: "CoreAnimationTests", dependencies: ["CoreAnimation", "CoreText", "CATestSupport"]),
        .testTarget(name: "QuartzCoreTests", dependencies: ["QuartzCore"]),
        // The CPU backend (issue 22): its own pixel tests, parity with GL, the backend choice.
        .testTarget(name: "SoftwareRendererTests", dependencies: ["QuartzCore", "CASoftware", "CAFrame", "CADemoScenes", "CAScene", "CATestSupport", "CASVG"]),
        // The frame format alone (no builder, no GL): what a second backend can rely on.
        .testTarget(name: "FrameFormatTests", dependencies: ["CAFrame"]),
        // XCTest on purpose (see the file): the README's own examples, run as written.
        .testTarget(name: "ReadmeExampleTests", dependencies: ["QuartzCore"]),
        // Goldens/ holds reference PNGs read in place through #filePath, not bundled resources.
        // UIKit compatibility (issue 18): the module, and its tests (unit tests and a ported
        // iOS loading-animations file rendered offscreen).
        .target(name: "UIKitCompat", dependencies: ["QuartzCore", "CoreAnimation"]),
        .testTarget(name: "UIKitCompatTests", dependencies: ["UIKitCompat", "CATestSupport"]),
        // Lottie import (issue 23): Lottie JSON / dotLottie → CALayer trees driven by
        // CAKeyframeAnimations, as lottie-ios's Core Animation engine builds them; no GL.
        .target(name: "CALottie", dependencies: ["CoreGraphics", "CoreText", "CoreAnimation", "ImageIO",
                                                 .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "CALottieTests", dependencies: ["CALottie", "QuartzCore", "CATestSupport",
                                                          .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "RendererTests", dependencies: ["QuartzCore", "CARender", "CAOpenGL", "CAFrame", "CATestSupport"], exclude: ["Goldens", "Fonts"]),
        // The documents checked against the code they describe (read in place through #filePath).
        .testTarget(name: "DocsTests"),
        // The public API listing (issue 16): regenerates api/*.txt from the built modules' symbol
        // graphs and fails on any difference (docs/API.md). Depends on the product modules only so
        // that they are built before it runs; it imports none of them.
        .testTarget(name: "APIListingTests",
                    dependencies: ["QuartzCore", "CAScene", "CASVG", "CAWindow", "UIKitCompat", "CADemoScenes", "ImageIO",
                                   "CALottie"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c2x
)

// carender (issue 25): JPEG and WebP stills through ImageIO's CGImageDestination.
package.targets.first { $0.name == "carender" }!.dependencies.append("ImageIO")

// Content layers (issue 19): FFmpeg for CAVideoLayer — the system-library shim (libavformat; the
// other libraries are linked by CVideoDecode, libavdevice for the live source) and the C decoder
// behind a header naming no FFmpeg type; CoreAnimation decodes with it. The renderer tests draw a CAOpenGLLayer with raw GL.
package.targets.append(contentsOf: [
    .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
                   providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev", "libavdevice-dev"])]),
    .target(name: "CVideoDecode", dependencies: ["CFFmpeg"],
            linkerSettings: [.linkedLibrary("avdevice"), .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("swscale"), .linkedLibrary("avutil")]),
])
package.targets.first { $0.name == "CoreAnimation" }!.dependencies.append("CVideoDecode")
package.targets.first { $0.name == "RendererTests" }!.dependencies.append("CGL")

// carender serve (issue 25): the render service. CAService is the HTTP server (Hummingbird 2),
// its render queue, limits, Prometheus metrics (swift-prometheus) and request logs; renders run
// as `carender render` child processes, so no library module links any of it. serve-loadtest
// is the load generator docs/CARENDER.md's numbers come from (not run by CI); in no product.
package.dependencies += [
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // Already in the graph through Hummingbird; named for the modules CAService imports itself.
    .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
]
package.targets += [
    .target(name: "CAService", dependencies: [.product(name: "Hummingbird", package: "hummingbird"),
                                              .product(name: "Prometheus", package: "swift-prometheus"),
                                              .product(name: "Logging", package: "swift-log"),
                                              .product(name: "NIOCore", package: "swift-nio"),
                                              .product(name: "HTTPTypes", package: "swift-http-types"),
                                              .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
    .testTarget(name: "ServiceTests", dependencies: ["CAService", "carender", "CoreGraphics"]),
    .executableTarget(name: "serve-loadtest"),
]
package.targets.first { $0.name == "carender" }!.dependencies.append("CAService")

// CGContext against Cairo (issue 19): generated drawing programs run through both and compared
// pixel by pixel. Cairo is a test-only dependency (libcairo2-dev); no product links CCairo.
package.targets += [
    .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    .testTarget(name: "CairoDifferentialTests", dependencies: ["CoreGraphics", "CCairo", "CATestSupport"]),
]

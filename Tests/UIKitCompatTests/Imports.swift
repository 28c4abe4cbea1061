// `import UIKitCompat` as a ported iOS file writes it, kept out of the files that import
// Testing: Swift Testing on Linux declares a cross-import overlay for modules named
// CoreGraphics that the toolchain does not ship, so one file cannot import both (see
// Tests/QuartzCoreTests/Imports.swift). CoreAnimation for `CAMediaClock.withFrameTime` (package).
@_exported import UIKitCompat
@_exported import CoreAnimation

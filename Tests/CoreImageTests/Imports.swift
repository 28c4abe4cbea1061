// Kept out of the test files: Swift Testing on Linux declares cross-import overlays for modules
// named CoreImage and CoreGraphics that the toolchain does not ship, so a file importing both
// Testing and one of them does not compile (as in Tests/RendererTests/Imports.swift).
@_exported import CoreImage
@_exported import CoreGraphics

// The modules under test, kept out of the test files: a file importing Testing and this
// package's CoreGraphics together does not compile on Linux (Swift Testing's cross-import
// overlay; see Tests/CoreGraphicsTests/Imports.swift).
@_exported import CoreGraphics
@_exported import ImageIO

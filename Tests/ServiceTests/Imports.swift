// Swift Testing's cross-import overlay for a module named CoreGraphics is declared but not built
// on Linux (see Tests/CoreGraphicsTests/Imports.swift): CoreGraphics is imported here alone,
// re-exported, and the test files import only Testing.
@_exported import CoreGraphics

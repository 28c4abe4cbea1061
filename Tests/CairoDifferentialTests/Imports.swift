// Swift Testing's cross-import overlay for a module named `CoreGraphics` is declared but not
// built on Linux (see Tests/CoreGraphicsTests/Imports.swift): CoreGraphics is imported once
// here, re-exported module-wide, and the test file imports only `Testing`.
@_exported import CoreGraphics
@_exported import CATestSupport

// The modules under test, imported here rather than in the test files: Swift Testing on Linux
// declares a cross-import overlay for modules named CoreGraphics that the toolchain does not
// ship, so a file importing both Testing and (a re-export of) CoreGraphics does not compile
// (see Tests/QuartzCoreTests/Imports.swift).
@_exported import QuartzCore
@_exported @testable import CALottie

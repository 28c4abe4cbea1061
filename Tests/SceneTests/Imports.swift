// The modules under test, kept out of the test files (a file importing Testing and
// QuartzCore together does not compile on Linux; see Tests/QuartzCoreTests/Imports.swift).
@_exported import QuartzCore
@_exported import CAScene
@_exported import CADemoScenes
@_exported import ImageIO
@_exported import CATestSupport

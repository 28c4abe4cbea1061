// The modules under test, kept out of the test files: Swift Testing on Linux declares a
// cross-import overlay for modules named CoreGraphics that the toolchain does not ship, so a
// file importing both Testing and QuartzCore does not compile.
@_exported import CAWindow
@_exported import CADemoScenes

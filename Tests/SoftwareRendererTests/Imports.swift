// Kept out of the test files: Swift Testing on Linux declares a cross-import overlay for
// modules named CoreGraphics that the toolchain does not ship, so a file importing both
// Testing and QuartzCore (or CoreGraphics) does not compile.
@_exported import QuartzCore
@_exported import CAScene
@_exported import CADemoScenes
@_exported import CARender
@_exported import CASVG

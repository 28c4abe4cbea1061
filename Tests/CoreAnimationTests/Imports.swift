// Swift Testing on Linux declares a cross-import overlay for any module named CoreGraphics
// that the toolchain does not ship; re-exporting here keeps test files to `import Testing`.
@_exported import CoreGraphics

// `import QuartzCore` and CASVG as user code writes them. Kept out of the test files: Swift
// Testing on Linux declares a cross-import overlay for modules named CoreGraphics that the
// toolchain does not ship, so a file importing both Testing and QuartzCore does not compile.
@_exported import QuartzCore
@_exported import CASVG
@_exported import CATestSupport

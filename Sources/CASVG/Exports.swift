// CASVG builds CoreAnimation layers from CoreGraphics paths and colours; both are re-exported so
// `import CASVG` next to `import QuartzCore` (which re-exports the same modules) needs nothing else.
@_exported import CoreGraphics
@_exported import CoreAnimation

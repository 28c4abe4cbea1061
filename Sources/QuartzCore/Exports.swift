// `import QuartzCore` is the whole of Core Animation, as on Apple platforms: the CoreGraphics
// value types, the layer/animation model, and CARenderer with its documented extensions
// (`Options`, `statistics: RenderStats` …). The renderer's modules are re-exported, but what
// they hold beyond `RenderStats` is `package`: the frame format, the builder and the EGL
// context reach this package's own modules and tests, never a user's autocomplete
// (docs/API.md; api/ lists what is public).
@_exported import CoreGraphics
@_exported import CoreText
// CIFilter and its parameter types (issue 24): on macOS `import QuartzCore` brings Core Image too.
@_exported import CoreImage
@_exported import CoreAnimation
@_exported import CARender
@_exported import CAFrame
@_exported import CASurfaces

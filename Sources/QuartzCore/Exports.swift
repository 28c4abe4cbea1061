// `import QuartzCore` is the whole of Core Animation, as on Apple platforms: the CoreGraphics
// value types, the layer/animation model and (once it exists) the renderer.
@_exported import CoreGraphics
@_exported import CoreAnimation

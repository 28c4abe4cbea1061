// `import QuartzCore` is the whole of Core Animation, as on Apple platforms: the CoreGraphics
// value types, the layer/animation model, and the renderer (CARenderer, its statistics and
// the headless EGL context).
@_exported import CoreGraphics
@_exported import CoreAnimation
@_exported import CARender
@_exported import CAFrame
@_exported import CASurfaces

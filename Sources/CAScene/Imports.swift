@_exported import CoreGraphics
@_exported import CoreAnimation

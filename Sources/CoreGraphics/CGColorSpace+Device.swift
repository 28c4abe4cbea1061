/// Apple's `CGColorSpaceCreateDeviceRGB()`. There is no device-dependent colour space on
/// Linux: the renderer composites in sRGB, so this returns the sRGB space (the same object
/// as `CGColorSpace(name: CGColorSpace.sRGB)` describes).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace.srgbSpace }

/// Apple's `CGColorSpaceCreateDeviceGray()`: the gray space used by `CGColor(gray:alpha:)`.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace.graySpace }

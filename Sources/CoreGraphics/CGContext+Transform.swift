// The current transformation matrix (Apple's "Transforming User Space" and "Converting Between
// Device Space and User Space" groups of CGContext). Device space of a bitmap context: origin
// at the bottom-left corner of the bitmap, y up, one unit a pixel.

extension CGContext {
    /// The current transformation matrix, user space → device space (CGContextGetCTM). The
    /// identity on a new bitmap context.
    public var ctm: CGAffineTransform { gstate.ctm }

    /// The user → device transform (CGContextGetUserSpaceToDeviceSpaceTransform): the CTM,
    /// as the device of a bitmap context is its base space.
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { gstate.ctm }

    /// Moves the origin of user space (CGContextTranslateCTM).
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { gstate.ctm = gstate.ctm.translatedBy(x: tx, y: ty) }
    /// Scales user space (CGContextScaleCTM).
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { gstate.ctm = gstate.ctm.scaledBy(x: sx, y: sy) }
    /// Rotates user space by `angle` radians, counter-clockwise in Apple's y-up terms
    /// (CGContextRotateCTM).
    public func rotate(by angle: CGFloat) { gstate.ctm = gstate.ctm.rotated(by: angle) }
    /// Prepends `transform` to the CTM (CGContextConcatCTM): points are transformed by
    /// `transform`, then by the former CTM.
    public func concatenate(_ transform: CGAffineTransform) { gstate.ctm = transform.concatenating(gstate.ctm) }

    /// A point in user space → device space (CGContextConvertPointToDeviceSpace).
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(gstate.ctm) }
    /// A point in device space → user space (CGContextConvertPointToUserSpace). With a
    /// singular CTM the point is returned unchanged (`inverted()` returns the matrix then).
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(gstate.ctm.inverted()) }
    /// A size in user space → device space (CGContextConvertSizeToDeviceSpace).
    public func convertToDeviceSpace(_ size: CGSize) -> CGSize { size.applying(gstate.ctm) }
    /// A size in device space → user space (CGContextConvertSizeToUserSpace).
    public func convertToUserSpace(_ size: CGSize) -> CGSize { size.applying(gstate.ctm.inverted()) }
    /// The bounding box of a user-space rect in device space (CGContextConvertRectToDeviceSpace).
    public func convertToDeviceSpace(_ rect: CGRect) -> CGRect { rect.applying(gstate.ctm) }
    /// The bounding box of a device-space rect in user space (CGContextConvertRectToUserSpace).
    public func convertToUserSpace(_ rect: CGRect) -> CGRect { rect.applying(gstate.ctm.inverted()) }

    /// Device space (y up) → raster space (y down, row 0 at the top), what the rasteriser and
    /// the pixels use.
    package var deviceToRaster: CGAffineTransform {
        CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))
    }
}

/// Core Graphics' drawing context, as Apple's `CGContext`: a bitmap context that draws on the
/// CPU, and the type `CALayer.draw(in:)` receives.
///
/// What it does (docs/DRAWING.md has the full list, the clamps and what is not done yet):
/// - Bitmap contexts over caller memory or its own (`data: nil`), 8 bits per component:
///   RGB with premultiplied alpha first or last or a skipped alpha byte (any 32-bit byte order),
///   8-bit gray, and 8-bit alpha-only masks. Other combinations give nil, as Apple's
///   "unsupported parameter combination".
/// - Apple's coordinates: device space has its origin at the bottom left with y up, and row 0
///   of `data` is the top row of the image; the CTM starts as the identity.
/// - Graphics state (`saveGState`/`restoreGState`), the current path (stored in device space,
///   as Apple's: a point is transformed by the CTM when it is added), fills and strokes with
///   exact-area antialiasing (the same `CoverageRasterizer` as CAShapeLayer's), clipping as a
///   coverage mask, the 28 blend modes, gradients, images, transparency layers and shadows.
/// - Colours are composited as premultiplied sRGB values with the blend maths in `Float`.
///
/// Not thread-safe, as on Apple (a context belongs to one thread at a time).
public final class CGContext {
    // MARK: Bitmap

    /// Width of the bitmap, in pixels (CGBitmapContextGetWidth).
    public let width: Int
    /// Height of the bitmap, in pixels (CGBitmapContextGetHeight).
    public let height: Int
    /// Bytes from one row to the next (CGBitmapContextGetBytesPerRow).
    public let bytesPerRow: Int
    /// Always 8 (CGBitmapContextGetBitsPerComponent).
    public let bitsPerComponent: Int
    /// 32 for RGB layouts, 8 for gray and alpha-only (CGBitmapContextGetBitsPerPixel).
    public let bitsPerPixel: Int
    /// Alpha info and byte order as given at creation (CGBitmapContextGetBitmapInfo).
    public let bitmapInfo: CGBitmapInfo
    /// The colour space given at creation; nil for an alpha-only context, as Apple's
    /// (CGBitmapContextGetColorSpace).
    public let colorSpace: CGColorSpace?

    /// Where alpha sits (CGBitmapContextGetAlphaInfo).
    public var alphaInfo: CGImageAlphaInfo { bitmapInfo.alphaInfo ?? .none }

    /// The pixels (CGBitmapContextGetData): the caller's buffer, or the one this context
    /// allocated when created with `data: nil` (freed with the context, as Apple's).
    public var data: UnsafeMutableRawPointer? { bitmap.base }

    /// The context's own pixels.
    package let bitmap: BitmapSurface
    private let ownsBitmap: Bool

    // MARK: State

    /// The current graphics state (the top of Apple's state stack).
    package var gstate = GState()
    /// Saved states, oldest first (bounded: see `saveGState`).
    package var savedStates: [GState] = []
    /// `saveGState` calls beyond `maxSavedStates` that saved nothing, so that as many
    /// `restoreGState` calls are absorbed before the stored states are popped again.
    package var unsavedDepth = 0

    /// The current path, in device space (Apple's: CGContext transforms points by the CTM as
    /// they are added, so a later CTM change does not move the path).
    package var currentPath = CGMutablePath()
    /// An empty path object with storage, kept from the last painted path for the next one
    /// (`takeCurrentPath`): a path a fill made and freed an object and its element array.
    var sparePath: CGMutablePath?

    /// The text matrix and drawing mode (CGContext+Text.swift). Apple keeps the text matrix
    /// outside the graphics state (save/restore leave it alone); the drawing mode is kept here
    /// too, a documented simplification.
    package var textMatrixStorage = CGAffineTransform.identity
    package var textDrawingModeStorage = CGTextDrawingMode.fill

    /// The rasteriser solid fills reuse path after path (CGContext+SolidSpans.swift): left with
    /// every cell clear after each use, so a path costs its box's touched cells, not a fresh
    /// zeroed buffer.
    package var rasterScratch = CoverageRasterizer(width: 0, height: 0)

    /// Runs `body` on the scratch rasteriser moved out of the context (so it is uniquely
    /// referenced while written) and moves it back afterwards unless it grew past
    /// `maxScratchCells`, with its vertical runs no longer held. `body` must leave every cell
    /// clear. Swapped, not copied: a copy in and out retained and released its four arrays
    /// each path (2 % of a frame of small fills; issue 19).
    package func withScratchRasterizer<R>(_ body: (inout CoverageRasterizer) -> R) -> R {
        var rast = CoverageRasterizer(width: 0, height: 0)
        swap(&rast, &rasterScratch)
        defer {
            rast.holdsVerticalRunsAfterReset = false
            if rast.acc.count <= Self.maxScratchCells { swap(&rast, &rasterScratch) }
        }
        return body(&rast)
    }
    /// Whether the span loops (solid fills and strokes straight from the rasteriser's rows,
    /// gradients four pixels at a time) may run; false sends every pixel through the general
    /// loop they must agree with. For tests that compare the two.
    package var usesSpanLoops = true
    /// Whether the span loops may take `CPixelKernels`' eight-pixel AVX2 loops where the CPU has
    /// them (`PixelKernels.available`); false keeps them to their four-lane Swift loops, which
    /// give the same bytes. For tests that compare the two.
    package var usesWideKernels = true
    /// `usesWideKernels` where the CPU has AVX2.
    var widePixelLoops: Bool { usesWideKernels && PixelKernels.available }

    /// The flattened paths and raster polygons fills are built into (CGContext+Coverage.swift),
    /// reused fill after fill.
    var fillScratch = FillPolygons()
    /// The raster polygons strokes are built into (StrokeOutliner.swift), reused stroke after
    /// stroke so that their arrays stop growing.
    var strokeScratch = RasterPolygonSink()
    /// A translucent solid fill's 1,024-entry blend table (`SolidSpanWriter`), rewritten fill
    /// after fill.
    var solidTableScratch: [UInt8] = []
    /// The C stroker and its working arrays, made on the first stroke and kept (unless one huge
    /// stroke grew them past `maxScratchPoints`).
    var strokeOutliner: StrokeOutliner?
    var outliner: StrokeOutliner {
        if let o = strokeOutliner { return o }
        let o = StrokeOutliner()
        strokeOutliner = o
        return o
    }

    /// Open transparency layers, innermost last.
    package var layers: [TransparencyLayer] = []
    /// `beginTransparencyLayer` calls beyond `maxTransparencyLayers` that opened nothing.
    package var unopenedLayers = 0

    /// The surface drawing goes to: the innermost transparency layer, else the bitmap.
    package var target: BitmapSurface { layers.last?.surface ?? bitmap }

    /// Largest bitmap accepted, in bytes (`CGImage.maxByteCount`, 2 GiB): a bigger request —
    /// 100,000 × 100,000 pixels, a negative size read as unsigned — gives nil without
    /// allocating anything.
    package static let maxByteCount = CGImage.maxByteCount

    /// Apple's bitmap context initializer (CGBitmapContextCreate).
    ///
    /// - `data`: where to draw, at least `bytesPerRow * height` bytes, kept alive by the caller
    ///   for the context's life; nil lets the context allocate (zeroed) memory it frees itself.
    /// - `bytesPerRow`: 0 computes the tightest row (Apple's rule); otherwise at least
    ///   `width * bitsPerPixel / 8`.
    /// - `bitmapInfo`: a `CGImageAlphaInfo` raw value, or'ed with a `CGBitmapInfo` byte order.
    ///
    /// Returns nil, as Apple does, for a size that is not positive, a `bytesPerRow` too small for
    /// a row, more than 2 GiB of pixels, or a combination outside these:
    /// - RGB space, 8 bits per component: `.premultipliedLast`, `.premultipliedFirst`,
    ///   `.noneSkipLast`, `.noneSkipFirst`, byte order default, `.byteOrder32Big` or
    ///   `.byteOrder32Little` (e.g. `.premultipliedFirst | .byteOrder32Little` is B, G, R, A
    ///   bytes);
    /// - gray space, 8 bits per component: `.none`;
    /// - any space, 8 bits per component: `.alphaOnly` (a mask; `colorSpace` is then nil).
    /// Straight (non-premultiplied) alpha, 16-bit and float components are refused, as Apple
    /// refuses the first and this implementation does not have the others.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                 bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard width > 0, height > 0, bitsPerComponent == 8, bytesPerRow >= 0,
              !info.contains(.floatComponents),
              let alpha = info.alphaInfo, let order = info.byteOrder else { return nil }
        let layout: PixelLayout
        switch (alpha, space.model) {
        case (.alphaOnly, _):
            guard order == .orderDefault else { return nil }
            layout = .alpha8
        case (.none, .monochrome):
            guard order == .orderDefault else { return nil }
            layout = .gray8
        case (_, .rgb):
            guard order == .orderDefault || order == .order32Big || order == .order32Little,
                  let l = PixelLayout.rgba(alpha, littleEndian: order == .order32Little) else { return nil }
            layout = l
        default:
            return nil
        }
        let bpp = layout.bytesPerPixel
        let (minRow, o1) = width.multipliedReportingOverflow(by: bpp)
        guard !o1 else { return nil }
        let rowBytes = bytesPerRow == 0 ? minRow : bytesPerRow
        guard rowBytes >= minRow else { return nil }
        let (total, o2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !o2, total <= Self.maxByteCount else { return nil }

        let base: UnsafeMutableRawPointer
        if let data {
            base = data
            ownsBitmap = false
        } else {
            // Zeroed; a large bitmap on huge pages (BitmapMemory.swift, issue 19).
            guard let own = BitmapMemory.allocateZeroed(byteCount: total) else { return nil }
            base = own
            ownsBitmap = true
        }
        self.width = width
        self.height = height
        self.bytesPerRow = rowBytes
        self.bitsPerComponent = 8
        self.bitsPerPixel = bpp * 8
        self.bitmapInfo = info
        self.colorSpace = layout == .alpha8 ? nil : space
        bitmap = BitmapSurface(base: base, width: width, height: height, bytesPerRow: rowBytes, layout: layout)
    }

    /// A 1 × 1 premultiplied RGBA context: for the package's own tests of the current path.
    package convenience init() {
        self.init(data: nil, width: 1, height: 1, bitsPerComponent: 8, bytesPerRow: 0,
                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    }

    deinit {
        for layer in layers { layer.free() }
        if ownsBitmap { BitmapMemory.release(bitmap.base) }
    }

    /// An image of the bitmap as it is now (CGBitmapContextCreateImage): a copy, so later
    /// drawing does not change it (Apple: "subsequent changes … do not affect the contents of the
    /// returned image"). Stored as every `CGImage` here is, premultiplied RGBA8: gray becomes
    /// equal R, G, B; an alpha-only context gives black with its alpha (Apple would make an
    /// alpha-only image; `CGImage` here has no mask storage). Open transparency layers are not
    /// included (they are not yet part of the bitmap, on Apple either).
    public func makeImage() -> CGImage? {
        let bytes = bitmap.premultipliedRGBA8()
        return CGImage(width: width, height: height, premultipliedRGBA: bytes,
                       alphaInfo: bitmap.layout.hasAlpha ? .premultipliedLast : .noneSkipLast,
                       shouldInterpolate: true, intent: .defaultIntent)
    }

    /// Apple's `flush()`: drawing here is immediate, so there is nothing to flush.
    public func flush() {}

    /// Apple's `synchronize()`: drawing here is immediate, so there is nothing to do.
    public func synchronize() {}
}

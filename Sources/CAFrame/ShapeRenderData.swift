/// Render data of CAShapeLayer (issue 6): instances of the shape pipeline and the coverage
/// atlas they sample. Plain data, like the rest of `RenderFrame`.

/// One shape layer's fill and stroke: a quad over its raster in the coverage atlas, composited
/// in one fragment (stroke over fill, then the layer's opacity, then clips), so fill and stroke
/// never blend twice. Colours, opacity, trims and dashes are instance data: animating them
/// costs no raster.
package struct ShapeInstance: Sendable, Equatable {
    /// Raster texel (x, y, 1) → frame pixel (X, Y, W); `h0.w` opacity, `h1.w` clip index,
    /// `h2.w` unused.
    package var h0: SIMD4<Float>
    package var h1: SIMD4<Float>
    package var h2: SIMD4<Float>
    /// x, y: the raster's origin in its coverage page; z, w: its size in texels.
    package var region: SIMD4<Float>
    /// Premultiplied fill colour (the layer's opacity not applied).
    package var fill: SIMD4<Float>
    /// Premultiplied stroke colour (zero when the stroke is trimmed away).
    package var stroke: SIMD4<Float>
    /// x, y: with an exact (RGBA32F) field, the raster's origin in its field page; with a compact
    /// field, its decoding (arc length = encoded fraction × y + x, layer units). z, w: visible
    /// arc-length range (strokeStart, strokeEnd × path length, layer units; ±1e30 where the
    /// stroke is not cut).
    package var trim: SIMD4<Float>
    /// Up to four dash lengths (layer units), painted first.
    package var dash: SIMD4<Float>
    /// x: half line width in texels; y: texels per layer unit; z: cap (0 butt, 1 round,
    /// 2 square) + 4 × dash entries; w: dash phase (layer units).
    package var params: SIMD4<Float>


    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(h0: SIMD4<Float>, h1: SIMD4<Float>, h2: SIMD4<Float>, region: SIMD4<Float>, fill: SIMD4<Float>, stroke: SIMD4<Float>, trim: SIMD4<Float>, dash: SIMD4<Float>, params: SIMD4<Float>) {
        self.h0 = h0; self.h1 = h1; self.h2 = h2; self.region = region; self.fill = fill; self.stroke = stroke; self.trim = trim; self.dash = dash; self.params = params
    }
}

/// A texture of the shape atlas. `field` pages hold exact RGBA32F arc-length fields (paths too
/// long for the compact one), the others RGBA8 coverage (fill, stroke, and the compact field's
/// arc length; see `CompactArcLengthField`) plus, once an upload brings `aux` texels, an
/// auxiliary RGBA8 texture of the same size and layout. `id` is unique for the life of the
/// builder: a backend keeps one texture per id and frees those a frame no longer lists.
package struct ShapeAtlasPage: Sendable, Equatable {
    package var id: Int
    package var width: Int
    package var height: Int
    package var isField: Bool

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(id: Int, width: Int, height: Int, isField: Bool) {
        self.id = id; self.width = width; self.height = height; self.isField = isField
    }
}

/// New rasters to copy into atlas pages before drawing the frame (each written once, when
/// first rasterised; later frames reuse it).
package struct ShapeAtlasUpload: Sendable {
    /// Increases with every raster the builder makes: a backend applies each upload once, even
    /// when a frame is executed again (a patched frame keeps the last build's uploads).
    package var serial: Int
    package var page: Int
    package var x: Int, y: Int, width: Int, height: Int
    /// RGBA8 rows, top first (coverage pages).
    package var coverage: [UInt8]
    /// RGBA32F rows, top first (field pages).
    package var field: [Float]
    /// RGBA8 rows, top first, for the same rectangle of the coverage page's auxiliary texture
    /// (empty: none).
    package var aux: [UInt8]
    /// The coverage as runs instead of `coverage` (which is then empty): for the CPU backend,
    /// which draws from them (`ShapeCoverageSpans`).
    package var spans: ShapeCoverageSpans?

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(serial: Int, page: Int, x: Int, y: Int, width: Int, height: Int, coverage: [UInt8], field: [Float], aux: [UInt8],
                            spans: ShapeCoverageSpans? = nil) {
        self.serial = serial; self.page = page; self.x = x; self.y = y; self.width = width; self.height = height; self.coverage = coverage; self.field = field; self.aux = aux
        self.spans = spans
    }

    /// The RGBA8 coverage rows, expanded from `spans` where the upload carries runs.
    package var denseCoverage: [UInt8] { spans?.denseCoverage() ?? coverage }
}

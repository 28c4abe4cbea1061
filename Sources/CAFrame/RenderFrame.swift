import CoreGraphics

/// One frame, ready for a backend: instance arrays per pipeline, the clip table, the images it
/// samples, and the passes in the order they must run (offscreen groups before the passes
/// that composite them). Plain data: the backend never sees a layer, and `description` dumps
/// it as text for tests and debugging.
package struct RenderFrame: Sendable {
    package var width: Int
    package var height: Int
    /// Premultiplied clear colour of the main target.
    package var clearColor: SIMD4<Float> = .zero
    package var boxes: [BoxInstance] = []
    package var images: [ImageInstance] = []
    package var composites: [CompositeInstance] = []
    package var gradients: [GradientInstance] = []
    /// `GradientInstance.rampWidth` texels per row: colour ramps of the gradient layers of this
    /// frame (premultiplied RGBA, 32-bit float so the shader can dither between 8-bit levels).
    package var gradientRamps: [Float] = []
    package var clips: [ClipShape] = [ClipShape.none]
    package var textures: [CGImage] = []
    /// Images of earlier frames that no later frame will use (image-atlas pages a newer
    /// version replaced): a backend that caches textures by image drops theirs now rather than
    /// at its own eviction (issue 17 item 7: a renderer meeting one new small image per frame
    /// held hundreds of 4 MiB page versions).
    package var retiredTextures: [CGImage] = []
    package var targets: [OffscreenTarget] = []
    /// CAShapeLayer fills and strokes (issue 6), the atlas pages they sample and the rasters
    /// new in this frame (`Shapes/ShapeRenderData.swift`).
    package var shapes: [ShapeInstance] = []
    package var shapePages: [ShapeAtlasPage] = []
    package var shapeUploads: [ShapeAtlasUpload] = []
    package var passes: [RenderPass] = []
    /// The 3D planes of opaque `CATransformLayer` sublayers drawn through the depth buffer
    /// (issue 21), indexed by `Batch.depthPlane`.
    package var depthPlanes: [DepthPlane] = []
    /// Instanced copies of batches whose `replica` is ≥ 0, and the rows their levels index.
    package var replicaDraws: [ReplicaDraw] = []
    package var replicaRows: [ReplicaRow] = []
    /// Emission runs of `CAEmitterLayer` cells evaluated by the backend (`ParticleRunInstance`).
    package var particleRuns: [ParticleRunInstance] = []

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package var gradientRampRows: Int { gradientRamps.count / (GradientInstance.rampWidth * 4) }
}

/// Where a pass draws: the frame's own target, or an offscreen texture covering `rect`
/// (pixel coordinates of the frame) that a later pass samples.
package enum TargetID: Hashable, Sendable, CustomStringConvertible {
    case main
    case offscreen(Int)

    package var description: String {
        switch self {
        case .main: return "main"
        case .offscreen(let i): return "off\(i)"
        }
    }
}

/// An offscreen texture of the frame covering x, y, width, height in frame pixels (integral).
/// `downscale` > 1 makes its texture that many times smaller on each side than the area it
/// covers (a large shadow blur runs at reduced resolution); drawing into it is still
/// addressed in frame pixels.
package struct OffscreenTarget: Sendable, Equatable {
    package var x: Int, y: Int, width: Int, height: Int
    package var downscale: Int = 1
    /// A rasterised layer's target (`shouldRasterize`): non-zero names the layer, and a backend
    /// may keep the texture and skip drawing it again while `contentHash` stays the same. 0 for
    /// a target drawn afresh each frame.
    package var cacheKey: UInt64 = 0
    package var contentHash: Int = 0
    /// The rasterised target this one is drawn for (a mask or shadow inside a rasterised
    /// subtree), −1 for none: while that target is reused, this one's passes need not run.
    package var rasterOwner: Int = -1

    /// Texture size in texels.
    package var textureWidth: Int { (width + downscale - 1) / max(downscale, 1) }
    package var textureHeight: Int { (height + downscale - 1) / max(downscale, 1) }

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(x: Int, y: Int, width: Int, height: Int, downscale: Int = 1) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.downscale = downscale
    }
}

package struct RenderPass: Sendable {
    package enum Kind: Sendable {
        /// Clear the target to transparent (offscreen) or the frame's clear colour (main),
        /// then draw the batches in order.
        case draw([Batch])
        /// Separable Gaussian blur of `source` into the pass target, along x or y. Sigma in
        /// texels of the target (source and target have the same size and downscale).
        case blur(source: TargetID, sigma: Float, horizontal: Bool)
        /// One step of a filter chain (`FilterPass.swift`): reads `source` (and what the step
        /// names), writes every texel of the pass target, which covers the same pixels.
        case filter(source: TargetID, FilterOp)
        /// Copies the pixels of `source` under the pass target's rectangle into it (the backdrop
        /// a compositing filter or background filter reads).
        case copy(source: TargetID)
    }
    package var target: TargetID
    package var kind: Kind
    /// A `.draw` pass clears its target first; false continues a target an earlier pass drew
    /// (a pass split where a compositing or background filter copied what was drawn so far).
    package var clears = true

    package init(target: TargetID, kind: Kind, clears: Bool = true) {
        self.target = target
        self.kind = kind
        self.clears = clears
    }
}

/// A run of instances of one pipeline that one instanced draw renders.
package struct Batch: Sendable, Equatable {
    package enum Pipeline: Hashable, Sendable {
        case box
        /// `texture` indexes `RenderFrame.textures`.
        case image(texture: Int, filter: TextureFilter)
        /// Samples offscreen `source`; `mask` multiplies by another target's alpha.
        case composite(source: TargetID, mask: TargetID?)
        case gradient
        /// Shape layers: `page` and `fieldPage` index `RenderFrame.shapePages` (`fieldPage` −1:
        /// no exact field; a compact field lives in `page` and its auxiliary texture).
        case shape(page: Int, fieldPage: Int)
        /// One emission run (`ParticleRunInstance`, the batch's one-record range) drawn as
        /// `count` particle quads sampling `texture` (an index into `RenderFrame.textures`).
        case particles(texture: Int, count: Int)
    }
    package var pipeline: Pipeline
    /// Which optional shader features the batch's instances use (`ShaderVariant` bits): the
    /// backend compiles one program per pipeline and variant, so instances that need less pay
    /// for less (software rasterisers execute every branch of a shader).
    package var variant: ShaderVariant = []
    package var range: Range<Int>
    /// Index in `RenderFrame.depthPlanes` for a batch of one opaque `CATransformLayer` plane
    /// drawn through the depth buffer (`ShaderVariant.planeDepth`), −1 otherwise.
    package var depthPlane: Int32 = -1
    /// Index in `RenderFrame.replicaDraws` for a batch of one instance drawn as a replicator's
    /// copies on the GPU (`ShaderVariant.replicated`), −1 otherwise.
    package var replica: Int32 = -1

    package init(pipeline: Pipeline, variant: ShaderVariant = [], range: Range<Int>) {
        self.pipeline = pipeline
        self.variant = variant
        self.range = range
    }
}

/// Optional features of a shader program, each a `#define` in the GLSL (see common.glsl).
package struct ShaderVariant: OptionSet, Hashable, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package static let clip = ShaderVariant(rawValue: 1)
    package static let continuous = ShaderVariant(rawValue: 2)
    package static let edgeMask = ShaderVariant(rawValue: 4)
    package static let border = ShaderVariant(rawValue: 8)
    package static let blur = ShaderVariant(rawValue: 16)
    package static let radial = ShaderVariant(rawValue: 32)
    package static let conic = ShaderVariant(rawValue: 64)
    package static let mask = ShaderVariant(rawValue: 128)
    /// The plane is not a similarity of the target (skew, non-uniform scale, perspective):
    /// coverage takes per-pixel derivatives.
    package static let projective = ShaderVariant(rawValue: 256)
    /// Shape instances that read the compact arc-length field (trims, dashes) from their
    /// coverage texel.
    package static let shapeField = ShaderVariant(rawValue: 512)
    /// Shape instances whose stroke is dashed on the GPU (with the compact field, the arc length
    /// from the subpath start comes from the auxiliary texel).
    package static let shapeDash = ShaderVariant(rawValue: 1024)
    /// Shape instances that read the exact RGBA32F field (paths too long for the compact one,
    /// perspective).
    package static let shapeWideField = ShaderVariant(rawValue: 2048)
    /// Shape instances with trims or dashes and round caps (with the compact field, the distance
    /// from the centreline comes from the auxiliary texel).
    package static let shapeRoundCap = ShaderVariant(rawValue: 4096)
    /// Shape instances whose raster serves a range of line widths (an animated `lineWidth`):
    /// the stroke is the texels within half the current width of the centreline, from the exact
    /// field, with the caps drawn at the path's own ends (`ShapeRasterizer`, "width-free").
    package static let shapeWidthField = ShaderVariant(rawValue: 8192)
    /// The main pass's depth pre-pass: opaque box interiors writing depth only.
    package static let depthPrepass = ShaderVariant(rawValue: 16384)
    /// Additive blending (GL ONE, ONE) instead of premultiplied source-over: a
    /// `CAEmitterLayer` whose `renderMode` is `additive`. Backend state, not shader code; its
    /// define only keeps the programs apart.
    package static let additive = ShaderVariant(rawValue: 32768)
    /// Replacing blending (GL ONE, ZERO): a composite whose source already holds the final
    /// pixels, backdrop included (compositing and background filters, `FilterOp`). Backend
    /// state, not shader code.
    package static let replace = ShaderVariant(rawValue: 65536)
    /// Every instance of the batch samples its image with the linear filter both minified and
    /// magnified (particles of cells with the default filters): the image shader compiles that
    /// one sampling path, without the derivatives and the other filters' samples (a software
    /// rasteriser runs every side of a branch). The same pixels as without it.
    package static let linearFilters = ShaderVariant(rawValue: 131072)
    /// Image instances that are plain particles (`ParticleEmitter`): square quads whose shape is
    /// their rect, every edge antialiased, linear filters, a similarity transform. The image
    /// shader's particle path hands on fewer varyings and grows the quad by less (issue 21's
    /// particle floor); the same pixels as without it. Only with `linearFilters` and neither
    /// `projective`, `edgeMask` nor `continuous`.
    package static let particle = ShaderVariant(rawValue: 262144)
    /// A box batch of one opaque plane of a `CATransformLayer` whose planes intersect
    /// (`DepthPlane`): its depth comes from its 3D plane instead of its paint order, so where
    /// two such planes cross, the depth buffer shows each in front on its own side.
    package static let planeDepth = ShaderVariant(rawValue: 524288)
    /// A box batch of one instance drawn as a replicator's copies (`Batch.replica`,
    /// `ReplicaDraw`): the vertex shader composes the copy's pixel maps and tints.
    package static let replicated = ShaderVariant(rawValue: 1_048_576)

    /// The GLSL defines of this variant.
    package var defines: [String] {
        var d: [String] = []
        if contains(.clip) { d.append("CA_CLIP") }
        if contains(.continuous) { d.append("CA_CONTINUOUS") }
        if contains(.edgeMask) { d.append("CA_EDGE_MASK") }
        if contains(.border) { d.append("CA_BORDER") }
        if contains(.blur) { d.append("CA_BLUR") }
        if contains(.radial) { d.append("CA_RADIAL") }
        if contains(.conic) { d.append("CA_CONIC") }
        if contains(.mask) { d.append("CA_MASK") }
        if contains(.projective) { d.append("CA_PROJECTIVE") }
        if contains(.shapeField) { d.append("CA_SHAPE_FIELD") }
        if contains(.shapeDash) { d.append("CA_SHAPE_DASH") }
        if contains(.shapeRoundCap) { d.append("CA_SHAPE_ROUND_CAP") }
        if contains(.shapeWideField) { d.append("CA_SHAPE_WIDE_FIELD") }
        if contains(.shapeWidthField) { d.append("CA_SHAPE_WIDTH_FIELD") }
        if contains(.depthPrepass) { d.append("CA_DEPTH_PREPASS") }
        if contains(.additive) { d.append("CA_ADDITIVE") }
        if contains(.replace) { d.append("CA_REPLACE") }
        if contains(.linearFilters) { d.append("CA_LINEAR_FILTERS") }
        if contains(.particle) { d.append("CA_PARTICLE") }
        if contains(.planeDepth) { d.append("CA_PLANE_DEPTH") }
        if contains(.replicated) { d.append("CA_REPLICATED") }
        return d
    }

    /// The variant bits that the shared flags of an instance (`h1.w` clip index, `h2.w` flags)
    /// call for.
    @inlinable package static func of(clip: Float, flags: Float, h0: SIMD4<Float>, h1: SIMD4<Float>, h2: SIMD4<Float>) -> ShaderVariant {
        var v: ShaderVariant = []
        // Similarity: no perspective row, and the linear part is a rotation × uniform scale
        // (or its mirror). Relative tolerance, as the values come from Float matrices.
        let a = h0.x, b = h0.y, c = h1.x, d = h1.y
        let tol = 1e-4 * max(abs(a) + abs(b) + abs(c) + abs(d), 1e-12)
        let similar = (abs(a - d) <= tol && abs(b + c) <= tol) || (abs(a + d) <= tol && abs(b - c) <= tol)
        if h0.z != 0 || h1.z != 0 || !similar { v.insert(.projective) }
        if clip != 0 { v.insert(.clip) }
        let f = UInt32(flags)
        if f & InstanceFlags.edgeMask != InstanceFlags.edgeMask { v.insert(.edgeMask) }
        if f & InstanceFlags.continuousCorners != 0 { v.insert(.continuous) }
        return v
    }
}

package enum TextureFilter: Hashable, Sendable {
    case linear, nearest, trilinear
}

/// A rounded rectangle that coverage is multiplied by: `inverse` maps frame pixels back to
/// the clipping layer's plane, where `rect` and `radii` are (docs/BEHAVIOUR.md N5b: masksToBounds with
/// a cornerRadius cuts sublayers to the rounded shape). Index 0 of the table is "no clip".
package struct ClipShape: Sendable, Equatable {
    package var inverse: Homography
    package var rect: SIMD4<Float>
    package var radii: SIMD4<Float>
    package var continuous: Bool

    package static let none = ClipShape(inverse: .identity, rect: SIMD4(-1e9, -1e9, 2e9, 2e9), radii: .zero, continuous: false)

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(inverse: Homography, rect: SIMD4<Float>, radii: SIMD4<Float>, continuous: Bool) {
        self.inverse = inverse; self.rect = rect; self.radii = radii; self.continuous = continuous
    }
}

/// Instance data of the box pipeline: a layer's background and border as one rounded rectangle
/// with analytic coverage. `h0…h2` are the plane-to-pixel map; their w components carry the
/// painter's depth, the clip index and flags (AA edge mask bits 0–3, continuous corners bit 4,
/// 32 = fill only, 64 = border only).
package struct BoxInstance: Sendable, Equatable {
    package var h0: SIMD4<Float>
    package var h1: SIMD4<Float>
    package var h2: SIMD4<Float>
    /// x, y, width, height in the layer's plane.
    package var rect: SIMD4<Float>
    /// minXminY, maxXminY, maxXmaxY, minXmaxY corner radii. For a blurred box (`params.y` >
    /// 0) x and y are instead the half-axes of its four elliptical corners.
    package var radii: SIMD4<Float>
    /// Premultiplied fill colour, opacity applied.
    package var fill: SIMD4<Float>
    /// Premultiplied border colour, opacity applied.
    package var border: SIMD4<Float>
    /// x: border width; y: Gaussian blur sigma in plane units (0 = sharp; shadows of a
    /// `shadowPath` rectangle, rounded rectangle or ellipse use it, kernel cut at 2.5σ);
    /// z: the opacity a background-and-border box fades as one group (0: background and border
    /// fade separately); w: unused.
    package var params: SIMD4<Float>


    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(h0: SIMD4<Float>, h1: SIMD4<Float>, h2: SIMD4<Float>, rect: SIMD4<Float>, radii: SIMD4<Float>, fill: SIMD4<Float>, border: SIMD4<Float>, params: SIMD4<Float>) {
        self.h0 = h0; self.h1 = h1; self.h2 = h2; self.rect = rect; self.radii = radii; self.fill = fill; self.border = border; self.params = params
    }
}

/// Instance data of the image pipeline: a textured quad (`rect` on the layer's plane, sampled
/// at `uv`), cut to the layer's rounded bounds when `masksToBounds` (`shape`, `shapeRadii`).
/// Flags in `h2.w`: AA edge mask bits 0–3, continuous corners 16, minification filter bits 5–6
/// and magnification filter bits 7–8 (0 linear, 1 nearest, 2 trilinear), chosen per pixel.
package struct ImageInstance: Sendable, Equatable {
    package var h0: SIMD4<Float>
    package var h1: SIMD4<Float>
    package var h2: SIMD4<Float>
    package var rect: SIMD4<Float>
    /// u0, v0, u1, v1 (v down, texture row 0 = image top).
    package var uv: SIMD4<Float>
    /// Premultiplied multiplier (opacity in all four channels).
    package var tint: SIMD4<Float>
    package var shape: SIMD4<Float>
    package var shapeRadii: SIMD4<Float>
    /// Where the image lies in the bound texture: origin xy and size zw in texture coordinates.
    /// (0, 0, 1, 1) for an image with a texture of its own; a part of a page for an image in the
    /// atlas (`ImageAtlas`). `uv` stays in the image's own space, so clamping to its edges
    /// and nearest sampling work on the image, not the page.
    package var atlas: SIMD4<Float> = SIMD4(0, 0, 1, 1)

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(h0: SIMD4<Float>, h1: SIMD4<Float>, h2: SIMD4<Float>, rect: SIMD4<Float>, uv: SIMD4<Float>, tint: SIMD4<Float>, shape: SIMD4<Float>, shapeRadii: SIMD4<Float>, atlas: SIMD4<Float> = SIMD4(0, 0, 1, 1)) {
        self.h0 = h0; self.h1 = h1; self.h2 = h2; self.rect = rect; self.uv = uv; self.tint = tint; self.shape = shape; self.shapeRadii = shapeRadii; self.atlas = atlas
    }
}

/// Instance data of the composite pipeline: an offscreen result placed on its parent target as
/// a pixel-aligned quad. `mode` 0 multiplies the source by `color.a`; mode 1 paints `color`
/// with the source's alpha (shadows); mode 2 mixes the batch's mask target (weight 1 − `color.a`)
/// with its source (weight `color.a`), premultiplied (CATransition fade).
package struct CompositeInstance: Sendable, Equatable {
    /// Destination rectangle in frame pixels.
    package var dst: SIMD4<Float>
    /// Source rectangle in frame pixels (the source target's own rect, possibly offset).
    package var src: SIMD4<Float>
    /// Premultiplied colour: opacity, or the shadow's colour × shadowOpacity.
    package var color: SIMD4<Float>
    /// x: painter's depth, y: clip index, z: mode, w: unused.
    package var params: SIMD4<Float>

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(dst: SIMD4<Float>, src: SIMD4<Float>, color: SIMD4<Float>, params: SIMD4<Float>) {
        self.dst = dst; self.src = src; self.color = color; self.params = params
    }
}

/// Instance data of the gradient pipeline (CAGradientLayer): the layer's plane, its rounded
/// bounds, the gradient's start and end points in the plane, and the ramp row it samples.
package struct GradientInstance: Sendable, Equatable {
    /// Texels per ramp row: enough that a hard stop (two equal locations) stays within about
    /// one pixel on a layer up to ~1000 px long.
    package static let rampWidth = 1024
    package var h0: SIMD4<Float>
    package var h1: SIMD4<Float>
    package var h2: SIMD4<Float>
    package var rect: SIMD4<Float>
    package var radii: SIMD4<Float>
    /// start.x, start.y, end.x, end.y in the plane.
    package var points: SIMD4<Float>
    /// x: kind (0 axial, 1 radial, 2 conic), y: ramp row, z: opacity, w: unused.
    package var params: SIMD4<Float>

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(h0: SIMD4<Float>, h1: SIMD4<Float>, h2: SIMD4<Float>, rect: SIMD4<Float>, radii: SIMD4<Float>, points: SIMD4<Float>, params: SIMD4<Float>) {
        self.h0 = h0; self.h1 = h1; self.h2 = h2; self.rect = rect; self.radii = radii; self.points = points; self.params = params
    }
}

import CoreGraphics
import CoreAnimation
import CAFrame

/// One kind of content a layer paints besides its own background and border, in a room of its
/// own (issue 16): a gradient, a `contents` image, a shape's path — and the kinds that come
/// next. The walk (`RenderTreeBuilder`) decides whether and where a layer draws; an emitter
/// only says how its kind becomes instances, through the `FrameWriter`.
///
/// Emitters take the layer's render copy, not its `LayerState`: they read the fields they need
/// from `copy.state` in place. (Through a protocol call a state passed alongside the layer that
/// holds it is copied first, retaining every reference it holds: twice per layer and frame
/// once the walk asked each emitter, +67 % instructions for the 10,000-rect build, callgrind.)
///
/// The walk asks every emitter in `RenderTreeBuilder.contentEmitters`, in that order, which is
/// Core Animation's compositing order for a layer's own content: background first, then the
/// content ("contents … composited above the background", CALayer `contents`), then the
/// sublayers, then the border (CALayer `borderWidth`: "composited above the receiver's contents
/// and sublayers"). The decisions that depend on what a layer paints — whether it is a plain box
/// leaf a patch may re-emit alone, whether group opacity must isolate it, whether it casts a
/// shadow, how far its paint reaches — ask these methods, never a layer class by name.
protocol ContentEmitter: AnyObject {
    /// Whether a layer like this one can paint this kind of content (by its class, or by the
    /// kind of its `contents`), now or after an animation changes its values: such a layer is
    /// never recorded as a plain box leaf, and counts as a piece for group opacity.
    func claims(_ copy: CALayer) -> Bool
    /// What `claims` depends on, so the walk can answer without asking (`ContentClaims`).
    var claimRule: ContentClaimRule { get }
    /// Whether it paints something now: a layer that paints nothing casts no shadow
    /// (docs/BEHAVIOUR.md N1).
    func paints(_ copy: CALayer) -> Bool
    /// Appends this kind's instances for a layer (that `claims` it) into the current pass.
    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter)
    /// Pixel bounds of paint that may lie outside the layer's bounds (a stroke, a path that
    /// leaves them); nil when it stays inside. Sizes offscreen targets.
    func overhang(_ copy: CALayer, h: Homography) -> CGRect?
    /// Called when a whole frame starts, before the walk.
    func beginFrame(_ out: FrameWriter)
    /// Called when the walk of a whole frame (or a patch that re-emitted content) has ended:
    /// attach what the frame needs beyond its instances (atlas pages, uploads).
    func finishFrame(_ out: FrameWriter)
}

extension ContentEmitter {
    func paints(_ copy: CALayer) -> Bool { claims(copy) }
    var claimRule: ContentClaimRule { .asked }
    func overhang(_ copy: CALayer, h: Homography) -> CGRect? { nil }
    func beginFrame(_ out: FrameWriter) {}
    func finishFrame(_ out: FrameWriter) {}
}

/// What an emitter's `claims` depends on.
enum ContentClaimRule {
    /// The layer's class alone: answered once per class.
    case byClass
    /// Exactly the layers whose `contents` is set.
    case byContents
    /// Anything: asked for every layer.
    case asked
}

/// Where and how a layer's content is drawn this frame: what the walk resolved for it.
struct DrawSite {
    /// The layer's plane → frame pixels.
    var h: Homography
    /// Corner radii of the layer's bounds (clamped and masked), for content cut by them.
    var radii: SIMD4<Float>
    /// Index into the frame's clip table.
    var clip: Int32
    /// The opacity content multiplies by (1 inside an isolated group: the composite fades it).
    var opacity: Float
    /// An odd number of `isGeometryFlipped` ancestors turned this layer's plane upside down:
    /// contents are mirrored back to stay upright (`ContentsLayout`).
    var planeMirrored: Bool
    /// How a point's local z moves it in pixels (the layer's world matrix's third row, m31,
    /// m32, m34, which the plane homography `h` leaves out): content that keeps depth (an
    /// emitter that `preservesDepth`) adds z × this to its plane's translation row.
    var zRow: SIMD3<Double> = .zero
}

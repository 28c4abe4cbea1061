/// A kind of instance data: the per-instance vertex attributes of one pipeline. The struct is
/// the declaration (its stored properties, all `SIMD4<Float>`, are the attributes in location
/// order: `InstanceLayout.of`), and conforming says where a frame keeps such instances and where
/// each one names its clip. Everything that handles instances of every kind — a builder
/// moving a re-emitted subtree's instances into place, the frame's validation, a backend's
/// streams — loops over `RenderFrame.instanceKinds` instead of naming kinds one by one.
package protocol InstanceKind: Sendable {
    /// The vertex attributes, read from the struct itself.
    static var layout: InstanceLayout { get }
    /// Where a frame keeps this kind's instances.
    static var instances: WritableKeyPath<RenderFrame, [Self]> { get }
    /// The instance's index into the frame's clip table (0: no clip).
    var clipIndex: Float { get set }
    /// Requirements (with the default implementations below) rather than extension methods
    /// only: the witness of each kind is then specialised for it, where a call through the
    /// kind's metatype to a generic method copied every instance through value witnesses.
    static func moveBack(in frame: inout RenderFrame, from: Int, to: Int, clipsFrom: Float, by: Float)
    static func truncate(in frame: inout RenderFrame, to count: Int)
}

extension InstanceKind {
    /// Moves this kind's instances `frame[from...]` to `frame[to...]` (shifting clip indices at
    /// or above `clipsFrom` by `by`) and drops them from the end: how a builder puts a re-emitted
    /// subtree's instances back in place. A static member, so each kind's copy is specialised
    /// (called through the kind's metatype, a generic function over the kinds ran unspecialised,
    /// its key paths resolved at run time: +50 % instructions for image-layer patches, callgrind).
    @inline(__always)
    package static func moveBack(in frame: inout RenderFrame, from: Int, to: Int, clipsFrom: Float, by: Float) {
        // One key-path access for the whole move.
        moveBack(&frame[keyPath: instances], from: from, to: to, clipsFrom: clipsFrom, by: by)
    }

    @inline(__always)
    static func moveBack(_ a: inout [Self], from: Int, to: Int, clipsFrom: Float, by: Float) {
        let n = a.count - from
        guard n > 0 else { return }
        a.withUnsafeMutableBufferPointer { p in
            for i in 0..<n {
                var v = p[from + i]
                if v.clipIndex >= clipsFrom { v.clipIndex += by }
                p[to + i] = v
            }
        }
        a.removeLast(n)
    }

    /// Drops this kind's instances past the first `count`.
    @inline(__always)
    package static func truncate(in frame: inout RenderFrame, to count: Int) {
        let n = frame[keyPath: instances].count
        if n > count { frame[keyPath: instances].removeLast(n - count) }
    }
}

extension RenderFrame {
    /// Every kind of instance a frame holds. A new kind of drawable content with a pipeline of
    /// its own adds its instance struct here, next to its array and its `Batch.Pipeline` case
    /// (docs/ARCHITECTURE.md "Adding a drawable kind").
    package static let instanceKinds: [any InstanceKind.Type] = [
        BoxInstance.self, ImageInstance.self, CompositeInstance.self, GradientInstance.self, ShapeInstance.self,
        ParticleRunInstance.self,
    ]

    /// How many instances of `kind` the frame holds.
    package func count<K: InstanceKind>(of kind: K.Type) -> Int { self[keyPath: K.instances].count }

    /// Instances of every kind, lane k for `instanceKinds[k]` (lanes past the last kind are 0).
    /// Written out rather than looped over the kinds: a builder reads it for every layer it
    /// records, where a loop of key-path reads costs more than the counts themselves
    /// (`InstanceKindTests` checks it against `count(of:)` for every kind).
    @inline(__always) package var instanceCounts: SIMD8<Int> {
        SIMD8(boxes.count, images.count, composites.count, gradients.count, shapes.count, particleRuns.count, 0, 0)
    }

    /// The lane of `kind` in `instanceCounts`.
    package static func lane(of kind: any InstanceKind.Type) -> Int {
        instanceKinds.firstIndex { ObjectIdentifier($0) == ObjectIdentifier(kind) }!
    }
}

extension Batch.Pipeline {
    /// The kind of instance the pipeline draws.
    package var kind: any InstanceKind.Type {
        switch self {
        case .box: return BoxInstance.self
        case .image: return ImageInstance.self
        case .composite: return CompositeInstance.self
        case .gradient: return GradientInstance.self
        case .shape: return ShapeInstance.self
        case .particles: return ParticleRunInstance.self
        }
    }
}

extension BoxInstance: InstanceKind {
    package static let layout = InstanceLayout.of(
        BoxInstance(h0: .zero, h1: .zero, h2: .zero, rect: .zero, radii: .zero, fill: .zero, border: .zero, params: .zero),
        shader: "box")
    package static var instances: WritableKeyPath<RenderFrame, [BoxInstance]> { \.boxes }
    package var clipIndex: Float { get { h1.w } set { h1.w = newValue } }
}

extension ImageInstance: InstanceKind {
    package static let layout = InstanceLayout.of(
        ImageInstance(h0: .zero, h1: .zero, h2: .zero, rect: .zero, uv: .zero, tint: .zero, shape: .zero, shapeRadii: .zero),
        shader: "image")
    package static var instances: WritableKeyPath<RenderFrame, [ImageInstance]> { \.images }
    package var clipIndex: Float { get { h1.w } set { h1.w = newValue } }
}

extension CompositeInstance: InstanceKind {
    package static let layout = InstanceLayout.of(CompositeInstance(dst: .zero, src: .zero, color: .zero, params: .zero),
                                                  shader: "composite")
    package static var instances: WritableKeyPath<RenderFrame, [CompositeInstance]> { \.composites }
    package var clipIndex: Float { get { params.y } set { params.y = newValue } }
}

extension GradientInstance: InstanceKind {
    package static let layout = InstanceLayout.of(
        GradientInstance(h0: .zero, h1: .zero, h2: .zero, rect: .zero, radii: .zero, points: .zero, params: .zero),
        shader: "gradient")
    package static var instances: WritableKeyPath<RenderFrame, [GradientInstance]> { \.gradients }
    package var clipIndex: Float { get { h1.w } set { h1.w = newValue } }
}

extension ShapeInstance: InstanceKind {
    package static let layout = InstanceLayout.of(
        ShapeInstance(h0: .zero, h1: .zero, h2: .zero, region: .zero, fill: .zero, stroke: .zero, trim: .zero, dash: .zero,
                      params: .zero),
        shader: "shape")
    package static var instances: WritableKeyPath<RenderFrame, [ShapeInstance]> { \.shapes }
    package var clipIndex: Float { get { h1.w } set { h1.w = newValue } }
}

/// The instance layouts of the pipelines, declared once (by each `InstanceKind`): each instance struct's stored
/// properties, in declaration order, are its vertex attributes — property `k` is the
/// `vec4 i_<name>` at `layout(location = k)` of the pipeline's vertex shader. The backend
/// sizes and binds its streams from these layouts, and `InstanceLayoutTests` reads the GLSL and
/// fails when a shader's attributes drift from them.
package struct InstanceLayout: Sendable, Equatable {
    /// The pipeline's shader stem (`box` for Shaders/box.vert and box.frag).
    package let shader: String
    /// Attribute names in location order (the Swift property names).
    package let attributes: [String]
    /// Bytes per instance: 16 per vec4 attribute.
    package let stride: Int

    package var vec4Count: Int { attributes.count }

    /// The layout of instance type `T` (all of whose stored properties are `SIMD4<Float>`),
    /// read from a sample value by reflection, so the struct is the only declaration.
    package static func of<T>(_ sample: T, shader: String) -> InstanceLayout {
        let names = Mirror(reflecting: sample).children.map { $0.label ?? "?" }
        precondition(MemoryLayout<T>.stride == names.count * 16, "\(T.self): every field must be one SIMD4<Float>")
        return InstanceLayout(shader: shader, attributes: names, stride: MemoryLayout<T>.stride)
    }

    /// The layout of each kind (`InstanceKind.layout`), in `RenderFrame.instanceKinds` order.
    package static let all: [InstanceLayout] = RenderFrame.instanceKinds.map { $0.layout }

    /// The most attributes any pipeline binds (a backend disables the rest between pipelines).
    package static let maxVec4Count = all.map(\.vec4Count).max() ?? 0
}

/// The flag bits the box, image and gradient pipelines carry in `h2.w`, declared once: the
/// builder sets them from these constants, and the backend hands the same constants to every
/// shader as `#define`s (`glslDefinitions`), so GLSL reads them by name, never by number.
package enum InstanceFlags {
    /// Which edges are antialiased (`CAEdgeAntialiasingMask`'s four bits).
    package static let edgeMask: UInt32 = 0b1111
    /// Continuous (squircle-like) corners, `cornerCurve == .continuous`.
    package static let continuousCorners: UInt32 = 1 << 4
    /// A box that paints only its background (its border is another instance).
    package static let fillOnly: UInt32 = 1 << 5
    /// A box that paints only its border.
    package static let borderOnly: UInt32 = 1 << 6
    /// Image pipeline: the minification and magnification filters, two bits each at these
    /// shifts (0 linear, 1 nearest, 2 trilinear).
    package static let minificationFilterShift: UInt32 = 5
    package static let magnificationFilterShift: UInt32 = 7
    package static let filterMask: UInt32 = 0b11

    /// The constants as GLSL `#define`s, spliced into every shader ahead of its source.
    package static let glslDefinitions: String = [
        ("CA_FLAG_EDGE_MASK", edgeMask), ("CA_FLAG_CONTINUOUS", continuousCorners),
        ("CA_FLAG_FILL_ONLY", fillOnly), ("CA_FLAG_BORDER_ONLY", borderOnly),
        ("CA_FLAG_MIN_FILTER_SHIFT", minificationFilterShift), ("CA_FLAG_MAG_FILTER_SHIFT", magnificationFilterShift),
        ("CA_FLAG_FILTER_MASK", filterMask),
    ].map { "#define \($0.0) \($0.1)\n" }.joined()
}

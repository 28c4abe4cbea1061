/// Instance data of the particle pipeline (Shaders/particle.vert with the image fragment
/// shader's particle path): ONE record per emission run of a `CAEmitterLayer` cell
/// (`EmitterRun`), from which the vertex shader computes each particle the CPU simulation
/// would have made (`EmitterSimulation.born`): position, scale, angle and colour from the
/// particle's key, its age and the cell's values (issue 21: per frame the upload is O(runs),
/// not O(particles)). The batch's `Batch.Pipeline.particles(texture:count:)` carries how many
/// particles (quads) the run draws; the backend binds the record with an attribute divisor of
/// at least that count, so every particle of the draw reads the one record. Instance
/// attributes rather than a texture buffer: the record is 16 vec4s (GL 3.3's guaranteed
/// attribute count), the stream code and the layout check (`InstanceLayoutTests`) are the
/// other kinds', and no buffer texture or its sampler is needed.
///
/// Everything is a float; the 64-bit key travels as four 16-bit limbs (exact in a float, so
/// no NaN bit patterns pass through the attribute path).
package struct ParticleRunInstance: Sendable, Equatable {
    /// The layer's plane → pixels (a similarity), packed as `Homography.packed`; `h1.w` the
    /// clip index, `h2.w` the image flags (every edge antialiased, linear filters).
    package var h0: SIMD4<Float>
    package var h1: SIMD4<Float>
    package var h2: SIMD4<Float>
    /// The cell's image: u0, v0, u1, v1 as `ImageInstance.uv`, and its place in the bound
    /// texture as `ImageInstance.atlas`.
    package var uv: SIMD4<Float>
    package var atlas: SIMD4<Float>
    /// Image width and height in the layer's units (before the particle's scale), the layer
    /// opacity the tint multiplies, and flags: 1 additive (transparent particles still drawn),
    /// 2 instance i is particle first + i (oldest first) instead of first − i.
    package var look: SIMD4<Float>
    /// The first instance's hash input (`EmitterRun.firstKey`) as four 16-bit limbs, high first.
    package var key: SIMD4<Float>
    /// Age of instance 0, age step per instance, lifetime, lifetime range.
    package var time: SIMD4<Float>
    /// Velocity, velocity range, emission longitude, emission range.
    package var motion: SIMD4<Float>
    /// Emission latitude, acceleration x, y, z.
    package var motion2: SIMD4<Float>
    /// Scale, scale range, scale speed, spin.
    package var scale: SIMD4<Float>
    /// Straight RGBA colour, its ranges and its speeds.
    package var color: SIMD4<Float>
    package var colorRange: SIMD4<Float>
    package var colorSpeed: SIMD4<Float>
    /// Emitter centre x, y, z, spin range.
    package var emitter: SIMD4<Float>
    /// Emitter width, height, depth, shape code × 4 + mode code (`EmitterRun.shapeCode`).
    package var shape: SIMD4<Float>

    /// Memberwise, public: a backend or a test double builds frames from this module alone.
    @inlinable package init(h0: SIMD4<Float>, h1: SIMD4<Float>, h2: SIMD4<Float>, uv: SIMD4<Float>, atlas: SIMD4<Float>,
                            look: SIMD4<Float>, key: SIMD4<Float>, time: SIMD4<Float>, motion: SIMD4<Float>, motion2: SIMD4<Float>,
                            scale: SIMD4<Float>, color: SIMD4<Float>, colorRange: SIMD4<Float>, colorSpeed: SIMD4<Float>,
                            emitter: SIMD4<Float>, shape: SIMD4<Float>) {
        self.h0 = h0; self.h1 = h1; self.h2 = h2; self.uv = uv; self.atlas = atlas; self.look = look; self.key = key
        self.time = time; self.motion = motion; self.motion2 = motion2; self.scale = scale; self.color = color
        self.colorRange = colorRange; self.colorSpeed = colorSpeed; self.emitter = emitter; self.shape = shape
    }

    /// A 64-bit key as four 16-bit limbs, high first (each exact in a float).
    package static func limbs(_ k: UInt64) -> SIMD4<Float> {
        SIMD4(Float(k >> 48), Float((k >> 32) & 0xFFFF), Float((k >> 16) & 0xFFFF), Float(k & 0xFFFF))
    }

    static let zero = SIMD4<Float>.zero
}

extension Batch {
    /// Quads the batch draws, each a slot of the main pass's paint order (`orderDepth` in
    /// common.glsl): one per instance, or a particle run's count per record.
    package var quadCount: Int {
        if case .particles(_, let count) = pipeline { return max(count, 0) * range.count }
        return range.count
    }
}

extension ParticleRunInstance: InstanceKind {
    package static let layout = InstanceLayout.of(
        ParticleRunInstance(h0: zero, h1: zero, h2: zero, uv: zero, atlas: zero, look: zero, key: zero, time: zero, motion: zero,
                            motion2: zero, scale: zero, color: zero, colorRange: zero, colorSpeed: zero, emitter: zero, shape: zero),
        shader: "particle")
    package static var instances: WritableKeyPath<RenderFrame, [ParticleRunInstance]> { \.particleRuns }
    package var clipIndex: Float { get { h1.w } set { h1.w = newValue } }
}

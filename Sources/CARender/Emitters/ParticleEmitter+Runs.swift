import CoreGraphics
import CoreAnimation
import CAFrame

/// The record path of `ParticleEmitter` (issue 21): an emitter layer whose particles are all
/// emission runs (`EmitterSimulation.runs`: top-level cells at a constant rate, no sub-cells,
/// no animated eras, not `backToFront`) is written as one `ParticleRunInstance` per run, and the
/// GL backend draws each with one instanced draw of `count` quads whose vertex shader
/// (Shaders/particle.vert) computes particle i as `EmitterSimulation.born` does, with the same
/// splitmix64 hash (`EmitterHash`), so they are the same particles. Per frame the builder's work
/// and the upload are O(runs), not O(particles).
extension ParticleEmitter {
    /// What a cell draws (the CPU path's `Look` without its flags).
    struct RunLook {
        var slot: Int
        var placement: SIMD4<Float>
        var size: SIMD2<Double>
        var uv: SIMD4<Float>
    }

    /// Writes the runs as records and batches; false (nothing written) when a run's cell does
    /// not take the image shader's particle path (filters other than linear, a layer plane that
    /// is not a similarity): the caller then simulates on the CPU.
    func emitRuns(_ runs: [EmitterRun], looks: [RunLook?], variants: [ShaderVariant?], plane: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
                  clip: Float, flags: [UInt32], opacity: Float, additive: Bool, into out: FrameWriter) -> Bool {
        for run in runs where looks[run.node] != nil {
            guard let v = variants[run.node], v.contains(.particle) else { return false }
        }
        var drawn = 0
        for run in runs {
            // A cell without an image draws nothing, as on the CPU path.
            guard let look = looks[run.node], let v = variants[run.node], run.count > 0 else { continue }
            func f(_ x: Double) -> Float { Float(x) }
            let record = ParticleRunInstance(
                h0: plane.0, h1: SIMD4(plane.1.x, plane.1.y, plane.1.z, clip), h2: SIMD4(plane.2.x, plane.2.y, plane.2.z, Float(flags[run.node])),
                uv: look.uv, atlas: look.placement,
                look: SIMD4(f(look.size.x), f(look.size.y), opacity, (additive ? 1 : 0) + (run.step > 0 ? 2 : 0)),
                key: ParticleRunInstance.limbs(run.firstKey),
                time: SIMD4(f(run.firstAge), f(run.ageStep), f(run.lifetime), f(run.lifetimeRange)),
                motion: SIMD4(f(run.velocity), f(run.velocityRange), f(run.longitude), f(run.emissionRange)),
                motion2: SIMD4(f(run.latitude), f(run.acceleration.x), f(run.acceleration.y), f(run.acceleration.z)),
                scale: SIMD4(f(run.scale), f(run.scaleRange), f(run.scaleSpeed), f(run.spin)),
                color: SIMD4<Float>(run.color), colorRange: SIMD4<Float>(run.colorRange), colorSpeed: SIMD4<Float>(run.colorSpeed),
                emitter: SIMD4(f(run.centre.x), f(run.centre.y), f(run.centre.z), f(run.spinRange)),
                shape: SIMD4(f(run.size.x), f(run.size.y), f(run.size.z), Float(run.shapeCode * 4 + run.modeCode)))
            out.frame.particleRuns.append(record)
            out.appendBatch(.particles(texture: look.slot, count: run.count), variant: v, index: out.frame.particleRuns.count - 1)
            drawn += run.count
            out.stats.gpuParticleRuns += 1
        }
        particleCount += drawn
        out.stats.particles += drawn
        return true
    }
}

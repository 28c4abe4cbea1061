internal import CGL
import CoreGraphics
import CAFrame

/// One backend pipeline entry per kind of instance (`InstanceKind`): the stream its instances
/// go up in, the kind's own per-frame data, and what a batch of it binds before the instanced
/// draw. `GLRenderer` holds one entry per `RenderFrame.instanceKinds` lane and knows no kind by
/// name beyond building that table (`GLRenderer.makePipelines`); the draw itself — viewport,
/// clip table, painter's order, `glDrawArraysInstanced` of a quad per instance — is shared.
protocol GLPipeline: AnyObject {
    /// The stream of this kind's instances (one vec4 attribute per field, in declaration order).
    var stream: GLInstanceStream { get }
    /// Uploads this frame's instances and whatever else the kind needs (textures of its own).
    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws
    /// Binds what batch `b` needs beyond its instances and returns its program (in use).
    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram
    /// Issues the batch's draws once `prepare` has bound it; returns the draw calls and the
    /// quads drawn. Default: one instanced draw of a quad per instance of the batch's range.
    func drawInstances(_ b: Batch) -> (draws: Int, instances: Int)
}

/// What a batch may sample that the frame, not its kind, provides.
struct GLBatchBindings {
    /// `RenderFrame.textures`, uploaded.
    var textures: [GLTexture]
    /// The texture of an offscreen target drawn earlier in the frame.
    var target: (TargetID) -> GLTexture?
    var frame: RenderFrame
}

/// Shared by the entries whose upload is their instances alone.
extension GLPipeline {
    func drawInstances(_ b: Batch) -> (draws: Int, instances: Int) {
        glDrawArraysInstanced(E(GL_TRIANGLE_STRIP), 0, 4, GLsizei(b.range.count))
        return (1, b.range.count)
    }

    func uploadInstances<K: InstanceKind>(_ kind: K.Type, of frame: RenderFrame) {
        stream.upload(frame[keyPath: K.instances])
    }
}

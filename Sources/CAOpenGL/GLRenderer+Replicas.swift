internal import CGL
import CAFrame

/// Replicator copies kept on the GPU (`ReplicaDraw`, issue 21): a batch of one box whose
/// `replica` is ≥ 0 is drawn once per copy, its instance attributes read by every copy (divisor
/// = copies) and `box.vert` (`CA_REPLICATED`) composing each copy's pixel maps and tints from
/// the frame's replica table. The table is a few rows per replicator, uploaded each frame.
extension GLRenderer {
    /// The replica table has a unit of its own, like the clip table (`clipTextureUnit`).
    static let replicaTextureUnit: Int32 = 6
    /// Texels in a row of the replica table (`box.vert`'s `replicaTexel`).
    static let replicaTableWidth = 1024

    /// Instances batch `b` draws: its copies when replicated, else its range.
    static func instancesDrawn(_ b: Batch, _ frame: RenderFrame) -> Int {
        guard b.replica >= 0, Int(b.replica) < frame.replicaDraws.count else { return b.quadCount }
        return frame.replicaDraws[Int(b.replica)].copies
    }

    /// Uploads `frame.replicaRows` (4 texels a row) when the frame has replicated batches.
    func uploadReplicas(_ frame: RenderFrame) {
        guard !frame.replicaRows.isEmpty else { return }
        let w = Self.replicaTableWidth
        let texels = frame.replicaRows.count * 4
        let rows = (texels + w - 1) / w
        if replicaTexture == nil || replicaTexture!.height < rows {
            replicaTexture = GLTexture(width: w, height: max(1, rows * 2), internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
        }
        // One buffer kept between frames (an animated tint re-uploads the table every frame),
        // rows written as they are laid out: 4 texels of 4 floats each.
        replicaUpload.removeAll(keepingCapacity: true)
        replicaUpload.reserveCapacity(rows * w)
        for r in frame.replicaRows {
            replicaUpload.append(r.m0); replicaUpload.append(r.m1); replicaUpload.append(r.m2); replicaUpload.append(r.tint)
        }
        replicaUpload.append(contentsOf: repeatElement(.zero, count: rows * w - texels))
        glActiveTexture(E(GL_TEXTURE0 + Self.replicaTextureUnit))
        glBindTexture(E(GL_TEXTURE_2D), replicaTexture!.id)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        replicaUpload.withUnsafeBytes {
            glTexSubImage2D(E(GL_TEXTURE_2D), 0, 0, 0, GLsizei(w), GLsizei(rows), E(GL_RGBA), E(GL_FLOAT), $0.baseAddress)
        }
        glActiveTexture(E(GL_TEXTURE0))
        glCheck("replica table")
    }

    /// Sets up replicated batch `b` (its program in use, its stream bound at its one instance)
    /// and returns the copies to draw; `b.range.count` for any other batch.
    func bindReplicas(_ b: Batch, _ program: GLProgram, _ frame: RenderFrame, stats: inout RenderStats) -> Int {
        guard b.replica >= 0, Int(b.replica) < frame.replicaDraws.count else { return b.range.count }
        let d = frame.replicaDraws[Int(b.replica)]
        let copies = d.copies
        var counts = SIMD4<Int32>(repeating: 1), rows = SIMD4<Int32>(repeating: 0)
        for (l, level) in d.levels.prefix(ReplicaDraw.maxLevels).enumerated() {
            counts[l] = max(level.count, 1); rows[l] = level.row
        }
        program.set("u_replicas", int: Self.replicaTextureUnit)
        glUniform1i(program.location("u_replicaLevels"), GLint(min(d.levels.count, ReplicaDraw.maxLevels)))
        glUniform4i(program.location("u_replicaCounts"), counts.x, counts.y, counts.z, counts.w)
        glUniform4i(program.location("u_replicaRows"), rows.x, rows.y, rows.z, rows.w)
        // Every copy reads the one instance (the stream's next `bind` sets divisor 1 again).
        let stream = pipelines[RenderFrame.lane(of: b.pipeline.kind)].stream
        for i in 0..<stream.vec4sPerInstance { glVertexAttribDivisor(GLuint(i), GLuint(max(copies, 1))) }
        stats.gpuReplicatedCopies += copies
        return copies
    }
}

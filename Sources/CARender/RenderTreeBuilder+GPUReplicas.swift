import CoreGraphics
import CoreAnimation
import CAFrame

/// `CAReplicatorLayer` copies kept on the GPU (issue 21): where the CPU path would append copy
/// 0's instances again for every copy (`appendDuplicate`, "instances of the recorded copy"),
/// copy 0's one box instance is written once, untinted, and its batch names a `ReplicaDraw`:
/// one row per copy with the copy's pixel map (`ReplicaSource.pixelMap`) and its tint
/// (`ReplicaSpec.color(k)`, docs/BEHAVIOUR.md R1–R7), which the box vertex shader composes
/// (`CA_REPLICATED`). A frame whose replicator's `instanceColor` or offsets animate costs
/// O(copies of each replicator) rows instead of O(all copies) instances: a replicator of 100
/// rows of a replicator of 100 columns writes 200 rows and one box, drawn as one instanced draw
/// of 10,000 copies.
///
/// Taken only where it is exact and cheap to prove so:
/// - the backend draws it (`usesGPUReplicas`: the GL backend, `CARenderer.Options.usesGPUReplicas`);
/// - copy 0 is exactly one box instance (a plain box, or an inner replicator's replicated box:
///   a nested replicator adds a level, up to `ReplicaDraw.maxLevels`). With more instances per
///   copy an instanced draw per source instance would draw source instance 1 of every copy
///   after source instance 0 of every copy, reordering overlapping copies: the CPU path keeps
///   copy k entirely before copy k + 1 there. Images and gradients as copy 0 take the CPU path;
/// - not in a depth-plane batch. While a patch re-emits a subtree (`FrameWriter.reemitting`,
///   the benchmark's case: the replicator's animated `instanceColor` re-emits it every frame),
///   the recorded frame's draw for the box (`FrameWriter.replicaOfBox`) gets the new rows —
///   in place where a level keeps its count — and the patch's comparison of instances and
///   emission log (`.replicated` and `.projective` included) proves the batches unchanged;
///   a box the recorded frame drew without a draw takes the CPU path, the comparison fails and
///   the frame is built whole.
/// Everything else — walks per copy, clips, offscreen groups, shapes, flattened translucent
/// copies — is the CPU path as before. The budget (`maxReplicatedInstances`) counts copies as
/// the CPU path does, so the copies past it are cut at the same place, with the same warning.
extension RenderTreeBuilder {
    /// Draws copies 1… of `r` from `source` as a replica level of copy 0's one box instance
    /// (copy 0 included, with its tint `r.color(0)`); false, with nothing changed, where the CPU
    /// path must draw them (see the type's comment).
    func replicateOnGPU(_ source: ReplicaSource, _ r: ReplicaSpec) -> Bool {
        guard usesGPUReplicas, out.depthPlane < 0, source.log.count == 1,
              case .box = source.log[0].pipeline else { return false }
        let index = source.start[Self.boxLane]
        guard index == out.frame.boxes.count - 1 else { return false }
        // The draw this box already has, and the levels made so far (an inner replicator's).
        let existing: Int32?
        var draw = ReplicaDraw(levels: [])
        let extending = source.log[0].variant.contains(.replicated)
        let p = out.passStack.count - 1
        if out.reemitting {
            guard let id = out.replicaOfBox[index + out.reemitBoxShift], Int(id) < out.frame.replicaDraws.count else { return false }
            existing = id
            if extending {
                draw = out.frame.replicaDraws[Int(id)]
            } else {
                out.reusableReplicaLevels[id] = out.frame.replicaDraws[Int(id)].levels
            }
        } else {
            guard let batch = out.passStack[p].batches.last, case .box = batch.pipeline,
                  batch.range.upperBound == index + 1 else { return false }
            existing = batch.replica >= 0 ? batch.replica : nil
            if let id = existing {
                guard extending, Int(id) < out.frame.replicaDraws.count, batch.range.count == 1 else { return false }
                draw = out.frame.replicaDraws[Int(id)]
            }
        }
        guard draw.levels.count < ReplicaDraw.maxLevels,
              out.frame.replicaRows.count <= Self.maxReplicaRows else { return false }
        // What one copy of this replicator costs against the budget: copy 0's instances, as the
        // CPU path counts them (its copy 0 would hold the inner replicator's copies).
        let perCopy = max(1, draw.copies)
        var rows: [ReplicaRow] = []
        var projective = false
        func addRow(_ m: Homography, _ k: Int) {
            let (m0, m1, m2) = m.packed(.zero)
            let tint = Self.premultipliedTint(r.color(k)) ?? SIMD4(repeating: 1)
            rows.append(ReplicaRow(m0: m0, m1: m1, m2: m2, tint: tint))
            if ShaderVariant.of(clip: 0, flags: Float(InstanceFlags.edgeMask), h0: m0, h1: m1, h2: m2).contains(.projective) {
                projective = true
            }
        }
        addRow(.identity, 0)
        r.forEachLaterCopy { k, c in
            guard replicas.budget > 0, perCopy <= replicas.budget else { warnBudget(); return false }
            guard let m = source.pixelMap(Homography(c)) else { ReplicaSpec.warnBeyondFloat(); return true }
            addRow(m, k)
            replicas.budget -= perCopy
            return true
        }
        // The rows go where this level's rows were in the recorded frame when their count is
        // the same (a patch every frame then writes no new rows), else after the others.
        let level = draw.levels.count
        var row = Int32(out.frame.replicaRows.count)
        if let id = existing, let old = out.reusableReplicaLevels[id], level < old.count, Int(old[level].count) == rows.count {
            row = old[level].row
            out.frame.replicaRows.replaceSubrange(Int(row)..<(Int(row) + rows.count), with: rows)
        } else {
            out.frame.replicaRows.append(contentsOf: rows)
        }
        draw.levels.append(ReplicaLevel(row: row, count: Int32(rows.count)))
        var variant = source.log[0].variant
        variant.insert(.replicated)
        if projective { variant.insert(.projective) }
        if let id = existing {
            out.frame.replicaDraws[Int(id)] = draw
            if !out.reemitting { out.passStack[p].batches[out.passStack[p].batches.count - 1].variant = variant }
        } else {
            // Copy 0's box leaves the batch it joined and becomes a batch of its own.
            let n = out.passStack[p].batches.count - 1
            let batch = out.passStack[p].batches[n]
            if batch.range.count > 1 {
                out.passStack[p].batches[n].range = batch.range.lowerBound..<index
            } else {
                out.passStack[p].batches.removeLast()
            }
            var b = Batch(pipeline: .box, variant: variant, range: index..<(index + 1))
            b.replica = Int32(out.frame.replicaDraws.count)
            out.replicaOfBox[index] = b.replica
            out.frame.replicaDraws.append(draw)
            out.passStack[p].batches.append(b)
        }
        // The log says the instance is replicated: an enclosing replicator extends the draw, or
        // walks its copies rather than append plain duplicates of it; a patch compares it.
        if out.reemitting {
            out.scratchLog[out.scratchLog.count - 1].variant = variant
        } else {
            out.emissionLog[out.emissionLog.count - 1].variant = variant
        }
        return true
    }

    /// Most rows of replica tables in one frame: past it (rows a long run of patches with
    /// changing counts left behind) replicators take the CPU path, and a patch that meets one
    /// fails, so the frame is built whole with a fresh table.
    static let maxReplicaRows = 262_144
}

/// Copies of one instance that the GL backend draws instanced (`CAReplicatorLayer` copies kept
/// on the GPU, issue 21; `RenderTreeBuilder+GPUReplicas.swift`). A batch whose `replica` is ≥ 0
/// holds copy 0's one instance, untinted; the backend draws it `copies` times, copy c moved by
/// the pixel maps and multiplied by the tints of its index in each level (levels innermost
/// first: c = k₁ + n₁·(k₂ + n₂·…), so a nested replicator's copy k holds the inner copies
/// k·n₁ … k·n₁ + n₁ − 1, drawn in that order as the CPU path appends them).
package struct ReplicaDraw: Sendable, Equatable {
    /// Levels, innermost (the replicator nearest the instance) first.
    package var levels: [ReplicaLevel]

    package init(levels: [ReplicaLevel]) { self.levels = levels }

    /// Copies drawn: the product of the levels' counts.
    package var copies: Int { levels.reduce(1) { $0 * Int($1.count) } }

    /// Most levels the box shader composes (`box.vert`, `u_replicaLevels`).
    package static let maxLevels = 4
}

/// One replicator's copies in a `ReplicaDraw`: `count` rows of `RenderFrame.replicaRows` from
/// `row` on, one per copy (copies the CPU path would skip — a map beyond Float range — have no
/// row).
package struct ReplicaLevel: Sendable, Equatable {
    package var row: Int32
    package var count: Int32

    package init(row: Int32, count: Int32) { self.row = row; self.count = count }
}

/// One copy of a level: the pixel map (frame pixels → frame pixels, rows as row vectors,
/// `p · m`) and the premultiplied multiplier of the copy's tint (instanceColor + k × offsets,
/// clamped: `ReplicaSpec.color(k)`), 4 texels of the backend's replica table.
package struct ReplicaRow: Sendable, Equatable {
    package var m0: SIMD4<Float>
    package var m1: SIMD4<Float>
    package var m2: SIMD4<Float>
    package var tint: SIMD4<Float>

    package init(m0: SIMD4<Float>, m1: SIMD4<Float>, m2: SIMD4<Float>, tint: SIMD4<Float>) {
        self.m0 = m0; self.m1 = m1; self.m2 = m2; self.tint = tint
    }
}

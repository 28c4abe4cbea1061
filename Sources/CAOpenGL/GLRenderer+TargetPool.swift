/// Offscreen targets are pooled by exact size and reused frame after frame. A target sized to
/// animated content (issue 23: a masked or faded layer's target follows what its shapes paint)
/// has a new size in many frames, so sizes not taken for `poolIdleFrames` frames are freed:
/// the pool holds the sizes recent frames use, not every size an animation ever had.
extension GLRenderer {
    /// Frames a pooled size may go untaken before its targets are freed.
    static let poolIdleFrames = 30

    func evictIdlePooledTargets() {
        guard poolLastUsed.count > 0 else { return }
        let idle = poolLastUsed.filter { frameNumber - $0.value > Self.poolIdleFrames }.map(\.key)
        for key in idle {
            pool.removeValue(forKey: key)
            poolLastUsed.removeValue(forKey: key)
        }
    }

    /// Offscreen targets held in the pool now (tests).
    package var pooledTargetCount: Int { pool.values.reduce(0) { $0 + $1.count } }
}

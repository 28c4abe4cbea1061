internal import CGL
import CAFrame

/// Kept textures of rasterised layers (`shouldRasterize`, `OffscreenTarget.cacheKey`): the
/// target of a rasterised layer is a render target of its own, kept from frame to frame under
/// the layer's key with the hash of what was drawn into it. A frame whose target has the same
/// key, size and hash composites the kept texture and skips the target's pass. The renderer
/// owns every entry; one that a frame does not use is freed at the end of that frame (its FBO
/// and texture deleted by `GLRenderTarget`'s deinit), so a layer that stops rasterising or
/// leaves the tree holds no GPU memory after the next frame.
extension GLRenderer {
    struct RasterEntry {
        let target: GLRenderTarget
        /// The hash of what the texture holds; nil until a pass has drawn it completely.
        var hash: Int?
        var lastUsed: Int
    }

    /// The render target for rasterised target `t` and whether its texture already holds what
    /// the frame would draw (its pass is then skipped). Counts a hit or a miss.
    func rasterTarget(_ t: OffscreenTarget, stats: inout RenderStats) throws -> (GLRenderTarget, reused: Bool) {
        let w = t.textureWidth, h = t.textureHeight
        if var e = rasterCache[t.cacheKey], e.target.width == w, e.target.height == h, e.lastUsed != frameNumber {
            let reused = e.hash == t.contentHash
            if !reused { e.hash = nil }
            e.lastUsed = frameNumber
            rasterCache[t.cacheKey] = e
            if reused { stats.rasterCacheHits += 1 } else { stats.rasterCacheMisses += 1 }
            return (e.target, reused)
        }
        // New, resized, or a second target under one key in this frame (the same layer drawn
        // twice, e.g. in a transition's pictures): the second is not kept.
        let target = try GLRenderTarget(width: w, height: h)
        stats.rasterCacheMisses += 1
        if rasterCache[t.cacheKey]?.lastUsed != frameNumber {
            rasterCache[t.cacheKey] = RasterEntry(target: target, hash: nil, lastUsed: frameNumber)
        }
        return (target, false)
    }

    /// Records that target `t`'s pass has drawn it: its texture now holds `t.contentHash`.
    func rasterTargetDrawn(_ t: OffscreenTarget, _ target: GLRenderTarget) {
        guard var e = rasterCache[t.cacheKey], e.target === target else { return }
        e.hash = t.contentHash
        rasterCache[t.cacheKey] = e
    }

    /// Whether target `i`'s passes can be skipped: it, or a rasterised target it is drawn for
    /// (`rasterOwner`, followed outwards), is reused as kept.
    static func isReused(_ i: Int, _ targets: [OffscreenTarget], _ reused: Set<Int>) -> Bool {
        var k = i
        var steps = 0
        while k >= 0, k < targets.count, steps <= targets.count {
            if reused.contains(k) { return true }
            k = targets[k].rasterOwner
            steps += 1
        }
        return false
    }

    /// Frees the kept targets this frame did not use.
    func evictUnusedRasterTargets() {
        guard !rasterCache.isEmpty else { return }
        rasterCache = rasterCache.filter { $0.value.lastUsed == frameNumber }
    }
}

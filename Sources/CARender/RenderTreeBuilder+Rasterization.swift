import CoreGraphics
import CoreAnimation
import CAFrame

/// `shouldRasterize` / `rasterizationScale`. Apple: "When the value of this property is true,
/// the layer is rendered as a bitmap in its local coordinate space and then composited to the
/// destination with any other content"; `rasterizationScale` is "the scale at which to
/// rasterize content, relative to the coordinate space of the layer" (CALayer.shouldRasterize,
/// CALayer.rasterizationScale).
///
/// Here a rasterised layer is isolated like a masked or group-faded one (`CompositingPlan`):
/// its subtree draws into an offscreen target that is then composited. That target holds
/// `rasterizationScale` texels per point: where the layer covers more pixels per point than
/// that (a 2× frame with the default scale of 1, or a layer scaled up by its transform), the
/// target is that many times smaller on each side (`OffscreenTarget.downscale`, a whole number:
/// the ratio is rounded) and its texels are magnified when composited — the soft, low-resolution
/// look Apple shows. A scale at or above the pixels per point draws at the frame's resolution.
///
/// The target carries the layer's identity (`cacheKey`) and a hash of everything its passes
/// draw (`contentHash`): the GL backend keeps the target's texture from one frame to the next
/// and skips drawing it again while the hash is unchanged (`RenderStats.rasterCacheHits`). The
/// hash covers the instances, clips, nested targets and passes the subtree emitted, the ramps
/// and images they sample, so a change anywhere inside — a sublayer's colour, position, an
/// animation — is a miss and redraws it. The instances are in frame pixels; so that moving the
/// layer does not redraw it, a layer composited as a plain group is drawn at the place it was
/// last drawn and its bitmap composited moved (`RenderTreeBuilder+RasterPlacement.swift`).
/// Turning or scaling it still redraws it, where Apple reuses the bitmap (docs/BEHAVIOUR.md N9).
extension RenderTreeBuilder {
    /// Where the instances of one rasterised target's subtree lie in the frame, so its hash can
    /// be computed again after a patch changed instances in place.
    struct RasterWindow {
        var target: Int
        var start: SubtreeMarks
        var end: SubtreeMarks
        /// `frame.passes` indices of the passes drawn for it (nested ones and its own).
        var passes: Range<Int>
    }

    /// The most a rasterised target is reduced on each side (a tiny `rasterizationScale` gives
    /// a blur of at most this many pixels, not a one-texel target).
    static let maxRasterDownscale = 64

    /// How many times smaller than the frame pixels the target of a rasterised layer is: the
    /// layer's pixels per point (the longer projected edge of its bounds over its length) over
    /// `rasterizationScale`, rounded, at least 1. A scale that is not a positive finite number
    /// counts as 1.
    func rasterDownscale(_ s: LayerState, h: Homography) -> Int {
        let b = s.bounds.standardized
        guard b.width > 0, b.height > 0,
              let p0 = h.map(Double(b.minX), Double(b.minY)), let px = h.map(Double(b.maxX), Double(b.minY)),
              let py = h.map(Double(b.minX), Double(b.maxY)) else { return 1 }
        let perPoint = max(simdLength(px - p0) / Double(b.width), simdLength(py - p0) / Double(b.height))
        let scale = Double(s.rasterizationScale)
        let r = scale.isFinite && scale > 0 ? perPoint / scale : perPoint
        guard r.isFinite else { return 1 }
        let d = min(max(Int.clamped(r.rounded()), 1), Self.maxRasterDownscale)
        if r > 1.05, abs(r - Double(d)) > 0.05 {
            RenderDiagnostics.warn("CALayer.rasterizationScale: the layer's pixels per rasterised texel are rounded to a whole number (a ratio of 1.5 draws at 2; docs/BEHAVIOUR.md N9)")
        }
        return d
    }

    private func simdLength(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

    /// Opens the offscreen target of a rasterised layer over `rect` grown so each side is a
    /// whole number of texels (the rectangle it covers), with the marks its window starts at.
    func beginRasterTarget(_ layer: CALayer, _ s: LayerState, rect: CGRect, h: Homography, key: UInt64? = nil)
        -> (id: TargetID, rect: CGRect, start: SubtreeMarks, passes: Int) {
        let d = rasterDownscale(s, h: h)
        var r = rect
        if d > 1 {
            r.size.width = (r.width / CGFloat(d)).rounded(.up) * CGFloat(d)
            r.size.height = (r.height / CGFloat(d)).rounded(.up) * CGFloat(d)
        }
        let marks = subtreeMarks()
        let passes = out.frame.passes.count
        let id = out.beginOffscreen(r)
        if case .offscreen(let i) = id {
            out.frame.targets[i].downscale = d
            out.frame.targets[i].cacheKey = key ?? nextRasterKey(layer)
        }
        return (id, r, marks, passes)
    }

    /// Closes the window of a rasterised target (after `endOffscreen`) and hashes it.
    func finishRasterTarget(_ id: TargetID, start: SubtreeMarks, passes: Int) {
        guard case .offscreen(let i) = id else { return }
        let w = RasterWindow(target: i, start: start, end: subtreeMarks(), passes: passes..<out.frame.passes.count)
        for k in (i + 1)..<max(i + 1, w.end.targets) where out.frame.targets[k].rasterOwner < 0 { out.frame.targets[k].rasterOwner = i }
        out.frame.targets[i].contentHash = rasterHash(w)
        rasterWindows.append(w)
    }

    /// Hashes every window again (a patch rewrote instances inside some of them in place).
    func rehashRasterTargets() {
        for w in rasterWindows where w.target < out.frame.targets.count {
            out.frame.targets[w.target].contentHash = rasterHash(w)
        }
    }

    /// What the passes of window `w` draw, hashed.
    func rasterHash(_ w: RasterWindow) -> Int {
        var hasher = Hasher()
        let f = out.frame
        for kind in RenderFrame.instanceKinds {
            Self.hashInstances(kind, f, lane: RenderFrame.lane(of: kind), w, into: &hasher)
        }
        hasher.combine(w.start.clips)
        for c in f.clips[min(w.start.clips, f.clips.count)..<min(w.end.clips, f.clips.count)] {
            hasher.combine(c.inverse.r0); hasher.combine(c.inverse.r1); hasher.combine(c.inverse.r2)
            hasher.combine(c.rect); hasher.combine(c.radii); hasher.combine(c.continuous)
        }
        for t in f.targets[min(w.start.targets, f.targets.count)..<min(w.end.targets, f.targets.count)] {
            hasher.combine(SIMD4(t.x, t.y, t.width, t.height)); hasher.combine(t.downscale)
        }
        var shapes = false
        for p in f.passes[w.passes] {
            hasher.combine(p.target)
            switch p.kind {
            case .draw(let batches):
                for b in batches {
                    hasher.combine(b.pipeline); hasher.combine(b.variant); hasher.combine(b.range.lowerBound); hasher.combine(b.range.upperBound)
                    // Replicated copies: their placements and tints (`ReplicaDraw`).
                    if b.replica >= 0, Int(b.replica) < f.replicaDraws.count {
                        for l in f.replicaDraws[Int(b.replica)].levels {
                            hasher.combine(l.count)
                            for row in f.replicaRows[Int(l.row)..<Int(l.row + l.count)] {
                                hasher.combine(row.m0); hasher.combine(row.m1); hasher.combine(row.m2); hasher.combine(row.tint)
                            }
                        }
                    }
                    switch b.pipeline {
                    case .image(let t, _) where t < f.textures.count: hasher.combine(ObjectIdentifier(f.textures[t]))
                    case .shape: shapes = true
                    default: break
                    }
                }
            case .blur(let source, let sigma, let horizontal):
                hasher.combine(source); hasher.combine(sigma); hasher.combine(horizontal)
            case .filter(let source, let op):
                hasher.combine(source); hasher.combine("\(op)")
            case .copy(let source):
                hasher.combine(source)
            }
        }
        // Gradient ramps are shared by rows across the frame: hash the rows the window samples.
        let width = GradientInstance.rampWidth * 4
        let lane = RenderFrame.lane(of: GradientInstance.self)
        for g in f.gradients[min(w.start.instances[lane], f.gradients.count)..<min(w.end.instances[lane], f.gradients.count)] {
            let row = Int(g.params.y)
            guard row >= 0, (row + 1) * width <= f.gradientRamps.count else { continue }
            f.gradientRamps.withUnsafeBufferPointer { hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[(row * width)..<((row + 1) * width)]))) }
        }
        // Shape atlas pages change where new rasters are uploaded: a frame that uploads any is
        // a miss for the shapes it holds (a static frame uploads none).
        if shapes, !f.shapeUploads.isEmpty { hasher.combine(rasterMissSalt.next()) }
        return hasher.finalize()
    }

    /// Hashes the bytes of window `w`'s instances of one kind (all of them `SIMD4<Float>`
    /// fields: no padding).
    static func hashInstances<K: InstanceKind>(_ kind: K.Type, _ f: RenderFrame, lane: Int, _ w: RasterWindow, into hasher: inout Hasher) {
        let a = f[keyPath: K.instances]
        let lo = min(w.start.instances[lane], a.count), hi = min(w.end.instances[lane], a.count)
        hasher.combine(lo)
        hasher.combine(hi)
        a.withUnsafeBufferPointer { p in
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: p[lo..<hi])))
        }
    }
}

/// A counter mixed into a hash that must not match any earlier one.
final class RasterMissSalt {
    private var n = 0
    func next() -> Int { n += 1; return n }
}

import Foundation

// Whole-file budgets that need the finished tree (`SceneLimits.maxOffscreenPixels`).

extension SceneReader {
    /// Estimates the offscreen pixels the scene's layers can need at once and reports a problem
    /// when they exceed `SceneLimits.maxOffscreenPixels`. A layer drawn through an offscreen
    /// target (the renderer's rule, `CompositingPlan.isolated`: a mask — two targets, the
    /// content's and the mask's —, group opacity over sublayers, a shadow cast from its pixels)
    /// counts its bounds in frame pixels, capped at the frame's size (each target is cut to the
    /// frame). Model values as loaded; the layers that scheduled transactions add count too.
    func checkOffscreenBudget(_ roots: [CALayer], frameWidth: Double, frameHeight: Double, scale: Double) {
        let framePixels = max(1, frameWidth * frameHeight)
        var total = 0.0
        var stack = roots
        while let l = stack.popLast() {
            var targets = 0.0
            if l.mask != nil { targets += 2 }
            if l.opacity < 1, l.allowsGroupOpacity, !(l.sublayers?.isEmpty ?? true) { targets += 1 }
            if l.shadowOpacity > 0, l.shadowPath == nil { targets += 1 }
            if targets > 0 {
                let area = Double(l.bounds.width * l.bounds.height) * scale * scale
                total += targets * (area.isFinite ? min(max(area, 0), framePixels) : framePixels)
            }
            stack += l.sublayers ?? []
            if let m = l.mask { stack.append(m) }
        }
        if total > Double(limits.maxOffscreenPixels) {
            problem("root", "the layers drawn through offscreen targets need about \(Int(total.rounded(.up))) pixels; at most \(limits.maxOffscreenPixels) are allowed (limit maxOffscreenPixels)")
        }
    }
}

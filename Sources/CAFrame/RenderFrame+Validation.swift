/// What a backend may rely on in a frame, checked: the frame format's contract in code, so a
/// second backend (a test double, a software or Vulkan one) can be written against this module
/// alone and told exactly what a builder promises.
extension RenderFrame {
    /// Every broken promise of the frame, in words; empty for a well-formed frame.
    ///
    /// - every batch's range lies inside its pipeline's instance array, and a batch's texture,
    ///   shape page or offscreen source exists;
    /// - every pass draws into the main target or an existing offscreen target, and a target
    ///   is drawn before a later pass samples it;
    /// - every instance's clip index names an entry of the clip table;
    /// - the gradient ramps are whole rows, and the main target is not empty.
    package var problems: [String] {
        var out: [String] = []
        if width <= 0 || height <= 0 { out.append("frame is \(width)×\(height)") }
        if gradientRamps.count % (GradientInstance.rampWidth * 4) != 0 {
            out.append("gradient ramps are \(gradientRamps.count) floats, not whole rows")
        }
        func targetExists(_ t: TargetID) -> Bool {
            if case .offscreen(let i) = t { return targets.indices.contains(i) }
            return true
        }
        var drawn: Set<TargetID> = []
        for (p, pass) in passes.enumerated() {
            if !targetExists(pass.target) { out.append("pass \(p) draws into missing target \(pass.target)") }
            switch pass.kind {
            case .blur(let source, _, _):
                if !drawn.contains(source) { out.append("pass \(p) blurs \(source) before it is drawn") }
            case .draw(let batches):
                for (b, batch) in batches.enumerated() {
                    let at = "pass \(p) batch \(b)"
                    let count: Int
                    switch batch.pipeline {
                    case .box: count = boxes.count
                    case .image(let texture, _):
                        count = images.count
                        if !textures.indices.contains(texture) { out.append("\(at) samples missing texture \(texture)") }
                    case .composite(let source, let mask):
                        count = composites.count
                        for t in [source] + (mask.map { [$0] } ?? []) where !drawn.contains(t) || t == pass.target {
                            out.append("\(at) samples \(t), which is not drawn before this pass")
                        }
                    case .gradient: count = gradients.count
                    case .shape(let page, let fieldPage):
                        count = shapes.count
                        if !shapePages.indices.contains(page) { out.append("\(at) samples missing shape page \(page)") }
                        if fieldPage != -1, !shapePages.indices.contains(fieldPage) {
                            out.append("\(at) samples missing field page \(fieldPage)")
                        }
                    }
                    if batch.range.lowerBound < 0 || batch.range.upperBound > count {
                        out.append("\(at) covers \(batch.range) of \(count) instances")
                    }
                }
            }
            drawn.insert(pass.target)
        }
        let clipCount = Float(clips.count)
        func checkClip(_ c: Float, _ what: String) {
            if !(c >= 0 && c < clipCount && c == c.rounded()) { out.append("\(what) has clip index \(c) of \(clips.count)") }
        }
        for (i, b) in boxes.enumerated() { checkClip(b.h1.w, "box \(i)") }
        for (i, m) in images.enumerated() { checkClip(m.h1.w, "image \(i)") }
        for (i, g) in gradients.enumerated() { checkClip(g.h1.w, "gradient \(i)") }
        for (i, s) in shapes.enumerated() { checkClip(s.h1.w, "shape \(i)") }
        for (i, c) in composites.enumerated() { checkClip(c.params.y, "composite \(i)") }
        return out
    }
}

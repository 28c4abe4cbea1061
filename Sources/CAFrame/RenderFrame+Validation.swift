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
            case .filter(let source, let op):
                for t in [source] + op.samples where !drawn.contains(t) || t == pass.target {
                    out.append("pass \(p) filters \(t), which is not drawn before this pass")
                }
            case .copy(let source):
                if !drawn.contains(source) || source == pass.target { out.append("pass \(p) copies \(source) before it is drawn") }
            case .draw(let batches):
                for (b, batch) in batches.enumerated() {
                    let at = "pass \(p) batch \(b)"
                    let count = self.count(of: batch.pipeline.kind)
                    switch batch.pipeline {
                    case .image(let texture, _):
                        if !textures.indices.contains(texture) { out.append("\(at) samples missing texture \(texture)") }
                    case .composite(let source, let mask):
                        for t in [source] + (mask.map { [$0] } ?? []) where !drawn.contains(t) || t == pass.target {
                            out.append("\(at) samples \(t), which is not drawn before this pass")
                        }
                    case .shape(let page, let fieldPage):
                        if !shapePages.indices.contains(page) { out.append("\(at) samples missing shape page \(page)") }
                        if fieldPage != -1, !shapePages.indices.contains(fieldPage) {
                            out.append("\(at) samples missing field page \(fieldPage)")
                        }
                    case .particles(let texture, let count):
                        if !textures.indices.contains(texture) { out.append("\(at) samples missing texture \(texture)") }
                        if count < 0 || batch.range.count != 1 { out.append("\(at) draws \(count) particles of \(batch.range.count) runs") }
                    case .box, .gradient:
                        break
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
        func checkClips<K: InstanceKind>(_ kind: K.Type) {
            for (i, x) in self[keyPath: K.instances].enumerated() { checkClip(x.clipIndex, "\(K.layout.shader) \(i)") }
        }
        for kind in Self.instanceKinds { checkClips(kind) }
        return out
    }
}

import CoreGraphics

extension DrawingProgram {
    /// Runs the program's calls `0..<count` (all by default) on a fresh transparent RGBA8
    /// premultiplied-last `CGContext`; returns its bytes (R, G, B, A; row 0 the top row).
    func runOnCoreGraphics(count: Int? = nil) -> [UInt8] {
        let n = Self.size
        let ctx = CGContext(data: nil, width: n, height: n, bitsPerComponent: 8, bytesPerRow: n * 4,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        for op in ops.prefix(count ?? ops.count) { Self.apply(op, to: ctx) }
        let base = ctx.data!.assumingMemoryBound(to: UInt8.self)
        return Array(UnsafeBufferPointer(start: base, count: n * n * 4))
    }

    static func gradient(_ stops: [Stop]) -> CGGradient {
        var comps: [CGFloat] = []
        for s in stops { comps += [s.rgba.x, s.rgba.y, s.rgba.z, s.rgba.w] }
        let locs = stops.map { CGFloat($0.location) }
        return CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: comps, locations: locs, count: stops.count)!
    }

    static func apply(_ op: Op, to ctx: CGContext) {
        switch op {
        case .setFill(let c): ctx.setFillColor(red: c.x, green: c.y, blue: c.z, alpha: c.w)
        case .setStroke(let c): ctx.setStrokeColor(red: c.x, green: c.y, blue: c.z, alpha: c.w)
        case .alpha(let a): ctx.setAlpha(a)
        case .blend(let m): ctx.setBlendMode(m)
        case .lineWidth(let w): ctx.setLineWidth(w)
        case .cap(let c): ctx.setLineCap(c)
        case .join(let j): ctx.setLineJoin(j)
        case .miterLimit(let m): ctx.setMiterLimit(m)
        case .dash(let phase, let lengths): ctx.setLineDash(phase: phase, lengths: lengths.map { CGFloat($0) })
        case .translate(let x, let y): ctx.translateBy(x: x, y: y)
        case .scale(let x, let y): ctx.scaleBy(x: x, y: y)
        case .rotate(let a): ctx.rotate(by: a)
        case .concat(let t): ctx.concatenate(t)
        case .save: ctx.saveGState()
        case .restore: ctx.restoreGState()
        case .move(let p): ctx.move(to: p)
        case .line(let p): ctx.addLine(to: p)
        case .curve(let c1, let c2, let p): ctx.addCurve(to: p, control1: c1, control2: c2)
        case .quad(let c, let p): ctx.addQuadCurve(to: p, control: c)
        case .arc(let center, let r, let s, let e, let cw):
            ctx.addArc(center: center, radius: r, startAngle: s, endAngle: e, clockwise: cw)
        case .rect(let r): ctx.addRect(r)
        case .ellipse(let r): ctx.addEllipse(in: r)
        case .close: ctx.closePath()
        case .drawPath(let m): ctx.drawPath(using: m)
        case .fillRect(let r): ctx.fill(r)
        case .strokeRect(let r, let w): ctx.stroke(r, width: w)
        case .clipPath(let rule): ctx.clip(using: rule)
        case .clipRect(let r): ctx.clip(to: r)
        case .linearGradient(let stops, let a, let b, let o):
            ctx.drawLinearGradient(gradient(stops), start: a, end: b, options: o)
        case .radialGradient(let stops, let c0, let r0, let c1, let r1, let o):
            ctx.drawRadialGradient(gradient(stops), startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1, options: o)
        case .image(let im, let rect, let nearest):
            let image = CGImage(width: im.width, height: im.height, premultipliedRGBA: im.rgba, alphaInfo: .premultipliedLast,
                                shouldInterpolate: true, intent: .defaultIntent)
            ctx.saveGState()
            ctx.interpolationQuality = nearest ? .none : .default
            ctx.draw(image, in: rect)
            ctx.restoreGState()
        case .beginLayer: ctx.beginTransparencyLayer(auxiliaryInfo: nil)
        case .endLayer: ctx.endTransparencyLayer()
        }
    }
}

import CATestSupport
import CoreGraphics

/// One generated drawing program: a list of `CGContext` calls, each of which has an exact Cairo
/// counterpart (DrawingProgram+Cairo.swift). Coordinates are user-space values in Apple's
/// default space (origin bottom-left, y up); the Cairo side starts from the matrix that flips
/// Cairo's y-down device space into the same space.
struct DrawingProgram: CustomStringConvertible {
    /// Canvas side in pixels (square).
    static let size = 96

    var seed: UInt64
    var ops: [Op]

    /// A sampled image: `width`×`height` premultiplied RGBA8, row 0 the top row.
    struct Image {
        var width: Int
        var height: Int
        var rgba: [UInt8]
    }

    /// A gradient stop (straight-alpha sRGB colour at a location).
    struct Stop {
        var location: Double
        var rgba: SIMD4<Double>
    }

    enum Op {
        case setFill(SIMD4<Double>)
        case setStroke(SIMD4<Double>)
        case alpha(Double)
        case blend(CGBlendMode)
        case lineWidth(Double)
        case cap(CGLineCap)
        case join(CGLineJoin)
        case miterLimit(Double)
        case dash(phase: Double, lengths: [Double])
        case translate(Double, Double)
        case scale(Double, Double)
        case rotate(Double)
        case concat(CGAffineTransform)
        case save
        case restore
        case move(CGPoint)
        case line(CGPoint)
        case curve(CGPoint, CGPoint, CGPoint)
        case quad(CGPoint, CGPoint)
        case arc(center: CGPoint, radius: Double, start: Double, end: Double, clockwise: Bool)
        case rect(CGRect)
        case ellipse(CGRect)
        case close
        case drawPath(CGPathDrawingMode)
        case fillRect(CGRect)
        case strokeRect(CGRect, width: Double)
        case clipPath(CGPathFillRule)
        case clipRect(CGRect)
        case linearGradient([Stop], start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions)
        case radialGradient([Stop], c0: CGPoint, r0: Double, c1: CGPoint, r1: Double, options: CGGradientDrawingOptions)
        case image(Image, in: CGRect, nearest: Bool)
        case beginLayer
        case endLayer
    }

    /// Blend modes Cairo has with the same meaning and the same extent. Left out, with the
    /// reason:
    /// - `sourceIn`, `sourceOut`, `destinationIn`, `destinationAtop`: Cairo's IN, OUT, DEST_IN and
    ///   DEST_ATOP are *unbounded* (they clear the destination outside the shape, cairo_operator_t
    ///   docs), while Core Graphics applies every blend mode only where the shape is drawn
    ///   (Apple's `CGBlendMode` equations are per pixel of the painted area; CGContext+
    ///   Compositing.swift mixes by coverage);
    /// - `plusDarker`: Cairo has no such operator.
    static let sharedBlendModes: [CGBlendMode] = [
        .normal, .multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn, .softLight,
        .hardLight, .difference, .exclusion, .hue, .saturation, .color, .luminosity,
        .clear, .copy, .sourceAtop, .destinationOver, .destinationOut, .xor, .plusLighter,
    ]

    /// The non-separable modes (W3C Compositing §10.2), Cairo's HSL operators.
    static let hslBlendModes: [CGBlendMode] = [.hue, .saturation, .color, .luminosity]

    var description: String {
        "program seed \(seed), \(ops.count) calls:\n" + ops.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
    }
}

extension DrawingProgram.Op: CustomStringConvertible {
    var description: String {
        func p(_ q: CGPoint) -> String { "(\(r(q.x)), \(r(q.y)))" }
        func r(_ v: Double) -> String { String(format: "%.2f", v) }
        func rc(_ q: CGRect) -> String { "CGRect(x: \(r(q.minX)), y: \(r(q.minY)), width: \(r(q.width)), height: \(r(q.height)))" }
        func c(_ v: SIMD4<Double>) -> String { "rgba(\(r(v.x)), \(r(v.y)), \(r(v.z)), \(r(v.w)))" }
        func stops(_ s: [DrawingProgram.Stop]) -> String { s.map { "\(r($0.location)): \(c($0.rgba))" }.joined(separator: ", ") }
        switch self {
        case .setFill(let v): return "setFillColor \(c(v))"
        case .setStroke(let v): return "setStrokeColor \(c(v))"
        case .alpha(let a): return "setAlpha(\(r(a)))"
        case .blend(let m): return "setBlendMode(.\(m))"
        case .lineWidth(let w): return "setLineWidth(\(r(w)))"
        case .cap(let k): return "setLineCap(.\(k))"
        case .join(let k): return "setLineJoin(.\(k))"
        case .miterLimit(let m): return "setMiterLimit(\(r(m)))"
        case .dash(let ph, let l): return "setLineDash(phase: \(r(ph)), lengths: \(l.map(r)))"
        case .translate(let x, let y): return "translateBy(x: \(r(x)), y: \(r(y)))"
        case .scale(let x, let y): return "scaleBy(x: \(r(x)), y: \(r(y)))"
        case .rotate(let a): return "rotate(by: \(r(a)))"
        case .concat(let t): return "concatenate(\([t.a, t.b, t.c, t.d, t.tx, t.ty].map(r)))"
        case .save: return "saveGState()"
        case .restore: return "restoreGState()"
        case .move(let q): return "move(to: \(p(q)))"
        case .line(let q): return "addLine(to: \(p(q)))"
        case .curve(let a, let b, let e): return "addCurve(to: \(p(e)), control1: \(p(a)), control2: \(p(b)))"
        case .quad(let a, let e): return "addQuadCurve(to: \(p(e)), control: \(p(a)))"
        case .arc(let ce, let ra, let s, let e, let cw):
            return "addArc(center: \(p(ce)), radius: \(r(ra)), startAngle: \(r(s)), endAngle: \(r(e)), clockwise: \(cw))"
        case .rect(let q): return "addRect(\(rc(q)))"
        case .ellipse(let q): return "addEllipse(in: \(rc(q)))"
        case .close: return "closePath()"
        case .drawPath(let m): return "drawPath(using: .\(m))"
        case .fillRect(let q): return "fill(\(rc(q)))"
        case .strokeRect(let q, let w): return "stroke(\(rc(q)), width: \(r(w)))"
        case .clipPath(let rule): return "clip(using: .\(rule))"
        case .clipRect(let q): return "clip(to: \(rc(q)))"
        case .linearGradient(let s, let a, let b, let o):
            return "drawLinearGradient([\(stops(s))], start: \(p(a)), end: \(p(b)), options: \(o.rawValue))"
        case .radialGradient(let s, let c0, let r0, let c1, let r1, let o):
            return "drawRadialGradient([\(stops(s))], startCenter: \(p(c0)), startRadius: \(r(r0)), endCenter: \(p(c1)), endRadius: \(r(r1)), options: \(o.rawValue))"
        case .image(let im, let q, let n): return "draw(image \(im.width)×\(im.height), in: \(rc(q))) interpolation \(n ? ".none" : ".default")"
        case .beginLayer: return "beginTransparencyLayer(auxiliaryInfo: nil)"
        case .endLayer: return "endTransparencyLayer()"
        }
    }
}

/// Builds programs from a seed. Every choice comes from `SplitMix64`, so a seed names a program.
struct ProgramGenerator {
    var rng: SplitMix64
    let seed: UInt64
    /// What is open, innermost last: saves and transparency layers must close in order (Cairo's
    /// groups save and restore its state, so they nest with `cairo_save`/`cairo_restore`).
    private var open: [Bool] = []  // true: a transparency layer
    /// The blend modes programs may set.
    var blendModes = DrawingProgram.sharedBlendModes
    /// Whether the program began by filling the canvas with an opaque colour.
    private var opaqueBackground = false

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(state: seed)
    }

    mutating func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
    mutating func range(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    mutating func pick<T>(_ xs: [T]) -> T { xs[rng.int(xs.count)] }

    /// A point in the canvas with some margin outside it.
    mutating func point() -> CGPoint {
        let s = Double(DrawingProgram.size)
        return CGPoint(x: range(-0.1 * s, 1.1 * s), y: range(-0.1 * s, 1.1 * s))
    }
    mutating func rect() -> CGRect {
        let s = Double(DrawingProgram.size)
        return CGRect(x: range(-0.1 * s, 0.8 * s), y: range(-0.1 * s, 0.8 * s), width: range(4, 0.6 * s), height: range(4, 0.6 * s))
    }
    mutating func color(opaque: Bool = false) -> SIMD4<Double> {
        SIMD4(unit(), unit(), unit(), opaque || chance(0.5) ? 1 : range(0.2, 1))
    }

    /// A path of one or two subpaths, each a shape of its own size somewhere on the canvas
    /// (a rect, an ellipse, an arc, or a polygon of lines and curves around a centre), as drawing
    /// code builds them; points stray a little outside the canvas.
    mutating func path() -> [DrawingProgram.Op] {
        var ops: [DrawingProgram.Op] = []
        let s = Double(DrawingProgram.size)
        for _ in 0..<(1 + rng.int(2)) {
            switch rng.int(5) {
            case 0: ops.append(.rect(rect()))
            case 1: ops.append(.ellipse(rect()))
            case 2:
                let a0 = range(-3.2, 3.2)
                // Sweeps short of a whole turn (the full-circle rule has tests of its own).
                let sweep = range(0.3, 6.0)
                let cw = chance(0.5)
                let c = CGPoint(x: range(0.2 * s, 0.8 * s), y: range(0.2 * s, 0.8 * s))
                if chance(0.5) { ops.append(.move(c)) }
                ops.append(.arc(center: c, radius: range(4, 0.4 * s), start: a0, end: cw ? a0 - sweep : a0 + sweep, clockwise: cw))
                if chance(0.6) { ops.append(.close) }
            default:
                let c = CGPoint(x: range(0.1 * s, 0.9 * s), y: range(0.1 * s, 0.9 * s))
                let r = range(6, 0.4 * s)
                func near() -> CGPoint { CGPoint(x: c.x + range(-r, r), y: c.y + range(-r, r)) }
                ops.append(.move(near()))
                for _ in 0..<(1 + rng.int(4)) {
                    switch rng.int(3) {
                    case 0: ops.append(.line(near()))
                    case 1: ops.append(.curve(near(), near(), near()))
                    default: ops.append(.quad(near(), near()))
                    }
                }
                if chance(0.7) { ops.append(.close) }
            }
        }
        return ops
    }

    mutating func stops() -> [DrawingProgram.Stop] {
        let n = 2 + rng.int(3)
        var locs = (0..<n).map { _ in unit() }.sorted()
        if chance(0.5) { locs[0] = 0; locs[n - 1] = 1 }
        // Stops are opaque or all share one alpha: see `CairoDifferentialTests` for why.
        let alpha = chance(0.7) ? 1 : range(0.3, 1)
        return locs.map { DrawingProgram.Stop(location: $0, rgba: SIMD4(unit(), unit(), unit(), alpha)) }
    }

    mutating func image() -> DrawingProgram.Image {
        let w = 2 + rng.int(10), h = 2 + rng.int(10)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(w * h * 4)
        let translucent = chance(0.3)
        for _ in 0..<(w * h) {
            let a = translucent ? UInt8(rng.int(256)) : 255
            for _ in 0..<3 { bytes.append(UInt8(Int(a) * rng.int(256) / 255)) }
            bytes.append(a)
        }
        return DrawingProgram.Image(width: w, height: h, rgba: bytes)
    }

    mutating func stateChange() -> DrawingProgram.Op {
        switch rng.int(14) {
        case 0, 1: return .setFill(color())
        case 2: return .setStroke(color())
        case 3: return .alpha(chance(0.5) ? 1 : range(0.2, 1))
        case 4:
            let mode = chance(0.4) ? .normal : pick(blendModes)
            // Pixman 0.42 (Cairo's compositor) writes invalid premultiplied pixels (colour above
            // alpha) for its HSL operators where the destination is transparent (seen with
            // luminosity and saturation); those modes are compared over an opaque destination only.
            if DrawingProgram.hslBlendModes.contains(mode), !opaqueBackground || open.contains(true) { return .blend(.normal) }
            return .blend(mode)
        case 5: return .lineWidth(range(0.5, 12))
        case 6: return .cap(pick([.butt, .round, .square]))
        case 7: return .join(pick([.miter, .round, .bevel]))
        case 8: return .miterLimit(range(1, 12))
        case 9:
            if chance(0.3) { return .dash(phase: 0, lengths: []) }
            let n = 1 + rng.int(4)
            return .dash(phase: range(0, 10), lengths: (0..<n).map { _ in range(1, 12) })
        case 10: return .translate(range(-20, 20), range(-20, 20))
        case 11: return .scale(range(0.5, 1.6) * (chance(0.15) ? -1 : 1), range(0.5, 1.6))
        case 12: return .rotate(range(-1, 1))
        default:
            return .concat(CGAffineTransform(a: range(0.6, 1.3), b: range(-0.4, 0.4), c: range(-0.4, 0.4),
                                             d: range(0.6, 1.3), tx: range(-10, 10), ty: range(-10, 10)))
        }
    }

    mutating func paint() -> [DrawingProgram.Op] {
        switch rng.int(12) {
        case 0, 1, 2: return path() + [.drawPath(pick([.fill, .eoFill]))]
        case 3, 4: return path() + [.drawPath(.stroke)]
        case 5: return path() + [.drawPath(pick([.fillStroke, .eoFillStroke]))]
        case 6: return [.fillRect(rect())]
        case 7: return [.strokeRect(rect(), width: range(0.5, 8))]
        case 8: return [.linearGradient(stops(), start: point(), end: point(), options: options())]
        case 9:
            // The start circle inside the end circle: the PDF radial shading both follow then
            // has one well-defined t per point (cone cases are compared elsewhere).
            let s = Double(DrawingProgram.size)
            let c1 = CGPoint(x: range(0.2 * s, 0.8 * s), y: range(0.2 * s, 0.8 * s))
            let r1 = range(10, 0.6 * s)
            let r0 = range(0, 0.5 * r1)
            let off = (r1 - r0) * 0.5
            let c0 = CGPoint(x: c1.x + range(-off, off) * 0.7, y: c1.y + range(-off, off) * 0.7)
            return [.radialGradient(stops(), c0: c0, r0: r0, c1: c1, r1: r1, options: options())]
        default:
            return [.image(image(), in: rect(), nearest: chance(0.5))]
        }
    }

    mutating func options() -> CGGradientDrawingOptions {
        var o: CGGradientDrawingOptions = []
        if chance(0.5) { o.insert(.drawsBeforeStartLocation) }
        if chance(0.5) { o.insert(.drawsAfterEndLocation) }
        return o
    }

    /// A program of a few state changes, clips, saves, layers and paints.
    mutating func program() -> DrawingProgram {
        var ops: [DrawingProgram.Op] = []
        if chance(0.4) {
            opaqueBackground = true
            ops += [.setFill(color(opaque: true)), .fillRect(CGRect(x: 0, y: 0, width: DrawingProgram.size, height: DrawingProgram.size))]
        }
        ops += [.setFill(color()), .setStroke(color())]
        let steps = 4 + rng.int(8)
        for _ in 0..<steps {
            switch rng.int(10) {
            case 0, 1, 2: ops.append(stateChange())
            case 3:
                if chance(0.5) { ops.append(contentsOf: path() + [.clipPath(pick([.winding, .evenOdd]))]) } else { ops.append(.clipRect(rect())) }
            case 4:
                if !open.isEmpty, chance(0.5) {
                    ops.append(open.removeLast() ? .endLayer : .restore)
                } else if chance(0.7) {
                    open.append(false); ops.append(.save)
                } else {
                    open.append(true); ops.append(.beginLayer)
                }
            default: ops.append(contentsOf: paint())
            }
        }
        while let layer = open.popLast() { ops.append(layer ? .endLayer : .restore) }
        return DrawingProgram(seed: seed, ops: ops)
    }
}

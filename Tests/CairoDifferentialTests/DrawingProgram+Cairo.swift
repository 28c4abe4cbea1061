import CCairo
import CoreGraphics

/// The same programs through Cairo's image backend (ARGB32, premultiplied, native-endian words:
/// B, G, R, A bytes on the little-endian machines this runs on).
///
/// What maps how:
/// - Space: the initial matrix is (1, 0, 0, −1, 0, size), so user space is Apple's default space
///   (origin bottom-left, y up). Both libraries then compose transforms the same way
///   (`translateBy` ≙ `cairo_translate`, …), store the path in device space as it is built, and
///   stroke with the pen of the CTM in force at the stroke.
/// - Core Graphics keeps separate fill and stroke colours and a global alpha in its graphics
///   state; Cairo has one source and no global alpha. This runner keeps those three and the blend
///   mode in its own stack beside `cairo_save`/`cairo_restore` and sets the source (colour × alpha)
///   and operator before each paint.
/// - `addArc(clockwise: false)` sweeps toward increasing angles, which is `cairo_arc`; `true` is
///   `cairo_arc_negative` (CGPath+Arcs.swift). `addEllipse(in:)` and `addRect` start where Apple's
///   do and turn the same way (`cairo_arc` from angle 0 on a scaled unit circle;
///   `cairo_rectangle` from the bottom-left corner, counter-clockwise in y-up space), which
///   matters for the non-zero rule where subpaths overlap.
/// - Quadratic curves become the cubic with the same points (Cairo has no quadratic segment).
/// - Transparency layers: `cairo_push_group` (which saves Cairo's state, as Apple's layer saves the
///   graphics state) with alpha 1 and normal blending inside; at the end `cairo_pop_group_to_source`
///   and a paint with the alpha and operator of the state the layer began in.
/// - Gradients: the options map to `CAIRO_EXTEND_PAD` or `CAIRO_EXTEND_NONE`; Cairo has one
///   extend for both ends, so a gradient with one option is stretched on that side (`extent`).
/// - Images: a surface pattern mapped onto the rect (flipped, since image rows run top-down),
///   `CAIRO_FILTER_NEAREST` or `CAIRO_FILTER_BILINEAR` with `CAIRO_EXTEND_PAD` (Core Graphics
///   clamps at the edges), filling the rect.
extension DrawingProgram {
    private struct CairoState {
        var fill = SIMD4<Double>(0, 0, 0, 1)
        var stroke = SIMD4<Double>(0, 0, 0, 1)
        var alpha = 1.0
        var op = CAIRO_OPERATOR_OVER
    }

    static func cairoOperator(_ mode: CGBlendMode) -> cairo_operator_t {
        switch mode {
        case .normal: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: CAIRO_OPERATOR_CLEAR
        case .copy: CAIRO_OPERATOR_SOURCE
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .xor: CAIRO_OPERATOR_XOR
        case .plusLighter: CAIRO_OPERATOR_ADD
        default: fatalError("no Cairo operator for \(mode) (the generator does not use it)")
        }
    }

    /// Runs calls `0..<count` (all by default) through Cairo; returns R, G, B, A bytes (row 0 the
    /// top row), the layout `runOnCoreGraphics` returns.
    func runOnCairo(count: Int? = nil) -> [UInt8] {
        let n = Self.size
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(n), Int32(n))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        var flip = cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: -1, x0: 0, y0: Double(n))
        cairo_set_matrix(cr, &flip)
        // Flatten curves and arcs to 0.01 device pixel, as CGContext does (Cairo's default 0.1).
        cairo_set_tolerance(cr, 0.01)
        // Apple's default line width is 1 (Cairo's 2); caps, joins and the miter limit (10) agree.
        cairo_set_line_width(cr, 1)
        var state = CairoState()
        var stack: [CairoState] = []
        var images: [OpaquePointer] = []
        defer { images.forEach { cairo_surface_destroy($0) } }

        /// Paints a gradient pattern over the clip with the state's alpha and operator.
        func paint(_ stops: [Stop], _ ext: cairo_extend_t, _ pattern: OpaquePointer) {
            defer { cairo_pattern_destroy(pattern) }
            for s in stops { cairo_pattern_add_color_stop_rgba(pattern, s.location, s.rgba.x, s.rgba.y, s.rgba.z, s.rgba.w) }
            cairo_pattern_set_extend(pattern, ext)
            cairo_new_path(cr)
            cairo_set_operator(cr, state.op)
            cairo_set_source(cr, pattern)
            cairo_paint_with_alpha(cr, state.alpha)
        }

        func setSource(_ c: SIMD4<Double>) {
            cairo_set_source_rgba(cr, c.x, c.y, c.z, c.w * state.alpha)
            cairo_set_operator(cr, state.op)
        }

        for op in ops.prefix(count ?? ops.count) {
            switch op {
            case .setFill(let c): state.fill = c
            case .setStroke(let c): state.stroke = c
            case .alpha(let a): state.alpha = a
            case .blend(let m): state.op = Self.cairoOperator(m)
            case .lineWidth(let w): cairo_set_line_width(cr, w)
            case .cap(let c):
                cairo_set_line_cap(cr, c == .butt ? CAIRO_LINE_CAP_BUTT : c == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE)
            case .join(let j):
                cairo_set_line_join(cr, j == .miter ? CAIRO_LINE_JOIN_MITER : j == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL)
            case .miterLimit(let m): cairo_set_miter_limit(cr, m)
            case .dash(let phase, let lengths): cairo_set_dash(cr, lengths, Int32(lengths.count), phase)
            case .translate(let x, let y): cairo_translate(cr, x, y)
            case .scale(let x, let y): cairo_scale(cr, x, y)
            case .rotate(let a): cairo_rotate(cr, a)
            case .concat(let t):
                var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
                cairo_transform(cr, &m)
            case .save:
                stack.append(state); cairo_save(cr)
            case .restore:
                state = stack.removeLast(); cairo_restore(cr)
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .curve(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .quad(let c, let p):
                var x0 = 0.0, y0 = 0.0
                if cairo_has_current_point(cr) != 0 { cairo_get_current_point(cr, &x0, &y0) } else { x0 = c.x; y0 = c.y; cairo_move_to(cr, c.x, c.y) }
                cairo_curve_to(cr, x0 + 2 / 3 * (c.x - x0), y0 + 2 / 3 * (c.y - y0),
                               p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
            case .arc(let c, let r, let s, let e, let cw):
                if cw { cairo_arc_negative(cr, c.x, c.y, r, s, e) } else { cairo_arc(cr, c.x, c.y, r, s, e) }
            case .rect(let r): cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
            case .ellipse(let r):
                cairo_save(cr)
                cairo_translate(cr, r.midX, r.midY)
                cairo_scale(cr, r.width / 2, r.height / 2)
                cairo_new_sub_path(cr)
                cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
                cairo_close_path(cr)
                cairo_restore(cr)
            case .close: cairo_close_path(cr)
            case .drawPath(let mode):
                let fills = mode != .stroke, strokes = mode == .stroke || mode == .fillStroke || mode == .eoFillStroke
                if fills {
                    cairo_set_fill_rule(cr, mode == .eoFill || mode == .eoFillStroke ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                    setSource(state.fill)
                    cairo_fill_preserve(cr)
                }
                if strokes { setSource(state.stroke); cairo_stroke_preserve(cr) }
                cairo_new_path(cr)
            case .fillRect(let r):
                // The current path is kept by Apple's rect calls; nothing in a program builds a
                // path across a paint, so a fresh path is enough here.
                cairo_new_path(cr)
                cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                setSource(state.fill)
                cairo_fill(cr)
            case .strokeRect(let r, let w):
                cairo_new_path(cr)
                cairo_save(cr)
                cairo_set_line_width(cr, w)
                cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
                setSource(state.stroke)
                cairo_stroke(cr)
                cairo_restore(cr)
            case .clipPath(let rule):
                cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                cairo_clip(cr)
            case .clipRect(let r):
                cairo_new_path(cr)
                cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                cairo_clip(cr)
            case .linearGradient(let stops, let a, let b, let o):
                let (ext, span) = Self.extent(o, k: 1 + 400 / max(hypot(b.x - a.x, b.y - a.y), 1e-6))
                let pa = a + (b - a) * span.lowerBound, pb = a + (b - a) * span.upperBound
                paint(Self.remapped(stops, span), ext, cairo_pattern_create_linear(pa.x, pa.y, pb.x, pb.y)!)
            case .radialGradient(let stops, let c0, let r0, let c1, let r1, let o):
                // Start circle inside the end circle with r1 > r0 (the generator's rule), so
                // t < 0 reaches radius 0 at t = −r0 / (r1 − r0).
                var (ext, span) = Self.extent(o, k: 1 + 400 / max(r1 - r0, 1e-6))
                if span.lowerBound < 0 { span = (-r0 / (r1 - r0))...span.upperBound }
                let pa = c0 + (c1 - c0) * span.lowerBound, pb = c0 + (c1 - c0) * span.upperBound
                let ra = r0 + (r1 - r0) * span.lowerBound, rb = r0 + (r1 - r0) * span.upperBound
                paint(Self.remapped(stops, span), ext, cairo_pattern_create_radial(pa.x, pa.y, ra, pb.x, pb.y, rb)!)
            case .image(let im, let rect, let nearest):
                var bgra = [UInt8](repeating: 0, count: im.width * im.height * 4)
                for i in 0..<(im.width * im.height) {
                    bgra[i * 4] = im.rgba[i * 4 + 2]; bgra[i * 4 + 1] = im.rgba[i * 4 + 1]
                    bgra[i * 4 + 2] = im.rgba[i * 4]; bgra[i * 4 + 3] = im.rgba[i * 4 + 3]
                }
                let img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(im.width), Int32(im.height))!
                images.append(img)
                cairo_surface_flush(img)
                let stride = Int(cairo_image_surface_get_stride(img))
                let dst = cairo_image_surface_get_data(img)!
                for y in 0..<im.height {
                    for x in 0..<(im.width * 4) { dst[y * stride + x] = bgra[y * im.width * 4 + x] }
                }
                cairo_surface_mark_dirty(img)
                cairo_new_path(cr)
                cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
                // User space → image pixels (u right, v down from the top row), the rect upright.
                let sx = Double(im.width) / rect.width, sy = Double(im.height) / rect.height
                let pattern = cairo_pattern_create_for_surface(img)!
                defer { cairo_pattern_destroy(pattern) }
                var m = cairo_matrix_t(xx: sx, yx: 0, xy: 0, yy: -sy, x0: -rect.minX * sx, y0: rect.maxY * sy)
                cairo_pattern_set_matrix(pattern, &m)
                cairo_pattern_set_filter(pattern, nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                cairo_set_source(cr, pattern)
                cairo_set_operator(cr, state.op)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                if state.alpha < 1 {
                    cairo_save(cr)
                    cairo_clip(cr)
                    cairo_paint_with_alpha(cr, state.alpha)
                    cairo_restore(cr)
                } else {
                    cairo_fill(cr)
                }
            case .beginLayer:
                stack.append(state)
                cairo_push_group(cr)
                state.alpha = 1
                state.op = CAIRO_OPERATOR_OVER
            case .endLayer:
                cairo_pop_group_to_source(cr)
                state = stack.removeLast()
                cairo_set_operator(cr, state.op)
                cairo_paint_with_alpha(cr, state.alpha)
            }
        }
        precondition(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "cairo: \(String(cString: cairo_status_to_string(cairo_status(cr))))")
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var out = [UInt8](repeating: 0, count: n * n * 4)
        for y in 0..<n {
            for x in 0..<n {
                let s = y * stride + x * 4, d = (y * n + x) * 4
                out[d] = data[s + 2]; out[d + 1] = data[s + 1]; out[d + 2] = data[s]; out[d + 3] = data[s + 3]
            }
        }
        return out
    }

    /// Apple extends each end of a gradient on its own; Cairo's extend covers both ends. Equal
    /// options map to `CAIRO_EXTEND_PAD` or `CAIRO_EXTEND_NONE`; with exactly one, the gradient's
    /// parameter range is stretched on that side to `k` (far past the canvas) and drawn with
    /// `CAIRO_EXTEND_NONE`, the end colour held over the stretch. Returns the extend and the t
    /// range the Cairo pattern's 0…1 stands for.
    static func extent(_ o: CGGradientDrawingOptions, k: Double) -> (cairo_extend_t, ClosedRange<Double>) {
        let before = o.contains(.drawsBeforeStartLocation), after = o.contains(.drawsAfterEndLocation)
        if before == after { return (before ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE, 0...1) }
        return (CAIRO_EXTEND_NONE, before ? (1 - k)...1 : 0...k)
    }

    /// The stops of a gradient whose 0…1 is stretched to `span`, with the end colours held from
    /// 0 to the first stop and from the last stop to 1, as Apple's gradients hold them (pixman,
    /// under `CAIRO_EXTEND_NONE`, is transparent before the first and after the last stop).
    static func remapped(_ stops: [Stop], _ span: ClosedRange<Double>) -> [Stop] {
        let w = span.upperBound - span.lowerBound
        var out = stops.map { Stop(location: ($0.location - span.lowerBound) / w, rgba: $0.rgba) }
        if out[0].location > 0 { out.insert(Stop(location: 0, rgba: stops[0].rgba), at: 0) }
        if out[out.count - 1].location < 1 { out.append(Stop(location: 1, rgba: stops[stops.count - 1].rgba)) }
        return out
    }
}

private func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
private func * (a: CGPoint, k: Double) -> CGPoint { CGPoint(x: a.x * k, y: a.y * k) }

import Foundation

/// The paths of SVG's basic shapes, with the start points and directions SVG 2 §10 gives them
/// (they decide where dashes start): a rectangle starts at (x + rx, y) and runs toward +x; a
/// circle or ellipse starts at (cx + rx, cy) and turns toward +y; polylines and polygons follow
/// their points. Shapes with zero or negative size draw nothing (SVG 2 §10.2–10.4).
enum SVGShapeGeometry {
    struct Context {
        var viewport: CGSize
        var fontSize: Double
        var log: SVGIssueLog
        var limits: SVGImportLimits
    }

    static func length(_ e: SVGElement, _ name: String, _ axis: SVGLength.Axis, _ ctx: Context, default d: Double = 0) -> Double {
        guard let raw = e.attributes[name] else { return d }
        guard let l = SVGLength.parse(raw) else {
            ctx.log.add(.invalidValue, "\(name)=\"\(raw)\"", "not a length; \(d) used")
            return d
        }
        let v = l.resolve(axis, viewport: ctx.viewport, fontSize: ctx.fontSize)
        let m = Double(ctx.limits.maxCoordinate)
        if abs(v) > m {
            ctx.log.add(.limitReached, "\(name)=\"\(raw)\"", "clamped to ±\(m)")
            return v < 0 ? -m : m
        }
        return v
    }

    /// The element's geometry in its user space, or nil when it draws nothing.
    static func path(for e: SVGElement, _ ctx: Context) -> CGPath? {
        switch e.name {
        case "path":
            guard let d = e.attributes["d"] else { return nil }
            let r = SVGPathParser.parse(d, maxSegments: ctx.limits.maxPathSegments, maxCoordinate: Double(ctx.limits.maxCoordinate))
            if let err = r.error {
                ctx.log.add(r.truncated ? .limitReached : .invalidValue, "path data", "\(err); drawn up to the last complete command (SVG 2 §9.5.4)")
            }
            if r.clamped { ctx.log.add(.limitReached, "path coordinates", "values beyond ±\(ctx.limits.maxCoordinate) clamped") }
            return r.path.isEmpty ? nil : r.path
        case "rect":
            let x = length(e, "x", .x, ctx), y = length(e, "y", .y, ctx)
            let w = length(e, "width", .x, ctx), h = length(e, "height", .y, ctx)
            guard w > 0, h > 0 else { return nil }
            // rx/ry: a missing or invalid one takes the other's value ("auto", SVG 2 §10.2),
            // both clamped to half the side.
            var rx = e.attributes["rx"].flatMap { SVGLength.parse($0) }.map { $0.resolve(.x, viewport: ctx.viewport, fontSize: ctx.fontSize) }
            var ry = e.attributes["ry"].flatMap { SVGLength.parse($0) }.map { $0.resolve(.y, viewport: ctx.viewport, fontSize: ctx.fontSize) }
            if let v = rx, v < 0 { rx = nil }
            if let v = ry, v < 0 { ry = nil }
            let rxv = min(rx ?? ry ?? 0, w / 2), ryv = min(ry ?? rx ?? 0, h / 2)
            let p = CGMutablePath()
            if rxv <= 0 || ryv <= 0 {
                p.move(to: CGPoint(x: x, y: y))
                p.addLine(to: CGPoint(x: x + w, y: y))
                p.addLine(to: CGPoint(x: x + w, y: y + h))
                p.addLine(to: CGPoint(x: x, y: y + h))
                p.closeSubpath()
                return p
            }
            func arc(_ from: CGPoint, _ to: CGPoint) {
                SVGArc.append(to: p, from: from, to: to, rx: rxv, ry: ryv, xAxisRotation: 0, largeArc: false, sweep: true)
            }
            p.move(to: CGPoint(x: x + rxv, y: y))
            p.addLine(to: CGPoint(x: x + w - rxv, y: y))
            arc(CGPoint(x: x + w - rxv, y: y), CGPoint(x: x + w, y: y + ryv))
            p.addLine(to: CGPoint(x: x + w, y: y + h - ryv))
            arc(CGPoint(x: x + w, y: y + h - ryv), CGPoint(x: x + w - rxv, y: y + h))
            p.addLine(to: CGPoint(x: x + rxv, y: y + h))
            arc(CGPoint(x: x + rxv, y: y + h), CGPoint(x: x, y: y + h - ryv))
            p.addLine(to: CGPoint(x: x, y: y + ryv))
            arc(CGPoint(x: x, y: y + ryv), CGPoint(x: x + rxv, y: y))
            p.closeSubpath()
            return p
        case "circle", "ellipse":
            let cx = length(e, "cx", .x, ctx), cy = length(e, "cy", .y, ctx)
            var rx: Double, ry: Double
            if e.name == "circle" {
                rx = length(e, "r", .other, ctx); ry = rx
            } else {
                let hasRx = e.attributes["rx"].flatMap(SVGLength.parse) != nil
                let hasRy = e.attributes["ry"].flatMap(SVGLength.parse) != nil
                rx = length(e, "rx", .x, ctx); ry = length(e, "ry", .y, ctx)
                if !hasRx, hasRy { rx = ry }   // SVG 2 "auto"
                if !hasRy, hasRx { ry = rx }
            }
            guard rx > 0, ry > 0 else { return nil }
            let p = CGMutablePath()
            let pts = [CGPoint(x: cx + rx, y: cy), CGPoint(x: cx, y: cy + ry), CGPoint(x: cx - rx, y: cy),
                       CGPoint(x: cx, y: cy - ry), CGPoint(x: cx + rx, y: cy)]
            p.move(to: pts[0])
            for i in 0..<4 {
                SVGArc.append(to: p, from: pts[i], to: pts[i + 1], rx: rx, ry: ry, xAxisRotation: 0, largeArc: false, sweep: true)
            }
            p.closeSubpath()
            return p
        case "line":
            let p = CGMutablePath()
            p.move(to: CGPoint(x: length(e, "x1", .x, ctx), y: length(e, "y1", .y, ctx)))
            p.addLine(to: CGPoint(x: length(e, "x2", .x, ctx), y: length(e, "y2", .y, ctx)))
            return p
        case "polyline", "polygon":
            guard let raw = e.attributes["points"] else { return nil }
            var (nums, complete) = SVGScanner.numberList(raw)
            if !complete || nums.count % 2 == 1 {
                ctx.log.add(.invalidValue, "points", "malformed list; drawn up to the last complete pair")
                if nums.count % 2 == 1 { nums.removeLast() }
            }
            guard nums.count >= 4 else { return nil }
            let m = Double(ctx.limits.maxCoordinate)
            let p = CGMutablePath()
            for k in stride(from: 0, to: nums.count, by: 2) {
                let pt = CGPoint(x: min(max(nums[k], -m), m), y: min(max(nums[k + 1], -m), m))
                if k == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
            }
            if e.name == "polygon" { p.closeSubpath() }
            return p
        default:
            return nil
        }
    }
}

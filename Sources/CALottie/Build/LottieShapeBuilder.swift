import Foundation
import CoreGraphics

/// Turns a shape layer's items into layers, following After Effects' rules as lottie-web and
/// lottie-ios apply them: items are listed front to back; a fill, stroke or gradient paints
/// every path listed above it in its group and in the groups above it; a trim path or rounded
/// corners modifies the paths above it; a group's `tr` transforms its contents; a repeater
/// copies what is above it. Each paint becomes one `CAShapeLayer` (or a `CAGradientLayer`
/// masked by one) with the paths it paints, animated by `CAKeyframeAnimation`s.
final class LottieShapeBuilder {
    let factory: LottieAnimationFactory
    let log: LottieIssueLog
    let limits: LottieLimits
    let time: LottieLayerTime
    var itemBudget: Int
    /// The key path names of the group being built (the layer's, then its groups').
    var namePath: [String] = []
    /// While a fill of merged paths in mode 2 (add) is built: each path item is turned to a
    /// positive area (LottieMergePaths).
    private var orientsPaths = false

    init(factory: LottieAnimationFactory, log: LottieIssueLog, limits: LottieLimits, time: LottieLayerTime, itemBudget: Int) {
        self.factory = factory; self.log = log; self.limits = limits; self.time = time; self.itemBudget = itemBudget
    }

    struct Trim {
        var start: LVector?, end: LVector?, offset: LVector?
        var individually: Bool
    }

    /// Layers for `items`, back to front.
    func build(_ items: [LottieShapeItem], inheritedStyles: [LottieShapeItem] = [], inheritedTrims: [Trim] = [],
               inheritedRound: LVector? = nil, inheritedStylePaths: [[String]] = []) throws -> [CALayer] {
        // Each inherited style's key path (where it was declared), parallel to inheritedStyles.
        let inheritedStylePaths = inheritedStylePaths.count == inheritedStyles.count ? inheritedStylePaths : inheritedStyles.map { namePath + [$0.name] }
        itemBudget -= items.count
        guard itemBudget >= 0 else { throw LottieError.limitExceeded("more than \(limits.maxShapeItems) shape items") }
        let items = items.filter { !$0.hidden }
        // A repeater copies everything above it.
        if let r = items.firstIndex(where: { if case .repeater = $0.kind { return true }; return false }) {
            let above = Array(items[..<r]), below = Array(items[(r + 1)...])
            let belowStyles = below.filter(\.isStyle) + inheritedStyles
            let belowPaths = below.filter(\.isStyle).map { namePath + [$0.name] } + inheritedStylePaths
            let belowTrims = below.compactMap(\.trim) + inheritedTrims
            let copied = try build(above, inheritedStyles: belowStyles, inheritedTrims: belowTrims, inheritedRound: inheritedRound,
                                   inheritedStylePaths: belowPaths)
            let rest = try build(below.filter { !$0.isStyle }, inheritedStyles: [], inheritedTrims: inheritedTrims, inheritedRound: inheritedRound)
            return rest + [repeater(items[r], copied)]
        }
        var trims = items.compactMap(\.trim)
        var round = inheritedRound
        for it in items { if case .roundedCorners(let r) = it.kind { round = r } }
        for it in items {
            if case .unknown(let ty) = it.kind { log.add(.unsupported, "shape item \(ty)", "skipped") }
        }
        let merge = mergePaths(in: items)
        var layers: [CALayer] = []
        let directPaths = items.enumerated().filter { $0.element.isPath }
        // Styles inherited from below this group paint this group's paths, behind its own.
        for (style, path) in zip(inheritedStyles, inheritedStylePaths).reversed() {
            layers += paint(style, paths: directPaths.map(\.element), trims: inheritedTrims + trims, round: round, keyPath: path,
                            merge: merge?.mode)
        }
        trims = inheritedTrims + trims
        for index in items.indices.reversed() {
            let item = items[index]
            if item.isStyle {
                let paths = directPaths.filter { $0.offset < index }.map(\.element)
                layers += paint(item, paths: paths, trims: trims, round: round, keyPath: namePath + [item.name],
                                merge: merge.flatMap { $0.index < index ? $0.mode : nil })
            } else if case .group(let children) = item.kind {
                let below = items[(index + 1)...]
                let styles = below.filter(\.isStyle) + inheritedStyles
                let stylePaths = below.filter(\.isStyle).map { namePath + [$0.name] } + inheritedStylePaths
                let groupTrims = below.compactMap(\.trim) + inheritedTrims
                layers += try group(children, name: item.name, styles: Array(styles), trims: groupTrims, round: round, stylePaths: stylePaths)
            }
        }
        return layers
    }

    private func group(_ children: [LottieShapeItem], name: String, styles: [LottieShapeItem], trims: [Trim], round: LVector?,
                       stylePaths: [[String]]) throws -> [CALayer] {
        let visible = children.filter { !$0.hidden }
        var transform = LottieTransformModel()
        for c in visible { if case .transform(let t) = c.kind { transform = t } }
        let t = LottieTransformLayers(transform, time: time, includeOpacity: true, factory: factory, log: log, what: "group \"\(name)\"")
        let outerPath = namePath
        namePath.append(name)
        defer { namePath = outerPath }
        factory.targets?.addTransform(namePath, t)
        for l in try build(visible, inheritedStyles: styles, inheritedTrims: trims, inheritedRound: round, inheritedStylePaths: stylePaths) {
            t.inner.addSublayer(l)
        }
        return [t.outer]
    }

    // MARK: Merge paths

    /// The merge paths item (`mm`) of a group's items: its index and mode, with an issue for
    /// what is not reproduced (LottieMergePaths explains which modes are, and how).
    private func mergePaths(in items: [LottieShapeItem]) -> (index: Int, mode: Int)? {
        let merges = items.enumerated().compactMap { e -> (index: Int, mode: Int)? in
            if case .merge(let mode) = e.element.kind { return (e.offset, mode) }
            return nil
        }
        guard let m = merges.last else { return nil }
        if merges.count > 1 { log.add(.approximated, "several merge paths in one group", "only the last one's mode is applied") }
        switch m.mode {
        case 1, 2, 5: break
        case 3: log.add(.unsupported, "merge paths mode 3 (subtract)", "the paths are drawn unmerged, as lottie-ios draws them")
        case 4: log.add(.unsupported, "merge paths mode 4 (intersect)", "the paths are drawn unmerged, as lottie-ios draws them")
        default: log.add(.invalidValue, "merge paths mode \(m.mode)", "drawn as mode 1 (merge)")
        }
        if items[..<m.index].contains(where: { if case .group = $0.kind { return true }; return false }) {
            log.add(.approximated, "merge paths over groups", "the groups' own paths are painted by their own layers, unmerged")
        }
        return m
    }

    // MARK: Paths

    private func track(of item: LottieShapeItem, round: LVector?) -> LottieKeyTrack {
        switch item.kind {
        case .path(let p): return p.track()
        case let .rectangle(p, s, r): return .combined([p.track(), s.track(), r.track(), round.track()])
        case let .ellipse(p, s): return .combined([p.track(), s.track()])
        case .star(let st): return .combined([st.position.track(), st.points.track(), st.rotation.track(), st.outerRadius.track(),
                                              st.innerRadius.track(), st.outerRoundness.track(), st.innerRoundness.track()])
        default: return .none
        }
    }

    private func addPath(_ item: LottieShapeItem, at f: Double, round: LVector?, into path: CGMutablePath) {
        func pt(_ v: LVector?) -> CGPoint { let x = v?.value(at: f) ?? LottieVector([0, 0]); return CGPoint(x: x.x, y: x.y) }
        func num(_ v: LVector?, _ d: Double = 0) -> Double { v?.value(at: f).x ?? d }
        switch item.kind {
        case .path(let p):
            if let p { LottiePaths.bezier(p.value(at: f), into: path) }
            if round.map({ num($0) != 0 }) == true { log.add(.approximated, "rounded corners on a path", "drawn with sharp corners") }
        case let .rectangle(p, s, r):
            let size = pt(s)
            var radius = num(r)
            if radius == 0, let round { radius = num(round) }
            LottiePaths.rectangle(center: pt(p), size: CGSize(width: size.x, height: size.y), radius: radius, reversed: item.reversed, into: path)
        case let .ellipse(p, s):
            let size = pt(s)
            LottiePaths.ellipse(center: pt(p), size: CGSize(width: size.x, height: size.y), reversed: item.reversed, into: path)
        case .star(let st):
            LottiePaths.star(center: pt(st.position), points: num(st.points, 5), outer: num(st.outerRadius), inner: num(st.innerRadius),
                             outerRoundness: num(st.outerRoundness), innerRoundness: num(st.innerRoundness), rotation: num(st.rotation),
                             isStar: st.isStar, reversed: item.reversed, into: path)
            if round.map({ num($0) != 0 }) == true { log.add(.approximated, "rounded corners on a polystar", "drawn with sharp corners") }
        default: break
        }
    }

    /// A path property animation (`path` of a shape layer) for `paths`; `transform` is applied
    /// to each path (a gradient's mask is offset into the gradient layer's bounds).
    private func pathAnimation(on layer: CAShapeLayer, paths: [LottieShapeItem], round: LVector?, offset: CGPoint = .zero) {
        let orient = orientsPaths
        func make(_ f: Double) -> CGPath {
            let p = CGMutablePath()
            for item in paths {
                if orient {
                    let one = CGMutablePath()
                    addPath(item, at: f, round: round, into: one)
                    p.addPath(LottieMergePaths.orientedPositive(one))
                } else {
                    addPath(item, at: f, round: round, into: p)
                }
            }
            var m = CGAffineTransform(translationX: -offset.x, y: -offset.y)
            var out = p as CGPath
            if offset != .zero, let moved = p.copy(using: &m) { out = moved }
            return out
        }
        layer.path = make(0)
        let tr = LottieKeyTrack.combined(paths.map { track(of: $0, round: round) })
        factory.add(to: layer, keyPath: "path", track: tr, time: time) { make($0) }
    }

    // MARK: Paints

    /// `merge`: the mode of a merge paths item that the paths went through (LottieMergePaths).
    private func paint(_ style: LottieShapeItem, paths: [LottieShapeItem], trims: [Trim], round: LVector?, keyPath: [String],
                       merge: Int? = nil) -> [CALayer] {
        guard !paths.isEmpty else { return [] }
        // Add: each path turned to a positive area, filled non-zero; exclude: filled even-odd.
        orientsPaths = merge == 2 && !style.isStroke
        defer { orientsPaths = false }
        let mergeRule: CAShapeLayerFillRule? = merge == 2 ? .nonZero : merge == 5 ? .evenOdd : nil
        if merge == 2 || merge == 5, style.isStroke {
            log.add(.approximated, "a stroke of merged paths (add, exclude intersections)", "each path's own outline is stroked")
        }
        switch style.kind {
        case let .fill(color, opacity, evenOdd):
            if !trims.isEmpty { noteTrimOnFill(trims) }
            let l = CAShapeLayer()
            pathAnimation(on: l, paths: paths, round: round)
            l.fillRule = mergeRule ?? (evenOdd ? .evenOdd : .nonZero)
            l.strokeColor = nil
            colorAndOpacity(l, key: "fillColor", color: color, opacity: opacity)
            factory.targets?.addPaint(keyPath, l, colorKey: "fillColor", stroke: false)
            return [l]
        case .stroke(let s):
            // Trim "simultaneously" trims each path on its own: one layer per path.
            let groups: [[LottieShapeItem]] = (!trims.isEmpty && !trims.contains { $0.individually } && paths.count > 1) ? paths.map { [$0] } : [paths]
            return groups.map { ps in
                let l = CAShapeLayer()
                l.fillColor = nil
                strokeStyle(l, s)
                colorAndOpacity(l, key: "strokeColor", color: s.color, opacity: s.opacity)
                let out = applyTrims(trims, to: l, paths: ps, round: round)
                // A wrapped trim draws with a second layer: both take the provider's value.
                for x in out { factory.targets?.addPaint(keyPath, x, colorKey: "strokeColor", stroke: true) }
                return out
            }.flatMap { $0 }
        case let .gradientFill(g, opacity, evenOdd):
            if !trims.isEmpty { noteTrimOnFill(trims) }
            let mask = CAShapeLayer()
            mask.fillRule = mergeRule ?? (evenOdd ? .evenOdd : .nonZero)
            mask.fillColor = CGColor(gray: 0, alpha: 1)
            return [gradient(g, opacity: opacity, mask: mask, paths: paths, round: round, trims: [], strokeWidth: 0)]
        case let .gradientStroke(g, s):
            let mask = CAShapeLayer()
            mask.fillColor = nil
            mask.strokeColor = CGColor(gray: 0, alpha: 1)
            strokeStyle(mask, s)
            let maxWidth = s.width?.keyframes.map { abs($0.value.x) }.max() ?? 1
            return [gradient(g, opacity: s.opacity, mask: mask, paths: paths, round: round, trims: trims, strokeWidth: maxWidth)]
        default:
            return []
        }
    }

    private func noteTrimOnFill(_ trims: [Trim]) {
        let trivial = trims.allSatisfy { t in
            (t.start?.keyframes.allSatisfy { $0.value.x == 0 } ?? true) && (t.end?.keyframes.allSatisfy { $0.value.x == 100 } ?? true)
        }
        if !trivial { log.add(.approximated, "trim paths on a fill", "fills are drawn untrimmed (Core Animation trims strokes only: strokeStart/strokeEnd)") }
    }

    private func colorAndOpacity(_ l: CAShapeLayer, key: String, color: LVector?, opacity: LVector?) {
        let c = color ?? LVector(constant: LottieVector([0, 0, 0]))
        let v = LottieColors.color(c.initial)
        if key == "fillColor" { l.fillColor = v } else { l.strokeColor = v }
        factory.add(to: l, keyPath: key, track: c.track, time: time) { LottieColors.color(c.value(at: $0)) }
        if let o = opacity {
            l.opacity = Float(min(max(o.initial.x / 100, 0), 1))
            factory.add(to: l, keyPath: "opacity", track: o.track, time: time) { Float(min(max(o.value(at: $0).x / 100, 0), 1)) }
        }
    }

    private func strokeStyle(_ l: CAShapeLayer, _ s: LottieStrokeModel) {
        let w = s.width ?? LVector(constant: LottieVector([1]))
        l.lineWidth = CGFloat(max(0, min(w.initial.x, 1e5)))
        factory.add(to: l, keyPath: "lineWidth", track: w.track, time: time) { CGFloat(max(0, min(w.value(at: $0).x, 1e5))) }
        l.lineCap = s.lineCap == 1 ? .butt : s.lineCap == 3 ? .square : .round
        l.lineJoin = s.lineJoin == 1 ? .miter : s.lineJoin == 3 ? .bevel : .round
        l.miterLimit = CGFloat(max(1, min(s.miterLimit, 1000)))
        let lengths = s.dashes.filter { $0.kind != "o" }
        if !lengths.isEmpty {
            l.lineDashPattern = lengths.map { NSNumber(value: max(0, min($0.value.initial.x, 1e5))) }
            if lengths.contains(where: { $0.value.isAnimated }) {
                log.add(.approximated, "animated dash lengths", "the first dash pattern is used throughout")
            }
            if let o = s.dashes.first(where: { $0.kind == "o" })?.value {
                l.lineDashPhase = CGFloat(o.initial.x)
                factory.add(to: l, keyPath: "lineDashPhase", track: o.track, time: time) { CGFloat(o.value(at: $0).x) }
            }
        }
    }

    /// Trim paths as `strokeStart`/`strokeEnd`. With an offset the trimmed range can wrap past
    /// the path's end: then a second layer (a copy of `l`'s style) draws the wrapped part from
    /// the path's start. Returns the layers to use (`l`, and the copy when needed).
    @discardableResult
    private func applyTrims(_ trims: [Trim], to l: CAShapeLayer, paths: [LottieShapeItem], round: LVector?,
                            offset: CGPoint = .zero) -> [CAShapeLayer] {
        pathAnimation(on: l, paths: paths, round: round, offset: offset)
        guard let t = trims.first else { return [l] }
        if trims.count > 1 { log.add(.approximated, "several trim paths on one stroke", "only the innermost is applied") }
        // The range [s, e] of the path (0…1), moved by the offset (turns) so that s ∈ [0, 1).
        func range(_ f: Double) -> (Double, Double) {
            var s = (t.start?.value(at: f).x ?? 0) / 100, e = (t.end?.value(at: f).x ?? 100) / 100
            s = min(max(s, 0), 1); e = min(max(e, 0), 1)
            if s > e { swap(&s, &e) }
            let o = (t.offset?.value(at: f).x ?? 0) / 360
            let shift = o - o.rounded(.down)
            return (s + shift, e + shift)
        }
        let tr = LottieKeyTrack.combined([t.start.track(), t.end.track(), t.offset.track()])
        let r0 = range(0)
        l.strokeStart = CGFloat(min(r0.0, 1)); l.strokeEnd = CGFloat(min(r0.1, 1))
        factory.add(to: l, keyPath: "strokeStart", track: tr, time: time) { CGFloat(min(range($0).0, 1)) }
        factory.add(to: l, keyPath: "strokeEnd", track: tr, time: time) { CGFloat(min(range($0).1, 1)) }
        let wraps = t.offset.map { $0.keyframes.contains { $0.value.x.truncatingRemainder(dividingBy: 360) != 0 } } ?? false
        guard wraps else { return [l] }
        let w = CAShapeLayer()
        for key in ["fillColor", "strokeColor", "lineWidth", "opacity", "lineDashPhase"] {
            if let a = l.animation(forKey: key) { w.add(a, forKey: key) }
        }
        w.fillColor = l.fillColor; w.strokeColor = l.strokeColor; w.lineWidth = l.lineWidth; w.opacity = l.opacity
        w.lineCap = l.lineCap; w.lineJoin = l.lineJoin; w.miterLimit = l.miterLimit
        w.lineDashPattern = l.lineDashPattern; w.lineDashPhase = l.lineDashPhase
        w.anchorPoint = l.anchorPoint; w.position = l.position
        pathAnimation(on: w, paths: paths, round: round, offset: offset)
        w.strokeStart = 0
        w.strokeEnd = CGFloat(max(r0.1 - 1, 0))
        factory.add(to: w, keyPath: "strokeEnd", track: tr, time: time) { CGFloat(max(range($0).1 - 1, 0)) }
        return [l, w]
    }

    // MARK: Gradients

    private func gradient(_ g: LottieGradientModel, opacity: LVector?, mask: CAShapeLayer, paths: [LottieShapeItem],
                          round: LVector?, trims: [Trim], strokeWidth: Double) -> CALayer {
        // The gradient layer covers the paths' bounding box (over their keyframes) plus the stroke.
        var box = CGRect.null
        var frames: [Double] = [0]
        for p in paths { if case .keys(let k) = track(of: p, round: round) { frames += k.map(\.time) } }
        for f in frames.prefix(200) {
            let path = CGMutablePath()
            for p in paths { addPath(p, at: f, round: round, into: path) }
            box = box.union(path.boundingBoxOfPath)
        }
        if box.isNull || !box.width.isFinite { box = CGRect(x: 0, y: 0, width: 1, height: 1) }
        box = box.insetBy(dx: -CGFloat(strokeWidth) - 1, dy: -CGFloat(strokeWidth) - 1)
        let gl = CAGradientLayer()
        gl.anchorPoint = .zero
        gl.bounds = CGRect(origin: .zero, size: box.size)
        gl.position = box.origin
        gl.type = g.type == 2 ? .radial : .axial
        if let h = g.highlightLength, h.keyframes.contains(where: { $0.value.x != 0 }), g.type == 2 {
            log.add(.approximated, "radial gradient highlight", "drawn as a centred radial gradient (CAGradientLayer has no focal point)")
        }
        let stops = g.stops ?? LVector(constant: LottieVector([0, 0, 0, 0, 1, 1, 1, 1]))
        let s0 = LottieColors.gradient(stops.initial, count: g.count)
        gl.colors = s0.colors
        gl.locations = s0.locations
        factory.add(to: gl, keyPath: "colors", track: stops.track, time: time) { LottieColors.gradient(stops.value(at: $0), count: g.count).colors }
        factory.add(to: gl, keyPath: "locations", track: stops.track, time: time) { LottieColors.gradient(stops.value(at: $0), count: g.count).locations }
        let w = max(box.width, 1e-6), h = max(box.height, 1e-6)
        func points(_ f: Double) -> (CGPoint, CGPoint) {
            let s = g.start?.value(at: f) ?? LottieVector([0, 0]), e = g.end?.value(at: f) ?? LottieVector([0, 0])
            let sp = CGPoint(x: (s.x - box.minX) / w, y: (s.y - box.minY) / h)
            if g.type == 2 {
                let r = hypot(e.x - s.x, e.y - s.y)
                return (sp, CGPoint(x: sp.x + r / w, y: sp.y + r / h))
            }
            return (sp, CGPoint(x: (e.x - box.minX) / w, y: (e.y - box.minY) / h))
        }
        let p0 = points(0)
        gl.startPoint = p0.0; gl.endPoint = p0.1
        let ptrack = LottieKeyTrack.combined([g.start.track(), g.end.track()])
        factory.add(to: gl, keyPath: "startPoint", track: ptrack, time: time) { points($0).0 }
        factory.add(to: gl, keyPath: "endPoint", track: ptrack, time: time) { points($0).1 }
        if let o = opacity {
            gl.opacity = Float(min(max(o.initial.x / 100, 0), 1))
            factory.add(to: gl, keyPath: "opacity", track: o.track, time: time) { Float(min(max(o.value(at: $0).x / 100, 0), 1)) }
        }
        mask.anchorPoint = .zero
        mask.position = .zero
        let masks = applyTrims(trims, to: mask, paths: paths, round: round, offset: box.origin)
        if masks.count == 1 { gl.mask = mask } else {
            let holder = CALayer()
            holder.anchorPoint = .zero; holder.bounds = .zero; holder.position = .zero
            for m in masks { holder.addSublayer(m) }
            gl.mask = holder
        }
        return gl
    }

    // MARK: Repeater

    private func repeater(_ item: LottieShapeItem, _ content: [CALayer]) -> CALayer {
        guard case let .repeater(copies, offset, tr, so, eo) = item.kind else { return CALayer() }
        let r = CAReplicatorLayer()
        r.anchorPoint = .zero; r.bounds = .zero; r.position = .zero
        let n = max(0, min(Int.clamped((copies?.initial.x ?? 1).rounded()), 1000))
        r.instanceCount = n
        if copies?.isAnimated == true || offset?.isAnimated == true { log.add(.approximated, "animated repeater copies or offset", "the first value is used") }
        let off = offset?.initial.x ?? 0
        // Instance k is transformed by the repeater's transform k + offset times.
        let a = tr.anchor?.initial ?? LottieVector([0, 0]), p = tr.position?.initial ?? LottieVector([0, 0])
        let s = tr.scale?.initial ?? LottieVector([100, 100]), rot = tr.rotation?.initial.x ?? 0
        let step = CATransform3DConcat(CATransform3DConcat(
            CATransform3DMakeTranslation(-a.x, -a.y, 0),
            LottieTransformLayers.matrix(scale: s, rotation: rot, skew: 0, skewAxis: 0)),
            CATransform3DMakeTranslation(a.x + p.x, a.y + p.y, 0))
        r.instanceTransform = step
        let startOpacity = (so?.initial.x ?? 100) / 100, endOpacity = (eo?.initial.x ?? 100) / 100
        if n > 1, startOpacity != endOpacity {
            let delta = Float((endOpacity - startOpacity) / Double(n - 1))
            r.instanceAlphaOffset = delta
        }
        let holder = CALayer()
        holder.anchorPoint = .zero; holder.bounds = .zero; holder.position = .zero
        holder.opacity = Float(min(max(startOpacity, 0), 1))
        var first = CATransform3DIdentity
        if off != 0 {
            let k = max(-1000, min(1000, Int.clamped(off.rounded())))
            for _ in 0..<abs(k) { first = CATransform3DConcat(first, k > 0 ? step : CATransform3DInvert(step)) }
        }
        holder.transform = first
        for l in content { holder.addSublayer(l) }
        r.addSublayer(holder)
        if tr.position?.isAnimated == true || tr.rotation?.isAnimated == true || tr.scale?.isAnimated == true {
            log.add(.approximated, "animated repeater transform", "the first value is used")
        }
        return r
    }
}

extension LottieShapeItem {
    var isStyle: Bool {
        switch kind { case .fill, .stroke, .gradientFill, .gradientStroke: return true; default: return false }
    }
    var isStroke: Bool {
        switch kind { case .stroke, .gradientStroke: return true; default: return false }
    }
    var isPath: Bool {
        switch kind { case .path, .rectangle, .ellipse, .star: return true; default: return false }
    }
    var trim: LottieShapeBuilder.Trim? {
        if case let .trim(s, e, o, ind) = kind { return LottieShapeBuilder.Trim(start: s, end: e, offset: o, individually: ind) }
        return nil
    }
}

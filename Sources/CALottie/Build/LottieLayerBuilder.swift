import Foundation
import CoreGraphics
import ImageIO

/// Builds the layer tree of a composition the way lottie-ios's Core Animation engine does: one
/// layer per Lottie layer, the parent chain as nested transform layers, in/out points as a
/// discrete `hidden` keyframe animation, precompositions as nested layers with their own time
/// (`beginTime`/`speed`), masks through `mask`, track mattes through `mask` on a wrapper.
final class LottieLayerBuilder {
    let model: LottieAnimationModel
    let log: LottieIssueLog
    let limits: LottieLimits
    let factory: LottieAnimationFactory
    let images: [String: CGImage]
    var layerBudget: Int
    var shapeBudget: Int
    private var assets: [String: LottieAssetModel] = [:]

    init(model: LottieAnimationModel, log: LottieIssueLog, limits: LottieLimits, images: [String: CGImage],
         targets: LottieValueTargets? = nil) {
        self.model = model; self.log = log; self.limits = limits; self.images = images
        factory = LottieAnimationFactory(limits: limits, targets: targets)
        layerBudget = limits.maxLayers
        shapeBudget = limits.maxShapeItems
        for a in model.assets where assets[a.id] == nil { assets[a.id] = a }
    }

    /// The root composition: a layer of the composition's size whose time is the
    /// composition's (seconds = frame / fps).
    func buildRoot() throws -> CALayer {
        let root = CALayer()
        root.anchorPoint = .zero
        root.bounds = CGRect(x: 0, y: 0, width: model.width, height: model.height)
        root.position = .zero
        let time = LottieTime(fps: model.frameRate, remapped: nil)
        for l in try composition(model.layers, time: time, size: root.bounds.size, stack: [], range: model.inPoint...model.outPoint) {
            root.addSublayer(l)
        }
        return root
    }

    /// Layers for one composition's layer list, back to front.
    func composition(_ layers: [LottieLayerModel], time: LottieTime, size: CGSize, stack: [String],
                     range: ClosedRange<Double>) throws -> [CALayer] {
        guard stack.count <= limits.maxPrecompDepth else {
            throw LottieError.limitExceeded("precompositions nested more than \(limits.maxPrecompDepth) deep")
        }
        layerBudget -= layers.count
        guard layerBudget >= 0 else { throw LottieError.limitExceeded("more than \(limits.maxLayers) layers (precomposition uses counted each time)") }
        var byIndex: [Int: LottieLayerModel] = [:]
        for l in layers { if let i = l.index, byIndex[i] == nil { byIndex[i] = l } }
        var out: [CALayer] = []
        for (position, layer) in layers.enumerated().reversed() {
            if layer.isMatteSource || layer.hidden { continue }
            guard var node = try build(layer, time: time, size: size, byIndex: byIndex, stack: stack, range: range) else { continue }
            if layer.matteMode != 0 {
                // The matte is the layer `tp` names, else the one just above.
                let source: LottieLayerModel? = layer.matteParent.flatMap { byIndex[$0] } ?? (position > 0 ? layers[position - 1] : nil)
                if let source, source.isMatteSource || layer.matteParent != nil,
                   let matte = try build(source, time: time, size: size, byIndex: byIndex, stack: stack, range: range, asMatte: true) {
                    node = applyMatte(layer.matteMode, matte: matte, to: node, size: size)
                }
            }
            out.append(node)
        }
        return out
    }

    private func applyMatte(_ mode: Int, matte: CALayer, to node: CALayer, size: CGSize) -> CALayer {
        switch mode {
        case 1: break
        case 2:
            guard Self.invertSingleShape(matte) else {
                log.add(.unsupported, "track matte alpha inverted (of more than one filled shape)",
                        "Core Animation masks by alpha only; the layer is drawn unmatted")
                return node
            }
        case 3: log.add(.approximated, "track matte luma", "masked by the matte's alpha (Core Animation masks by alpha)")
        case 4: log.add(.unsupported, "track matte luma inverted", "Core Animation masks by alpha only; the layer is drawn unmatted")
            return node
        default: log.add(.unsupported, "track matte mode \(mode)", "drawn unmatted"); return node
        }
        let wrapper = fullLayer(size)
        wrapper.addSublayer(node)
        wrapper.mask = matte
        return wrapper
    }

    /// An inverted alpha matte whose tree draws one opaque fill: the same tree with that
    /// shape's path framed by a far larger rectangle, filled even-odd, is its inverse. Returns
    /// false (nothing changed) for any other tree.
    static func invertSingleShape(_ matte: CALayer) -> Bool {
        var shapes: [CAShapeLayer] = []
        var other = false
        func walk(_ l: CALayer) {
            if let s = l as? CAShapeLayer { shapes.append(s) } else if l is CAGradientLayer || l.contents != nil || l.backgroundColor != nil { other = true }
            if l.mask != nil { other = true }
            for c in l.sublayers ?? [] { walk(c) }
        }
        walk(matte)
        guard !other, shapes.count == 1, let s = shapes.first, s.strokeColor == nil, let fill = s.fillColor, fill.alpha >= 1,
              s.animation(forKey: "fillColor") == nil, s.animation(forKey: "opacity") == nil, s.opacity >= 1 else { return false }
        let far = CGRect(x: -1e5, y: -1e5, width: 2e5, height: 2e5)
        func framed(_ p: CGPath?) -> CGPath {
            let m = CGMutablePath()
            m.addRect(far)
            if let p { m.addPath(p) }
            return m
        }
        s.fillRule = .evenOdd
        s.path = framed(s.path)
        if let a = s.animation(forKey: "path") as? CAKeyframeAnimation, let values = a.values {
            let b = a.copy() as! CAKeyframeAnimation
            b.values = values.map { framed($0 as! CGPath) }
            s.removeAnimation(forKey: "path")
            s.add(b, forKey: "path")
        }
        return true
    }

    private func fullLayer(_ size: CGSize) -> CALayer {
        let l = CALayer()
        l.anchorPoint = .zero
        l.bounds = CGRect(origin: .zero, size: size)
        l.position = .zero
        return l
    }

    /// One Lottie layer: visibility container → parents' transforms → its own transform →
    /// content (with its masks). Nil for layers that draw nothing (nulls, skipped types).
    private func build(_ layer: LottieLayerModel, time: LottieTime, size: CGSize, byIndex: [Int: LottieLayerModel],
                       stack: [String], range: ClosedRange<Double>, asMatte: Bool = false) throws -> CALayer? {
        let what = "layer \"\(layer.name)\""
        // A layer's own keyframes are in its composition's frames: its start time and stretch shift
        // only the content of a precomposition (what lottie-ios's Core Animation engine shows; the
        // corpus's 9squares sample, whose layers all have negative start times, proves it).
        let ltime = LottieLayerTime(comp: time)
        let contentTime = LottieLayerTime(comp: time, startTime: layer.startTime, stretch: layer.timeStretch)
        guard let content = try content(layer, ltime: ltime, contentTime: contentTime, stack: stack) else { return nil }
        if layer.autoOrient { log.add(.unsupported, "auto-orient (ao)", "the layer keeps its rotation") }
        if layer.blendMode != 0 { log.add(.unsupported, "blend mode \(layer.blendMode)", "drawn with normal blending") }
        if layer.hasEffects { log.add(.unsupported, "layer effects (ef)", "not applied") }
        if layer.is3D { log.add(.approximated, "3D layer (ddd)", "drawn as a 2D layer") }

        if !layer.masks.isEmpty { applyMasks(layer.masks, to: content, ltime: ltime, size: size) }
        let own = LottieTransformLayers(layer.transform, time: ltime, includeOpacity: true, factory: factory, log: log, what: what)
        factory.targets?.addTransform(time.names + [layer.name], own)
        own.inner.addSublayer(content)
        var top = own.outer
        // Parents: each ancestor's transform (not its opacity) wraps the layer, nearest inside.
        var seen: Set<Int> = []
        var parentID = layer.parent
        while let pid = parentID, let p = byIndex[pid], seen.insert(pid).inserted, seen.count <= 64 {
            let pt = LottieTransformLayers(p.transform, time: LottieLayerTime(comp: time),
                                           includeOpacity: false, factory: factory, log: log, what: "layer \"\(p.name)\"")
            pt.inner.addSublayer(top)
            top = pt.outer
            parentID = p.parent
        }
        if let pid = parentID, seen.contains(pid) {
            log.add(.invalidValue, "parent cycle", "a layer's parent chain loops; it is cut where it repeats")
        }
        let container = fullLayer(size)
        container.addSublayer(top)
        // In/out points: hidden outside [ip, op) of the composition's frames.
        if layer.inPoint > range.lowerBound || layer.outPoint < range.upperBound || time.remapped != nil {
            let ip = layer.inPoint, op = layer.outPoint
            container.isHidden = !(ip <= range.lowerBound && range.lowerBound < op)
            let track: LottieKeyTrack = time.remapped != nil ? .sampled(range)
                : .keys([ip - 1, ip, op].map { LottieKeyInfo(time: $0, hold: true, out: nil, inn: nil, spatial: false) })
            // The track's frames are composition frames: a layer time with no offset.
            factory.add(to: container, keyPath: "hidden", track: track, time: LottieLayerTime(comp: time), discrete: true) { f in
                !(ip <= f && f < op)
            }
        }
        return container
    }

    // MARK: Content

    private func content(_ layer: LottieLayerModel, ltime: LottieLayerTime, contentTime: LottieLayerTime, stack: [String]) throws -> CALayer? {
        switch layer.type {
        case 0: return try precomp(layer, ltime: contentTime, stack: stack)
        case 1:
            let l = CALayer()
            l.anchorPoint = .zero; l.position = .zero
            l.bounds = CGRect(x: 0, y: 0, width: max(0, layer.solidWidth), height: max(0, layer.solidHeight))
            l.backgroundColor = LottieColors.hex(layer.solidColor) ?? {
                log.add(.invalidValue, "solid colour \"\(layer.solidColor ?? "")\"", "black used"); return CGColor(gray: 0, alpha: 1)
            }()
            return l
        case 2:
            guard let id = layer.refID, let asset = assets[id] else {
                log.add(.invalidValue, "image layer without asset", "skipped"); return nil
            }
            guard let image = images[id] else { return nil }     // the loader reported why
            let l = CALayer()
            l.anchorPoint = .zero; l.position = .zero
            l.bounds = CGRect(x: 0, y: 0, width: asset.width > 0 ? asset.width : Double(image.width),
                              height: asset.height > 0 ? asset.height : Double(image.height))
            l.contents = image
            return l
        case 3: return holder()
        case 4:
            let b = LottieShapeBuilder(factory: factory, log: log, limits: limits, time: ltime, itemBudget: shapeBudget)
            b.namePath = ltime.comp.names + [layer.name]
            let layers = try b.build(layer.shapes)
            shapeBudget = b.itemBudget
            let h = holder()
            for l in layers { h.addSublayer(l) }
            return h
        case 5:
            return LottieTextBuilder(model: model, factory: factory, log: log, time: ltime, name: layer.name).build(layer)
        default:
            log.add(.unsupported, "layer type \(layer.type)", "skipped")
            return nil
        }
    }

    private func holder() -> CALayer {
        let h = CALayer()
        h.anchorPoint = .zero; h.bounds = .zero; h.position = .zero
        return h
    }

    private func precomp(_ layer: LottieLayerModel, ltime: LottieLayerTime, stack: [String]) throws -> CALayer? {
        guard let id = layer.refID, let asset = assets[id], let layers = asset.layers else {
            log.add(.invalidValue, "precomposition \"\(layer.refID ?? "")\"", "no such precomposition asset; skipped")
            return nil
        }
        guard !stack.contains(id) else { throw LottieError.precompCycle(assetID: id) }
        let clip = CALayer()
        clip.anchorPoint = .zero; clip.position = .zero
        clip.bounds = CGRect(x: 0, y: 0, width: max(0, layer.width), height: max(0, layer.height))
        clip.masksToBounds = true
        let inner = holder()
        clip.addSublayer(inner)
        let fps = ltime.comp.fps
        var childTime: LottieTime
        var childRange: ClosedRange<Double>
        let outerRange = layer.inPoint...max(layer.inPoint, layer.outPoint)
        if let tm = layer.timeRemap {
            if let e = tm.expression { log.add(.expression, "time remap", "expression not run (\(e.prefix(40)))") }
            // Child frame = tm(layer frame) seconds × fps; sampled at each outer frame.
            let outer = ltime.comp.remapped
            let frames = outer?.frames ?? Self.frames(outerRange, limit: 20_000)
            let toParent: (Double) -> Double = outer?.toComp ?? { $0 }
            // Like the layer's own keyframes, `tm`'s are in composition frames; its values (in
            // seconds) are the child's time outright, so the start time plays no part.
            childTime = LottieTime(fps: fps, remapped: (frames, { f in tm.value(at: toParent(f)).x * fps }))
            let values = tm.keyframes.map { $0.value.x * fps }
            childRange = (values.min() ?? 0)...(max(values.max() ?? 0, values.min() ?? 0))
        } else if let outer = ltime.comp.remapped {
            childTime = LottieTime(fps: fps, remapped: (outer.frames, { f in ltime.layerFrame(outer.toComp(f)) }))
            childRange = ltime.layerFrame(outerRange.lowerBound)...max(ltime.layerFrame(outerRange.lowerBound), ltime.layerFrame(outerRange.upperBound))
        } else {
            // Child time = (parent time − st) / sr: the content layer's beginTime and speed.
            inner.beginTime = ltime.startTime / fps
            inner.speed = Float(1 / ltime.stretch)
            childTime = LottieTime(fps: fps, remapped: nil)
            let a = ltime.layerFrame(outerRange.lowerBound), b = ltime.layerFrame(outerRange.upperBound)
            childRange = min(a, b)...max(a, b)
        }
        childTime.names = ltime.comp.names + [layer.name]
        for l in try composition(layers, time: childTime, size: clip.bounds.size, stack: stack + [id], range: childRange) {
            inner.addSublayer(l)
        }
        return clip
    }

    static func frames(_ r: ClosedRange<Double>, limit: Int) -> [Double] {
        let span = r.upperBound - r.lowerBound
        let n = max(1, min(Int.clamped(span.rounded(.up)), limit))
        return (0...n).map { r.lowerBound + span * Double($0) / Double(n) }
    }

    // MARK: Masks

    /// Layer masks (`masksProperties`) in order: adds unite, subtracts and intersects nest (one
    /// wrapper layer each), inverted masks draw the outside through an even-odd frame.
    private func applyMasks(_ masks: [LottieMaskModel], to content: CALayer, ltime: LottieLayerTime, size: CGSize) {
        var stages: [[LottieMaskModel]] = []
        var current: [LottieMaskModel] = []
        for m in masks {
            switch m.mode {
            case "n": continue
            case "a":
                if !current.isEmpty, current.last!.inverted || m.inverted { stages.append(current); current = [] }
                if current.isEmpty, !stages.isEmpty { log.add(.approximated, "mask add after subtract/intersect", "applied as an intersection") }
                current.append(m)
            case "s", "i":
                if !current.isEmpty { stages.append(current); current = [] }
                var mm = m
                if m.mode == "s" { mm.inverted.toggle() }
                stages.append([mm])
            default:
                log.add(.approximated, "mask mode \(m.mode)", "applied as add")
                current.append(m)
            }
        }
        if !current.isEmpty { stages.append(current) }
        guard !stages.isEmpty else { return }
        // Masks apply inside-out: the content's own layer takes the first stage; each further
        // stage wraps what is there.
        var target = content
        let host = content.superlayer
        for (i, stage) in stages.enumerated() {
            if i > 0 {
                let w = holder()
                if let host { host.addSublayer(w) }
                target.removeFromSuperlayer()
                w.addSublayer(target)
                target = w
            }
            let maskLayer = holder()
            for m in stage { maskLayer.addSublayer(maskShape(m, ltime: ltime, size: size)) }
            target.mask = maskLayer
        }
    }

    private func maskShape(_ m: LottieMaskModel, ltime: LottieLayerTime, size: CGSize) -> CAShapeLayer {
        let l = CAShapeLayer()
        l.anchorPoint = .zero; l.position = .zero
        l.fillColor = CGColor(gray: 0, alpha: 1)
        // Inverted: a frame far larger than any drawing, with the path cut out (even-odd).
        let far = CGRect(x: -1e5, y: -1e5, width: 2e5, height: 2e5)
        func path(_ f: Double) -> CGPath {
            let p = CGMutablePath()
            if m.inverted { p.addRect(far) }
            if let b = m.path?.value(at: f) { LottiePaths.bezier(LottieBezier(vertices: b.vertices, inTangents: b.inTangents, outTangents: b.outTangents, closed: true), into: p) }
            return p
        }
        if m.inverted { l.fillRule = .evenOdd }
        l.path = path(0)
        factory.add(to: l, keyPath: "path", track: m.path.track(), time: ltime) { path($0) }
        if let o = m.opacity {
            l.opacity = Float(min(max(o.initial.x / 100, 0), 1))
            factory.add(to: l, keyPath: "opacity", track: o.track, time: ltime) { Float(min(max(o.value(at: $0).x / 100, 0), 1)) }
        }
        if let x = m.expansion, x.keyframes.contains(where: { $0.value.x != 0 }) {
            if m.inverted || x.keyframes.contains(where: { $0.value.x < 0 }) {
                log.add(.approximated, "mask expansion (negative or inverted)", "not applied")
            } else {
                l.strokeColor = l.fillColor
                l.lineWidth = CGFloat(2 * x.initial.x)
                l.lineJoin = .round
                factory.add(to: l, keyPath: "lineWidth", track: x.track, time: ltime) { CGFloat(2 * x.value(at: $0).x) }
            }
        }
        return l
    }
}

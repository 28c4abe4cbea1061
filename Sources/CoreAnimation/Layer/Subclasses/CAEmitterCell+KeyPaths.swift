import CoreGraphics

/// Key paths into a `CAEmitterLayer`'s cells: `emitterCells.<name>.<property>`, and through
/// sub-cells `emitterCells.<name>.emitterCells.<name>.<property>` (Apple's CAEmitterLayer.h:
/// "the cells are looked up by name"; `CAEmitterCell` marks the properties below
/// "Animatable"). Key-value coding and animations on the layer both resolve them here.
///
/// A cell is the first of its array whose `name` matches. On a model layer a write changes
/// that cell in place (as `setValue(_:forKeyPath:)` does on Apple). On a presentation copy an
/// animated value must not reach the model's cells, which the copy shares: the cells along
/// the path are copied for that copy alone, and its next frame starts again from the model's
/// (`reset`).
extension CAEmitterCell {
    struct AnimatableKey {
        var kind: ValueKind
        var get: (CAEmitterCell) -> AnimValue
        var set: (CAEmitterCell, Double?, CGColor?, CGRect?) -> Void
    }

    /// The animatable properties by key, with their kinds.
    // Immutable once built; its closures capture only key paths.
    nonisolated(unsafe) static let animatableKeys: [String: AnimatableKey] = {
        func number(_ kp: ReferenceWritableKeyPath<CAEmitterCell, Float>) -> AnimatableKey {
            AnimatableKey(kind: .number, get: { .number(Double($0[keyPath: kp])) },
                          set: { c, n, _, _ in if let n, n.isFinite { c[keyPath: kp] = Float(n) } })
        }
        func cgNumber(_ kp: ReferenceWritableKeyPath<CAEmitterCell, CGFloat>) -> AnimatableKey {
            AnimatableKey(kind: .number, get: { .number(Double($0[keyPath: kp])) },
                          set: { c, n, _, _ in if let n, n.isFinite { c[keyPath: kp] = CGFloat(n) } })
        }
        var t: [String: AnimatableKey] = [
            "birthRate": number(\.birthRate), "lifetime": number(\.lifetime), "lifetimeRange": number(\.lifetimeRange),
            "emissionLatitude": cgNumber(\.emissionLatitude), "emissionLongitude": cgNumber(\.emissionLongitude),
            "emissionRange": cgNumber(\.emissionRange), "velocity": cgNumber(\.velocity), "velocityRange": cgNumber(\.velocityRange),
            "xAcceleration": cgNumber(\.xAcceleration), "yAcceleration": cgNumber(\.yAcceleration),
            "zAcceleration": cgNumber(\.zAcceleration), "scale": cgNumber(\.scale), "scaleRange": cgNumber(\.scaleRange),
            "scaleSpeed": cgNumber(\.scaleSpeed), "spin": cgNumber(\.spin), "spinRange": cgNumber(\.spinRange),
            "redRange": number(\.redRange), "greenRange": number(\.greenRange), "blueRange": number(\.blueRange),
            "alphaRange": number(\.alphaRange), "redSpeed": number(\.redSpeed), "greenSpeed": number(\.greenSpeed),
            "blueSpeed": number(\.blueSpeed), "alphaSpeed": number(\.alphaSpeed), "contentsScale": cgNumber(\.contentsScale),
        ]
        t["color"] = AnimatableKey(kind: .color, get: { $0.color.map { .color($0) } ?? .null },
                                   set: { c, _, col, _ in if let col { c.color = col } })
        t["contentsRect"] = AnimatableKey(kind: .rect, get: { .rect($0.contentsRect) },
                                          set: { c, _, _, r in if let r { c.contentsRect = r } })
        return t
    }()

    /// A copy of every property (sub-cells shared): the cell a presentation copy animates.
    package func makeCopy() -> CAEmitterCell {
        let c = CAEmitterCell()
        c.name = name; c.isEnabled = isEnabled
        c.birthRate = birthRate; c.lifetime = lifetime; c.lifetimeRange = lifetimeRange
        c.emissionLatitude = emissionLatitude; c.emissionLongitude = emissionLongitude; c.emissionRange = emissionRange
        c.velocity = velocity; c.velocityRange = velocityRange
        c.xAcceleration = xAcceleration; c.yAcceleration = yAcceleration; c.zAcceleration = zAcceleration
        c.scale = scale; c.scaleRange = scaleRange; c.scaleSpeed = scaleSpeed; c.spin = spin; c.spinRange = spinRange
        c.color = color
        c.redRange = redRange; c.greenRange = greenRange; c.blueRange = blueRange; c.alphaRange = alphaRange
        c.redSpeed = redSpeed; c.greenSpeed = greenSpeed; c.blueSpeed = blueSpeed; c.alphaSpeed = alphaSpeed
        c.contents = contents; c.contentsRect = contentsRect; c.contentsScale = contentsScale
        c.minificationFilter = minificationFilter; c.magnificationFilter = magnificationFilter
        c.minificationFilterBias = minificationFilterBias
        c.emitterCells = emitterCells; c.style = style
        c.beginTime = beginTime; c.duration = duration; c.speed = speed; c.timeOffset = timeOffset
        c.repeatCount = repeatCount; c.repeatDuration = repeatDuration; c.autoreverses = autoreverses; c.fillMode = fillMode
        return c
    }
}

extension KeyPathBinding {
    /// `emitterCells.<name>[.emitterCells.<name>…].<property>` on a `CAEmitterLayer`; nil when
    /// the path does not end in an animatable cell property.
    static func emitterCells(_ rest: String) -> KeyPathBinding? {
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let key = CAEmitterCell.animatableKeys[parts[parts.count - 1]] else { return nil }
        // Names, with "emitterCells" between them.
        var names: [String] = []
        var i = 0
        while i < parts.count - 1 {
            names.append(parts[i])
            i += 1
            if i < parts.count - 1 {
                guard parts[i] == "emitterCells" else { return nil }
                i += 1
            }
        }
        func find(_ cells: [CAEmitterCell]?) -> CAEmitterCell? {
            var list = cells
            var found: CAEmitterCell? = nil
            for n in names {
                guard let c = list?.first(where: { $0.name == n }) else { return nil }
                found = c
                list = c.emitterCells
            }
            return found
        }
        /// The cells with the one at the path replaced by a copy changed by `change`.
        func replacing(_ cells: [CAEmitterCell]?, _ depth: Int, _ change: (CAEmitterCell) -> Void) -> [CAEmitterCell]? {
            guard var list = cells, let k = list.firstIndex(where: { $0.name == names[depth] }) else { return cells }
            let copy = list[k].makeCopy()
            if depth == names.count - 1 { change(copy) } else { copy.emitterCells = replacing(copy.emitterCells, depth + 1, change) }
            list[k] = copy
            return list
        }
        func write(_ l: CALayer, _ v: AnimValue) {
            guard let e = l as? CAEmitterLayer else { return }
            var n: Double? = nil, col: CGColor? = nil, r: CGRect? = nil
            switch v {
            case .number(let d): n = d
            case .color(let c): col = c
            case .rect(let x): r = x
            default: return
            }
            if e.isPresentationCopy {
                e.emitter.emitterCells = replacing(e.emitter.emitterCells, 0) { key.set($0, n, col, r) }
            } else if let c = find(e.emitter.emitterCells) {
                key.set(c, n, col, r)
            }
        }
        let get: (CALayer) -> AnimValue = { l in
            guard let e = l as? CAEmitterLayer, let c = find(e.emitter.emitterCells) else { return .null }
            return key.get(c)
        }
        return KeyPathBinding(kind: key.kind, property: "emitterCells", get: get, set: write,
                              add: { l, v in write(l, get(l).adding(v)) },
                              reset: { out, base in
                                  (out as? CAEmitterLayer)?.emitter.emitterCells = (base as? CAEmitterLayer)?.emitter.emitterCells
                              })
    }
}

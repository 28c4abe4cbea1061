import Foundation
import CoreGraphics

/// A colour with components 0…1 (lottie-ios's `LottieColor`). An extension beyond Apple's API.
public struct LottieColor: Hashable, Sendable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double
    public init(r: Double, g: Double, b: Double, a: Double) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
}

/// Names properties in an animation's layer tree, as lottie-ios's `AnimationKeypath`: keys
/// separated by dots — layer names (precomposition layers first), group names, the item's name,
/// then the property (`Color`, `Opacity`, `Stroke Width`, `Transform.Position`,
/// `Transform.Opacity`). `*` matches one key, `**` any number of keys:
/// `"**.Fill 1.Color"` is every fill named "Fill 1". An extension beyond Apple's API.
public struct AnimationKeypath: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The keys, in order.
    public let keys: [String]

    /// `keypath` split at its dots.
    public init(keypath: String) {
        keys = keypath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    public init(keys: [String]) { self.keys = keys }

    public init(stringLiteral value: String) { self.init(keypath: value) }

    /// The keys joined by dots.
    public var string: String { keys.joined(separator: ".") }
}

/// A value that replaces a property of the animation (lottie-ios's `AnyValueProvider`). The
/// providers here give one value for every frame; lottie-ios's per-frame closures and keyframe
/// lists are not reproduced. An extension beyond Apple's API.
public protocol AnyValueProvider: AnyObject {
    /// The type of the value provided.
    var valueType: Any.Type { get }
}

/// A colour for `Color` properties (fills, strokes). An extension beyond Apple's API, named as
/// in lottie-ios.
public final class ColorValueProvider: AnyValueProvider {
    public var color: LottieColor
    public init(_ color: LottieColor) { self.color = color }
    public var valueType: Any.Type { LottieColor.self }
}

/// A number for `Opacity` (percent, 0…100, as in Lottie files) and `Stroke Width` (points).
/// An extension beyond Apple's API, named as in lottie-ios.
public final class FloatValueProvider: AnyValueProvider {
    public var float: CGFloat
    public init(_ float: CGFloat) { self.float = float }
    public var valueType: Any.Type { CGFloat.self }
}

/// A point for `Transform.Position`. An extension beyond Apple's API, named as in lottie-ios.
public final class PointValueProvider: AnyValueProvider {
    public var point: CGPoint
    public init(_ point: CGPoint) { self.point = point }
    public var valueType: Any.Type { CGPoint.self }
}

extension LottieAnimationLayer {
    /// Replaces the properties `keypath` names with `valueProvider`'s value at every frame
    /// (lottie-ios's `setValueProvider(_:keypath:)`): the built layers' animations of those
    /// properties are removed and their model values set, so the tree stays a plain layer
    /// tree. Kept across a new `animation`. A provider whose type does not fit a property, or
    /// a key path that names nothing, changes nothing and logs a warning.
    public func setValueProvider(_ valueProvider: AnyValueProvider, keypath: AnimationKeypath) {
        valueProviders.removeAll { $0.keypath == keypath }
        valueProviders.append((keypath, valueProvider))
        applyValueProvider(valueProvider, keypath: keypath)
    }

    func applyValueProvider(_ provider: AnyValueProvider, keypath: AnimationKeypath) {
        guard let targets = valueTargets else { return }
        let found = targets.matching(keypath)
        if found.isEmpty {
            Diagnostics.warnOnce("LottieAnimationLayer.setValueProvider: no property at key path \"\(keypath.string)\"")
            return
        }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        for t in found {
            guard Self.set(provider, on: t) else {
                Diagnostics.warnOnce("LottieAnimationLayer.setValueProvider: \(type(of: provider)) does not fit \"\(t.keys.joined(separator: "."))\"; ignored")
                continue
            }
            let keys = [t.property] + t.alsoRemoves
            for k in keys { t.layer.removeAnimation(forKey: k) }
            builtAnimations.removeAll { $0.layer === t.layer && keys.contains($0.key) }
        }
    }

    /// Sets the target's model value; false when the provider's type does not fit.
    private static func set(_ provider: AnyValueProvider, on t: LottieValueTargets.Target) -> Bool {
        switch (t.kind, provider) {
        case (.color, let p as ColorValueProvider):
            let c = p.color
            func unit(_ v: Double) -> CGFloat { CGFloat(v.isFinite ? min(max(v, 0), 1) : 0) }
            let color = CGColor(red: unit(c.r), green: unit(c.g), blue: unit(c.b), alpha: unit(c.a))
            if let s = t.layer as? CAShapeLayer {
                if t.property == "fillColor" { s.fillColor = color } else { s.strokeColor = color }
            }
            return true
        case (.percentOpacity, let p as FloatValueProvider):
            let v = Double(p.float)
            t.layer.opacity = Float(v.isFinite ? min(max(v / 100, 0), 1) : 1)
            return true
        case (.width, let p as FloatValueProvider):
            let v = Double(p.float)
            (t.layer as? CAShapeLayer)?.lineWidth = CGFloat(v.isFinite ? min(max(v, 0), 1e5) : 0)
            return true
        case (.position, let p as PointValueProvider):
            guard p.point.x.isFinite, p.point.y.isFinite else { return false }
            t.layer.position = p.point
            return true
        default:
            return false
        }
    }
}

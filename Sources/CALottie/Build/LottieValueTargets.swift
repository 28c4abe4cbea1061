import Foundation
import CoreGraphics

/// The layer properties a value provider can replace, each under its lottie-ios key path
/// (precomposition layer names, the layer's name, its groups' names, the item's name, then the
/// property: `"Layer 1.Group 1.Fill 1.Color"`, `"Layer 1.Transform.Position"`). Collected while
/// building a tree for `LottieAnimationLayer`.
package final class LottieValueTargets {
    enum Kind {
        /// A `CGColor` property; the provider gives a `LottieColor`.
        case color
        /// `opacity`; the provider gives percent (0…100), as Lottie files do.
        case percentOpacity
        /// A width in points (`lineWidth`).
        case width
        /// `position`; the provider gives a point.
        case position
    }

    struct Target {
        var keys: [String]
        var layer: CALayer
        var property: String
        var kind: Kind
        /// Animations to remove with the value set (a split position's components).
        var alsoRemoves: [String] = []
    }

    private(set) var all: [Target] = []

    func addPaint(_ path: [String], _ layer: CAShapeLayer, colorKey: String, stroke: Bool) {
        all.append(Target(keys: path + ["Color"], layer: layer, property: colorKey, kind: .color))
        all.append(Target(keys: path + ["Opacity"], layer: layer, property: "opacity", kind: .percentOpacity))
        if stroke { all.append(Target(keys: path + ["Stroke Width"], layer: layer, property: "lineWidth", kind: .width)) }
    }

    func addTransform(_ path: [String], _ t: LottieTransformLayers) {
        all.append(Target(keys: path + ["Transform", "Position"], layer: t.outer, property: "position", kind: .position,
                          alsoRemoves: ["position.x", "position.y"]))
        all.append(Target(keys: path + ["Transform", "Opacity"], layer: t.outer, property: "opacity", kind: .percentOpacity))
    }

    /// The targets `keypath` names (`*` one key, `**` any number of keys, as lottie-ios matches).
    func matching(_ keypath: AnimationKeypath) -> [Target] {
        all.filter { Self.matches(keypath.keys[...], $0.keys[...]) }
    }

    package static func matches(_ pattern: ArraySlice<String>, _ keys: ArraySlice<String>) -> Bool {
        guard let p = pattern.first else { return keys.isEmpty }
        if p == "**" {
            // Zero keys, or one more key consumed by the globstar.
            return matches(pattern.dropFirst(), keys) || (!keys.isEmpty && matches(pattern, keys.dropFirst()))
        }
        guard let k = keys.first, p == "*" || p == k else { return false }
        return matches(pattern.dropFirst(), keys.dropFirst())
    }
}

import Foundation

/// `mix-blend-mode` and `isolation` (Compositing and Blending Level 1 §3.1, §3.2) as Core
/// Animation's `compositingFilter` blend modes: the element's layer is blended with what is
/// drawn beneath it. `isolation: isolate` makes the group composite its children on their own
/// first (an offscreen group, forced here with the layer's group opacity).
///
/// `mix-blend-mode`, `isolation` and the `marker` shorthand are CSS properties without a
/// presentation attribute (SVG 2 §13.7.4, Compositing 1 §3): they are read from style sheets
/// and `style` attributes only, as resvg does.
enum SVGBlending {
    static let modes: Set<String> = [
        "normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn",
        "hard-light", "soft-light", "difference", "exclusion", "hue", "saturation", "color", "luminosity",
    ]
    static let cssOnly: Set<String> = ["mix-blend-mode", "isolation", "marker"]

    /// Apple's `compositingFilter` shortcut for a CSS blend mode ("multiplyBlendMode" …), nil
    /// for `normal`.
    static func compositingFilter(_ mode: String) -> String? {
        guard mode != "normal", modes.contains(mode) else { return nil }
        let camel = mode.split(separator: "-").enumerated()
            .map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
            .joined()
        return camel + "BlendMode"
    }
}

extension SVGBuilder {
    /// Sets the element's blend mode (`compositingFilter`) or isolation on its layer. A shape
    /// layer is wrapped first, so the blend applies to its fill and stroke together.
    func applyBlending(_ layer: CALayer, _ ext: CGRect, style: SVGComputedStyle) -> CALayer {
        if let filter = SVGBlending.compositingFilter(style.blendMode) {
            usesBlending = true
            let l = layer.compositingFilter == nil ? layer : wrap(layer, ext)
            l.compositingFilter = filter
            return l
        }
        if style.isolate {
            let l = layer is CAShapeLayer ? wrap(layer, ext) : layer
            SVGBlending.isolate(l)
            return l
        }
        return layer
    }
}

extension SVGBlending {
    /// Makes `layer` an isolated group: its subtree is composited offscreen first, so blend modes
    /// inside it see only the group (Compositing 1 §3.2). Core Animation has no isolation
    /// property; group opacity isolates a subtree (`allowsGroupOpacity`, docs/BEHAVIOUR.md N4),
    /// so an opaque layer gets the largest opacity below 1, which composites to the same 8-bit
    /// values as 1.
    static func isolate(_ layer: CALayer) {
        layer.allowsGroupOpacity = true
        if layer.opacity >= 1 { layer.opacity = Float(1).nextDown }
    }
}

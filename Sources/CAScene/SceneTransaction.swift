/// A transaction a scene schedules at a time of its timeline: the changes in it are made
/// inside `CATransaction.begin()`/`commit()` at that time, so the implicit animations they
/// imply (docs/BEHAVIOUR.md J4) begin then, with this transaction's duration and timing function.
/// Not Apple API: the scene format's `transactions` (docs/SCENE-FORMAT.md).
public struct SceneTransaction {
    /// Seconds from the start of the scene.
    public var time: CFTimeInterval
    /// `CATransaction.setAnimationDuration(_:)`; nil keeps the default 0.25 s.
    public var animationDuration: CFTimeInterval?
    /// `CATransaction.setAnimationTimingFunction(_:)`.
    public var animationTimingFunction: CAMediaTimingFunction?
    /// `CATransaction.setDisableActions(_:)`: the changes happen without implicit animation.
    public var disableActions: Bool
    public var changes: [SceneChange]

    public init(time: CFTimeInterval, animationDuration: CFTimeInterval? = nil,
                animationTimingFunction: CAMediaTimingFunction? = nil, disableActions: Bool = false,
                changes: [SceneChange]) {
        self.time = time
        self.animationDuration = animationDuration
        self.animationTimingFunction = animationTimingFunction
        self.disableActions = disableActions
        self.changes = changes
    }
}

/// One change inside a `SceneTransaction`. Layers are named by their `name` property.
public enum SceneChange {
    /// Sets a property by its Swift name (`"position"`, `"isHidden"`, `"backgroundColor"`,
    /// `"frame"` …) to a value of the property's Swift type, as the setter would.
    case set(layer: String, property: String, value: Any?)
    /// `layer.add(animation, forKey: key)`.
    case addAnimation(layer: String, animation: CAAnimation, forKey: String?)
    /// `layer.removeAnimation(forKey:)`.
    case removeAnimation(layer: String, forKey: String)
    /// `layer.removeAllAnimations()`.
    case removeAllAnimations(layer: String)
    /// `layer.addSublayer(sublayer)`.
    case addSublayer(layer: String, sublayer: CALayer)
    /// `layer.removeFromSuperlayer()`.
    case removeFromSuperlayer(layer: String)

    /// The name of the layer the change applies to.
    public var layerName: String {
        switch self {
        case .set(let l, _, _), .addAnimation(let l, _, _), .removeAnimation(let l, _), .removeAllAnimations(let l),
             .addSublayer(let l, _), .removeFromSuperlayer(let l):
            return l
        }
    }
}

/// Callbacks about an animation's life (Apple's `CAAnimationDelegate`), delivered by the
/// timing engine's frame step in time order.
public protocol CAAnimationDelegate: AnyObject {
    func animationDidStart(_ anim: CAAnimation)
    /// `flag` is true when the animation ran to the end of its active duration, false when it
    /// was removed or replaced first (docs/BEHAVIOUR.md D3).
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract animation class (Apple's `CAAnimation`), with Apple's defaults (docs/BEHAVIOUR.md A4:
/// duration 0, speed 1, removedOnCompletion true, fill mode removed, delegate nil).
open class CAAnimation: NSObject, CAMediaTiming, CAAction, NSCopying {
    package var timing = MediaTimingValues.animationDefaults
    /// Free-form KVC tags (`setValue(_:forKey:)` with keys the class does not define).
    package var tags: [String: Any] = [:]

    /// Nil means linear pacing (CAAnimation.h).
    open var timingFunction: CAMediaTimingFunction?
    /// Retained, as Apple documents ("retained for the lifetime of the animation", A5).
    open var delegate: CAAnimationDelegate?
    open var isRemovedOnCompletion = true

    public required override init() { super.init() }

    // MARK: CAMediaTiming

    open var beginTime: CFTimeInterval {
        get { timing.beginTime }
        set { timing.beginTime = newValue }
    }
    open var duration: CFTimeInterval {
        get { timing.duration }
        set { timing.duration = newValue }
    }
    open var speed: Float {
        get { timing.speed }
        set { timing.speed = newValue }
    }
    open var timeOffset: CFTimeInterval {
        get { timing.timeOffset }
        set { timing.timeOffset = newValue }
    }
    /// Fractional values repeat part of a cycle; `.infinity` repeats forever (C3).
    open var repeatCount: Float {
        get { timing.repeatCount }
        set { timing.repeatCount = newValue }
    }
    open var repeatDuration: CFTimeInterval {
        get { timing.repeatDuration }
        set { timing.repeatDuration = newValue }
    }
    open var autoreverses: Bool {
        get { timing.autoreverses }
        set { timing.autoreverses = newValue }
    }
    open var fillMode: CAMediaTimingFillMode {
        get { timing.fillMode }
        set { timing.fillMode = newValue }
    }

    // MARK: Copying (add(_:forKey:) stores a copy, docs/BEHAVIOUR.md D1)

    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        c.copyState(from: self)
        return c
    }

    /// Copies every stored property; each subclass adds its own and calls super.
    open func copyState(from other: CAAnimation) {
        timing = other.timing
        tags = other.tags
        timingFunction = other.timingFunction
        delegate = other.delegate
        isRemovedOnCompletion = other.isRemovedOnCompletion
    }

    // MARK: Key-value coding

    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "speed": return NSNumber(value: 1)
        case "removedOnCompletion", "isRemovedOnCompletion": return NSNumber(value: true)
        default: return nil
        }
    }

    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Known timing keys read the property; any other key reads a tag set earlier (Apple's
    /// animations accept arbitrary KVC keys, a common way to tag them).
    open func value(forKey key: String) -> Any? {
        switch key {
        case "beginTime": return NSNumber(value: beginTime)
        case "duration": return NSNumber(value: duration)
        case "speed": return NSNumber(value: speed)
        case "timeOffset": return NSNumber(value: timeOffset)
        case "repeatCount": return NSNumber(value: repeatCount)
        case "repeatDuration": return NSNumber(value: repeatDuration)
        case "autoreverses": return NSNumber(value: autoreverses)
        case "fillMode": return fillMode.rawValue
        case "removedOnCompletion", "isRemovedOnCompletion": return NSNumber(value: isRemovedOnCompletion)
        case "timingFunction": return timingFunction
        case "delegate": return delegate
        default: return tags[key]
        }
    }

    open func setValue(_ value: Any?, forKey key: String) {
        let n = AnimValue.number(from: value)
        switch key {
        case "beginTime": if let n { beginTime = n }
        case "duration": if let n { duration = n }
        case "speed": if let n { speed = Float(n) }
        case "timeOffset": if let n { timeOffset = n }
        case "repeatCount": if let n { repeatCount = Float(n) }
        case "repeatDuration": if let n { repeatDuration = n }
        case "autoreverses": if let n { autoreverses = n != 0 }
        case "fillMode": if let s = value as? String { fillMode = .init(rawValue: s) } else if let f = value as? CAMediaTimingFillMode { fillMode = f }
        case "removedOnCompletion", "isRemovedOnCompletion": if let n { isRemovedOnCompletion = n != 0 }
        case "timingFunction": timingFunction = value as? CAMediaTimingFunction
        default: tags[key] = value
        }
    }

    // MARK: CAAction

    /// Adds the animation to the layer under the event key (CAAction, docs/BEHAVIOUR.md J4).
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

/// An animation of one layer property named by a key path (Apple's `CAPropertyAnimation`).
open class CAPropertyAnimation: CAAnimation {
    open var keyPath: String?
    /// Adds the animation's value to the underlying one instead of replacing it (E3).
    open var isAdditive = false
    /// Adds the end value of previous repeat cycles (E4).
    open var isCumulative = false
    /// Builds a transform from the interpolated scalars (E5).
    open var valueFunction: CAValueFunction?

    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    open override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let o = other as? CAPropertyAnimation else { return }
        keyPath = o.keyPath; isAdditive = o.isAdditive; isCumulative = o.isCumulative
        valueFunction = o.valueFunction
    }

    open override func value(forKey key: String) -> Any? {
        switch key {
        case "keyPath": return keyPath
        case "additive", "isAdditive": return NSNumber(value: isAdditive)
        case "cumulative", "isCumulative": return NSNumber(value: isCumulative)
        case "valueFunction": return valueFunction
        default: return super.value(forKey: key)
        }
    }

    open override func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "keyPath": keyPath = value as? String
        case "additive", "isAdditive": isAdditive = AnimValue.number(from: value).map { $0 != 0 } ?? false
        case "cumulative", "isCumulative": isCumulative = AnimValue.number(from: value).map { $0 != 0 } ?? false
        case "valueFunction": valueFunction = value as? CAValueFunction
        default: super.setValue(value, forKey: key)
        }
    }
}

/// Interpolates between two values (Apple's `CABasicAnimation`; E1 gives the seven
/// combinations of from/to/by).
open class CABasicAnimation: CAPropertyAnimation {
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?

    open override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let o = other as? CABasicAnimation else { return }
        fromValue = o.fromValue; toValue = o.toValue; byValue = o.byValue
    }

    open override func value(forKey key: String) -> Any? {
        switch key {
        case "fromValue": return fromValue
        case "toValue": return toValue
        case "byValue": return byValue
        default: return super.value(forKey: key)
        }
    }

    open override func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "fromValue": fromValue = value
        case "toValue": toValue = value
        case "byValue": byValue = value
        default: super.setValue(value, forKey: key)
        }
    }
}

/// Interpolates through a sequence of values or along a path (Apple's `CAKeyframeAnimation`).
open class CAKeyframeAnimation: CAPropertyAnimation {
    open var values: [Any]?
    /// For point properties a path replaces `values` (F1, F7).
    open var path: CGPath?
    /// Fractions of the duration, one per value (n + 1 for discrete, F2); ignored when invalid.
    open var keyTimes: [NSNumber]?
    /// One per segment (n values → n − 1 functions, B5).
    open var timingFunctions: [CAMediaTimingFunction]?
    open var calculationMode = CAAnimationCalculationMode.linear
    open var tensionValues: [NSNumber]?
    open var continuityValues: [NSNumber]?
    open var biasValues: [NSNumber]?
    open var rotationMode: CAAnimationRotationMode?

    open override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let o = other as? CAKeyframeAnimation else { return }
        values = o.values; path = o.path; keyTimes = o.keyTimes; timingFunctions = o.timingFunctions
        calculationMode = o.calculationMode; tensionValues = o.tensionValues
        continuityValues = o.continuityValues; biasValues = o.biasValues; rotationMode = o.rotationMode
    }

    open override func value(forKey key: String) -> Any? {
        switch key {
        case "values": return values
        case "path": return path
        case "keyTimes": return keyTimes
        case "calculationMode": return calculationMode.rawValue
        default: return super.value(forKey: key)
        }
    }
}

/// Groups animations that run in the group's time space and are clipped to its duration
/// (Apple's `CAAnimationGroup`, docs/BEHAVIOUR.md H).
open class CAAnimationGroup: CAAnimation {
    open var animations: [CAAnimation]?

    /// The groups being copied on this task/thread: a group that contains itself (directly or
    /// through another group) would otherwise recurse forever.
    @TaskLocal private static var groupsBeingCopied: Set<ObjectIdentifier> = []

    /// The children are copied too, so mutating the originals after `add` has no effect (D1).
    /// A child that is a group already being copied (a cycle) is dropped with a warning.
    open override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let o = other as? CAAnimationGroup else { return }
        var seen = Self.groupsBeingCopied
        seen.insert(ObjectIdentifier(o))
        animations = Self.$groupsBeingCopied.withValue(seen) {
            o.animations?.compactMap { child -> CAAnimation? in
                if child is CAAnimationGroup, seen.contains(ObjectIdentifier(child)) {
                    Diagnostics.warnOnce("CAAnimationGroup: a group that contains itself; the cycle is dropped")
                    return nil
                }
                return child.copy() as? CAAnimation
            }
        }
    }
}

/// An animated transition between the layer's state before and after a change (Apple's
/// `CATransition`, docs/BEHAVIOUR.md I). The pixels come from the renderer; timing and keys live here.
open class CATransition: CAAnimation {
    open var type = CATransitionType.fade
    open var subtype: CATransitionSubtype?
    /// Stored unchecked and clamped to 0 ≤ start ≤ end ≤ 1 when evaluated (A6).
    open var startProgress: Float = 0
    open var endProgress: Float = 1
    open var filter: Any?

    open override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let o = other as? CATransition else { return }
        type = o.type; subtype = o.subtype; startProgress = o.startProgress
        endProgress = o.endProgress; filter = o.filter
    }
}

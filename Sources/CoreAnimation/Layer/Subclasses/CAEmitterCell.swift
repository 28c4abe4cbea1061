/// One kind of particle of a `CAEmitterLayer` (Apple's `CAEmitterCell`): a plain model
/// object, not a layer, with Apple's property names, types and defaults (docs/BEHAVIOUR.md A3:
/// enabled, colour opaque white; CAEmitterCell.h: scale 1, contentsRect unit square,
/// everything else zero or nil). Cells may hold sub-cells emitted from each particle.
open class CAEmitterCell: NSObject, CAMediaTiming {
    public override init() { super.init() }

    /// Apple's `+defaultValueForKey:`: the non-zero defaults above.
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "enabled", "isEnabled": return NSNumber(value: true)
        case "scale", "contentsScale": return NSNumber(value: 1)
        case "contentsRect": return CGRect(x: 0, y: 0, width: 1, height: 1)
        case "color": return opaqueWhiteRGBA
        case "minificationFilter", "magnificationFilter": return "linear"
        default: return nil
        }
    }

    /// Whether the cell archives `key`; kept for source compatibility.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    public var name: String?
    public var isEnabled = true

    // MARK: Emission
    public var birthRate: Float = 0
    public var lifetime: Float = 0
    public var lifetimeRange: Float = 0
    public var emissionLatitude: CGFloat = 0
    public var emissionLongitude: CGFloat = 0
    public var emissionRange: CGFloat = 0

    // MARK: Motion
    public var velocity: CGFloat = 0
    public var velocityRange: CGFloat = 0
    public var xAcceleration: CGFloat = 0
    public var yAcceleration: CGFloat = 0
    public var zAcceleration: CGFloat = 0
    public var scale: CGFloat = 1
    public var scaleRange: CGFloat = 0
    public var scaleSpeed: CGFloat = 0
    public var spin: CGFloat = 0
    public var spinRange: CGFloat = 0

    // MARK: Colour
    public var color: CGColor? = opaqueWhiteRGBA
    public var redRange: Float = 0
    public var greenRange: Float = 0
    public var blueRange: Float = 0
    public var alphaRange: Float = 0
    public var redSpeed: Float = 0
    public var greenSpeed: Float = 0
    public var blueSpeed: Float = 0
    public var alphaSpeed: Float = 0

    // MARK: Contents
    /// Usually a `CGImage`.
    public var contents: Any?
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    public var contentsScale: CGFloat = 1
    /// Filter names (`kCAFilterLinear` …), typed `String` in Apple's Swift API.
    public var minificationFilter = "linear"
    public var magnificationFilter = "linear"
    public var minificationFilterBias: Float = 0

    /// Cells emitted by each particle of this cell.
    public var emitterCells: [CAEmitterCell]?
    public var style: [AnyHashable: Any]?

    // MARK: CAMediaTiming (Apple's header defaults for timing objects: all zero, speed 1)
    public var beginTime: CFTimeInterval = 0
    public var duration: CFTimeInterval = 0
    public var speed: Float = 1
    public var timeOffset: CFTimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: CFTimeInterval = 0
    public var autoreverses = false
    public var fillMode = CAMediaTimingFillMode.removed
}

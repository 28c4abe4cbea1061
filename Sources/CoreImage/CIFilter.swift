import CoreGraphics
import Foundation

/// A Core Image filter as Core Animation uses it (`CALayer.filters`, `backgroundFilters`,
/// `compositingFilter`): a named kind with input parameters set by key. Apple's `CIFilter`
/// subset: `init?(name:)`, `setValue(_:forKey:)`, `value(forKey:)`, `inputKeys`, `outputKeys`,
/// `attributes`, `setDefaults()`, and the settable `name` that Core Animation's key paths use
/// (`filters.blur.inputRadius` names a filter whose `name` is "blur"). There is no
/// `outputImage`: the renderer runs the filters on the GPU (docs/FILTERS.md lists the filters).
///
/// Parameters start at Apple's defaults (Apple's `CIFilter(name:)` leaves them unset on macOS
/// until `setDefaults()`; the values the renderer uses are the same either way).
open class CIFilter: @unchecked Sendable, CustomStringConvertible {
    /// The filter's name: its Core Image name ("CIGaussianBlur") until set. Core Animation
    /// finds a layer's filter by this name in key paths ("filters.<name>.inputRadius").
    open var name: String {
        get { lock.withLock { _name } }
        set { lock.withLock { _name = newValue } }
    }

    /// The Core Image name the filter was made with ("CIGaussianBlur"), whatever `name` says.
    package let filterName: String
    package let entry: CIFilterCatalogue.Entry
    private var _name: String
    private var values: [String: Any] = [:]
    private let lock = NSLock()

    /// The filter named `name`, or nil with a warning naming it when this Core Image does not
    /// have it (Apple returns nil for an unknown name too).
    public init?(name: String) {
        guard let entry = CIFilterCatalogue.entries[name] else {
            CIDiagnostics.warnOnce("CIFilter(name: \"\(name)\"): no such filter here; nil returned (docs/FILTERS.md lists the filters)")
            return nil
        }
        self.filterName = name
        self.entry = entry
        _name = name
        setDefaults()
    }

    /// `init?(name:)`, then each parameter set with `setValue(_:forKey:)`.
    public convenience init?(name: String, parameters: [String: Any]?) {
        self.init(name: name)
        for (k, v) in parameters ?? [:] { setValue(v, forKey: k) }
    }

    /// A copy with the same name and parameters (Core Animation copies a layer's filters for
    /// its presentation values).
    package init(copying other: CIFilter) {
        filterName = other.filterName
        entry = other.entry
        _name = other.name
        values = other.lock.withLock { other.values }
    }

    /// Sets a parameter. A key the filter does not have warns once and is ignored (Apple raises
    /// an undefined-key exception); `nil` restores the parameter's default.
    open func setValue(_ value: Any?, forKey key: String) {
        if key == "name" {
            if let s = value as? String { name = s }
            return
        }
        guard let p = entry.parameters.first(where: { $0.key == key }) else {
            CIDiagnostics.warnOnce("\(filterName) has no parameter \"\(key)\": the value is ignored")
            return
        }
        lock.withLock { values[key] = value ?? p.value.value }
    }

    /// The parameter's value (its default until set); nil for a key the filter does not have.
    open func value(forKey key: String) -> Any? {
        if key == "name" { return name }
        return lock.withLock { values[key] }
    }

    /// The parameters' keys, in Apple's order (the image inputs first).
    open var inputKeys: [String] { entry.parameters.map(\.key) }
    open var outputKeys: [String] { [kCIOutputImageKey] }

    /// The filter's name, display name, categories, and for each parameter its default.
    open var attributes: [String: Any] {
        var a: [String: Any] = [kCIAttributeFilterName: filterName,
                                kCIAttributeFilterDisplayName: String(filterName.dropFirst(2)),
                                kCIAttributeFilterCategories: entry.categories]
        for p in entry.parameters {
            var d: [String: Any] = [:]
            if let v = p.value.value { d[kCIAttributeDefault] = v }
            switch p.value {
            case .number: d[kCIAttributeClass] = "NSNumber"
            case .vector: d[kCIAttributeClass] = "CIVector"
            case .color: d[kCIAttributeClass] = "CIColor"
            case .image: d[kCIAttributeClass] = "CIImage"
            }
            a[p.key] = d
        }
        return a
    }

    /// Every parameter back to Apple's default.
    open func setDefaults() {
        lock.withLock {
            for p in entry.parameters { values[p.key] = p.value.value }
        }
    }

    open var description: String { "<CIFilter \(name) (\(filterName))>" }

    // MARK: Package API for the renderer

    /// How the filter works (blur, colour matrix …).
    package var family: CIFilterCatalogue.Family { entry.family }

    /// A numeric parameter as a Double: its value when it is a number (any of Swift's number
    /// types or NSNumber), else its default, with a warning naming the bad value.
    package func number(_ key: String) -> Double {
        let v = value(forKey: key)
        if let d = Self.double(v) { return d }
        let fallback: Double
        if case .number(let d)? = entry.parameters.first(where: { $0.key == key })?.value { fallback = d } else { fallback = 0 }
        if v != nil { CIDiagnostics.warnOnce("\(filterName).\(key) is not a number (\(type(of: v!))): its default \(fallback) is used") }
        return fallback
    }

    static func double(_ v: Any?) -> Double? {
        switch v {
        case let d as Double: return d
        case let f as Float: return Double(f)
        case let c as CGFloat: return Double(c)
        case let i as Int: return Double(i)
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }

    /// A vector parameter's components (a `CIVector`; a `CGPoint` is taken as a 2-vector).
    package func vector(_ key: String) -> [Double] {
        switch value(forKey: key) {
        case let v as CIVector: return (0..<v.count).map { Double(v.value(at: $0)) }
        case let p as CGPoint: return [Double(p.x), Double(p.y)]
        default:
            if case .vector(let d)? = entry.parameters.first(where: { $0.key == key })?.value { return d.map { Double($0) } }
            return []
        }
    }

    /// A colour parameter as RGBA (a `CIColor` or a `CGColor`).
    package func color(_ key: String) -> SIMD4<Double> {
        switch value(forKey: key) {
        case let c as CIColor: return SIMD4(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
        case let c as CGColor:
            let k = CIColor(cgColor: c)
            return SIMD4(Double(k.red), Double(k.green), Double(k.blue), Double(k.alpha))
        default:
            if case .color(let r, let g, let b, let a)? = entry.parameters.first(where: { $0.key == key })?.value {
                return SIMD4(Double(r), Double(g), Double(b), Double(a))
            }
            return SIMD4(0, 0, 0, 1)
        }
    }
}

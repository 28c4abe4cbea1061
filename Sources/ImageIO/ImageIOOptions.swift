import CoreGraphics
import Foundation

/// The option dictionaries the calls take: known keys are used or accepted; every other key warns
/// once, naming it ("no silent gaps"), and is ignored.
enum ImageIOOptions {
    /// Source option keys that are accepted (used or harmlessly without effect here).
    static let acceptedSourceKeys: Set<String> = [
        kCGImageSourceTypeIdentifierHint, kCGImageSourceShouldCache, kCGImageSourceShouldCacheImmediately,
    ]
    /// Destination (creation, `AddImage` and `SetProperties`) keys that are used.
    static let acceptedDestinationKeys: Set<String> = [kCGImageDestinationLossyCompressionQuality]

    static func checkSource(_ options: CFDictionary?) {
        check(options, acceptedSourceKeys, "image source")
    }

    static func checkDestination(_ options: CFDictionary?) {
        check(options, acceptedDestinationKeys, "image destination")
    }

    private static func check(_ options: CFDictionary?, _ accepted: Set<String>, _ what: String) {
        guard let options else { return }
        for key in options.keys {
            let name = (key.base as? String) ?? String(describing: key.base)
            if !accepted.contains(name) {
                CGDiagnostics.warnOnce("ImageIO: \(what) option \(name) is not supported; ignored")
            }
        }
    }

    /// A number given as Double, Float, CGFloat, Int or NSNumber.
    static func double(_ value: Any?) -> Double? {
        switch value {
        case let d as Double: d
        case let f as Float: Double(f)
        case let c as CGFloat: Double(c)
        case let i as Int: Double(i)
        case let n as NSNumber: n.doubleValue
        default: nil
        }
    }
}

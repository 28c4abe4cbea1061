// Core Foundation type names that Apple's Core Graphics calls take. On Apple platforms they
// are toll-free bridged to Foundation/Swift types, so code writes `[c1, c2] as CFArray` or
// `options as CFDictionary`; swift-corelibs-foundation on Linux does not export them (checked
// with Swift 6.3: `CFArray`, `CFDictionary`, `CFMutableData` are not in scope after
// `import Foundation`), so here they are aliases of the Swift types those casts start from, and
// the casts compile unchanged. (`CFString` and `CFData` are declared beside the types that
// first needed them: CGColor.swift and CGDataProvider.swift.)

/// Core Foundation's `CFArray`: a Swift array of anything (`[a, b] as CFArray` compiles).
public typealias CFArray = [Any]

/// Core Foundation's `CFDictionary`: a Swift dictionary (`options as CFDictionary` compiles
/// for any `[String: Any]` or other hashable-keyed dictionary).
public typealias CFDictionary = [AnyHashable: Any]

/// Core Foundation's `CFMutableData`: Foundation's `NSMutableData`, the class Apple bridges it to.
public typealias CFMutableData = NSMutableData

import CoreGraphics
import Foundation

// Core Foundation types that Core Text's Swift API is spelled in. swift-corelibs-foundation has
// no public Core Foundation, so each is the Swift type its CF counterpart bridges to on Apple
// platforms (as CoreGraphics does with `CFString = String` and `CFData = Data`), which keeps
// `x as CFAttributedString`, `CTFrameGetLines(frame) as! [CTLine]` and the like compiling
// unchanged.

/// Core Foundation's index and count type (`CFIndex` is `Int` in Swift on Apple platforms).
public typealias CFIndex = Int
/// A UTF-16 code unit, as Core Foundation's `UniChar`.
public typealias UniChar = UInt16
/// `CFAttributedString` bridges to `NSAttributedString`.
public typealias CFAttributedString = NSAttributedString
/// `CFMutableAttributedString` bridges to `NSMutableAttributedString`.
public typealias CFMutableAttributedString = NSMutableAttributedString
// `CFArray` (`[Any]`, so `CTFrameGetLines(frame) as! [CTLine]` compiles) and `CFDictionary`
// (`[AnyHashable: Any]`) come from CoreGraphics, beside the other Core Foundation names.
/// `CFURL` bridges to `URL`.
public typealias CFURL = URL
/// `CFError` bridges to `NSError` (so `Unmanaged<CFError>` out-parameters work).
public typealias CFError = NSError

/// A range in UTF-16 units of a string, as Core Foundation's `CFRange`. A length of 0 in a
/// Core Text range argument means "to the end of the string", as on Apple.
public struct CFRange: Equatable, Hashable, Sendable {
    public var location: CFIndex
    public var length: CFIndex
    public init() { location = 0; length = 0 }
    public init(location: CFIndex, length: CFIndex) { self.location = location; self.length = length }
}

/// `CFRangeMake(_:_:)`.
public func CFRangeMake(_ loc: CFIndex, _ len: CFIndex) -> CFRange { CFRange(location: loc, length: len) }

import CoreGraphics
import Foundation

/// Text alignment (`CTTextAlignment`). `.natural` is left for left-to-right paragraphs and
/// right for right-to-left ones; `.justified` stretches every line but a paragraph's last.
public enum CTTextAlignment: UInt8, Sendable {
    case left = 0
    case right = 1
    case center = 2
    case justified = 3
    case natural = 4
}

/// What a frame does with a paragraph wider than the frame (`CTLineBreakMode`).
public enum CTLineBreakMode: UInt8, Sendable {
    case byWordWrapping = 0
    case byCharWrapping = 1
    case byClipping = 2
    case byTruncatingHead = 3
    case byTruncatingTail = 4
    case byTruncatingMiddle = 5
}

/// A paragraph's base direction (`CTWritingDirection`); `.natural` applies UAX #9 rules P2–P3.
public enum CTWritingDirection: Int8, Sendable {
    case natural = -1
    case leftToRight = 0
    case rightToLeft = 1
}

/// Which paragraph setting a `CTParagraphStyleSetting` holds (`CTParagraphStyleSpecifier`).
public enum CTParagraphStyleSpecifier: UInt32, Sendable {
    case alignment = 0
    case firstLineHeadIndent = 1
    case headIndent = 2
    case tailIndent = 3
    case tabStops = 4
    case defaultTabInterval = 5
    case lineBreakMode = 6
    case lineHeightMultiple = 7
    case maximumLineHeight = 8
    case minimumLineHeight = 9
    case lineSpacing = 10
    case paragraphSpacing = 11
    case paragraphSpacingBefore = 12
    case baseWritingDirection = 13
    case maximumLineSpacing = 14
    case minimumLineSpacing = 15
    case lineSpacingAdjustment = 16
    case lineBoundsOptions = 17
    case count = 18
}

/// One setting handed to `CTParagraphStyleCreate`: which, the value's size and a pointer to it
/// (`CTParagraphStyleSetting`). Values: `CTTextAlignment`, `CTLineBreakMode`,
/// `CTWritingDirection` by their raw type; lengths as `CGFloat`.
public struct CTParagraphStyleSetting {
    public var spec: CTParagraphStyleSpecifier
    public var valueSize: Int
    public var value: UnsafeRawPointer
    public init(spec: CTParagraphStyleSpecifier, valueSize: Int, value: UnsafeRawPointer) {
        self.spec = spec; self.valueSize = valueSize; self.value = value
    }
}

/// A paragraph style (`CTParagraphStyle`): immutable settings, read by the framesetter.
public final class CTParagraphStyle: @unchecked Sendable {
    package var alignment: CTTextAlignment = .natural
    package var lineBreakMode: CTLineBreakMode = .byWordWrapping
    package var baseWritingDirection: CTWritingDirection = .natural
    package var firstLineHeadIndent: CGFloat = 0
    package var headIndent: CGFloat = 0
    package var tailIndent: CGFloat = 0
    package var lineHeightMultiple: CGFloat = 0
    package var maximumLineHeight: CGFloat = 0
    package var minimumLineHeight: CGFloat = 0
    package var lineSpacing: CGFloat = 0
    package var paragraphSpacing: CGFloat = 0
    package var paragraphSpacingBefore: CGFloat = 0
    /// nil: Core Text's default stops (`defaultTabStops`).
    package var tabStops: [CTTextTab]? = nil
    package var defaultTabInterval: CGFloat = 0

    /// Core Text's default: 12 left-aligned tabs, spaced by 28 points.
    package static let defaultTabStops: [CTTextTab] = (1...12).map { CTTextTab(alignment: .left, location: Double($0) * 28, options: nil) }

    package init() {}

    /// A finite, non-negative length from a setting (others read as 0, warning once).
    private static func length(_ s: CTParagraphStyleSetting) -> CGFloat {
        guard s.valueSize >= MemoryLayout<CGFloat>.size else { return 0 }
        let v = s.value.loadUnaligned(as: CGFloat.self)
        guard v.isFinite, v >= 0 else {
            TextDiagnostics.warnOnce("paragraph style \(s.spec) value \(v) is not a length; 0 is used")
            return 0
        }
        return min(v, 1e7)
    }

    package func apply(_ s: CTParagraphStyleSetting) {
        switch s.spec {
        case .alignment:
            if s.valueSize >= 1, let a = CTTextAlignment(rawValue: s.value.load(as: UInt8.self)) { alignment = a }
        case .lineBreakMode:
            if s.valueSize >= 1, let m = CTLineBreakMode(rawValue: s.value.load(as: UInt8.self)) { lineBreakMode = m }
        case .baseWritingDirection:
            if s.valueSize >= 1, let d = CTWritingDirection(rawValue: s.value.load(as: Int8.self)) { baseWritingDirection = d }
        case .firstLineHeadIndent: firstLineHeadIndent = Self.length(s)
        case .headIndent: headIndent = Self.length(s)
        case .tailIndent:
            // Negative tail indents count from the trailing edge, positive ones from the leading edge.
            if s.valueSize >= MemoryLayout<CGFloat>.size { let v = s.value.loadUnaligned(as: CGFloat.self); tailIndent = v.isFinite ? v : 0 }
        case .lineHeightMultiple: lineHeightMultiple = Self.length(s)
        case .maximumLineHeight: maximumLineHeight = Self.length(s)
        case .minimumLineHeight: minimumLineHeight = Self.length(s)
        case .lineSpacing, .maximumLineSpacing, .minimumLineSpacing, .lineSpacingAdjustment: lineSpacing = Self.length(s)
        case .paragraphSpacing: paragraphSpacing = Self.length(s)
        case .paragraphSpacingBefore: paragraphSpacingBefore = Self.length(s)
        case .tabStops:
            // A CFArray of CTTextTab (at most 1,000 are read).
            guard s.valueSize >= MemoryLayout<CFArray>.size else { return }
            let array = s.value.assumingMemoryBound(to: CFArray.self).pointee
            tabStops = array.prefix(1000).compactMap { $0 as? CTTextTab }
        case .defaultTabInterval: defaultTabInterval = Self.length(s)
        case .lineBoundsOptions, .count:
            TextDiagnostics.warnOnce("paragraph style setting \(s.spec) is not supported")
        }
    }
}

/// A paragraph style from settings (CTParagraphStyleCreate); unknown or short settings are
/// skipped, unsupported ones warn once.
public func CTParagraphStyleCreate(_ settings: UnsafePointer<CTParagraphStyleSetting>?, _ settingCount: Int) -> CTParagraphStyle {
    let style = CTParagraphStyle()
    if let settings { for i in 0..<max(0, settingCount) { style.apply(settings[i]) } }
    return style
}

/// Reads one setting back into `valueBuffer` (CTParagraphStyleGetValueForSpecifier); false when
/// the buffer is too small.
public func CTParagraphStyleGetValueForSpecifier(_ paragraphStyle: CTParagraphStyle, _ spec: CTParagraphStyleSpecifier,
                                                 _ valueBufferSize: Int, _ valueBuffer: UnsafeMutableRawPointer) -> Bool {
    func put<T>(_ v: T) -> Bool {
        guard valueBufferSize >= MemoryLayout<T>.size else { return false }
        valueBuffer.storeBytes(of: v, toByteOffset: 0, as: T.self); return true
    }
    let p = paragraphStyle
    switch spec {
    case .alignment: return put(p.alignment.rawValue)
    case .lineBreakMode: return put(p.lineBreakMode.rawValue)
    case .baseWritingDirection: return put(p.baseWritingDirection.rawValue)
    case .firstLineHeadIndent: return put(p.firstLineHeadIndent)
    case .headIndent: return put(p.headIndent)
    case .tailIndent: return put(p.tailIndent)
    case .lineHeightMultiple: return put(p.lineHeightMultiple)
    case .maximumLineHeight: return put(p.maximumLineHeight)
    case .minimumLineHeight: return put(p.minimumLineHeight)
    case .lineSpacing, .maximumLineSpacing, .minimumLineSpacing, .lineSpacingAdjustment: return put(p.lineSpacing)
    case .paragraphSpacing: return put(p.paragraphSpacing)
    case .paragraphSpacingBefore: return put(p.paragraphSpacingBefore)
    case .tabStops:
        // A CFArray is a reference here: the caller's buffer holds an initialized array
        // variable (as `var tabs: CFArray = []` passed by address), which is replaced.
        guard valueBufferSize >= MemoryLayout<CFArray>.size else { return false }
        valueBuffer.assumingMemoryBound(to: CFArray.self).pointee = (p.tabStops ?? CTParagraphStyle.defaultTabStops) as CFArray
        return true
    case .defaultTabInterval: return put(p.defaultTabInterval)
    case .lineBoundsOptions, .count: return false
    }
}

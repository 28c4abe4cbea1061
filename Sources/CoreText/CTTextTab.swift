import CoreGraphics

/// A tab stop (`CTTextTab`): a location in points from the line's start and an alignment.
/// Left and natural tabs are honoured; right, center and decimal-like alignments are laid out
/// as left tabs (warns once). Options are kept but not read.
public final class CTTextTab: @unchecked Sendable {
    package let alignment: CTTextAlignment
    package let location: Double
    package let options: CFDictionary?
    package init(alignment: CTTextAlignment, location: Double, options: CFDictionary?) {
        self.alignment = alignment
        self.location = location.isFinite ? max(0, min(location, 1e7)) : 0
        self.options = options
    }
}

/// A tab stop at `location` (CTTextTabCreate).
public func CTTextTabCreate(_ alignment: CTTextAlignment, _ location: Double, _ options: CFDictionary?) -> CTTextTab {
    CTTextTab(alignment: alignment, location: location, options: options)
}
public func CTTextTabGetAlignment(_ tab: CTTextTab) -> CTTextAlignment { tab.alignment }
public func CTTextTabGetLocation(_ tab: CTTextTab) -> Double { tab.location }
public func CTTextTabGetOptions(_ tab: CTTextTab) -> CFDictionary? { tab.options }

/// Where a tab at pen position `x` (points from the line's start) moves the pen: the first
/// stop beyond `x` (`kCTParagraphStyleSpecifierTabStops`; Core Text's default is 12 left stops
/// 28 pt apart), then multiples of the default tab interval; nil past the last stop when
/// there is no interval (the tab then advances as a space).
package func nextTabStop(after x: Double, style: CTParagraphStyle?) -> Double? {
    let stops = style?.tabStops ?? CTParagraphStyle.defaultTabStops
    for t in stops.sorted(by: { $0.location < $1.location }) where t.location > x + 1e-9 {
        if t.alignment != .left && t.alignment != .natural {
            TextDiagnostics.warnOnce("tab stops aligned \(t.alignment) are laid out as left tabs")
        }
        return t.location
    }
    let interval = Double(style?.defaultTabInterval ?? 0)
    guard interval > 0 else { return nil }
    return ((x + 1e-9) / interval).rounded(.down) * interval + interval
}

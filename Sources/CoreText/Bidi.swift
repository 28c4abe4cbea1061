import CFriBidi

/// The Unicode Bidirectional Algorithm (UAX #9) for one paragraph, by GNU FriBidi: resolved
/// embedding levels (rules P2–I2, brackets included), and per line the levels after rule L1
/// (trailing whitespace and separators back to the paragraph level). Visual order (L2) is
/// computed from the levels by `visualOrder`.
package struct BidiParagraph {
    package let baseLevel: UInt8
    package let levels: [UInt8]
    private let types: [FriBidiCharType]
    package let isAllLeftToRight: Bool

    /// `scalars`: one per UTF-16 unit (see `UTF16Text.scalars`), so levels index by unit.
    package init(scalars: ArraySlice<UInt32>, direction: CTWritingDirection) {
        let n = scalars.count
        var par: FriBidiParType = direction == .rightToLeft ? cfribidi_par_rtl() : direction == .leftToRight ? cfribidi_par_ltr() : cfribidi_par_on()
        // Fast path: nothing that can be right-to-left (below U+0590 and not an explicit control).
        let anyRTL = scalars.contains { $0 >= 0x0590 }
        if !anyRTL && direction != .rightToLeft {
            baseLevel = 0; levels = [UInt8](repeating: 0, count: n); types = []; isAllLeftToRight = true
            return
        }
        let chars = Array(scalars)
        var t = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var lv = [FriBidiLevel](repeating: 0, count: n)
        fribidi_get_bidi_types(chars, FriBidiStrIndex(n), &t)
        fribidi_get_bracket_types(chars, FriBidiStrIndex(n), t, &brackets)
        let maxLevel = fribidi_get_par_embedding_levels_ex(t, brackets, FriBidiStrIndex(n), &par, &lv)
        // FriBidi reports failure (allocation) as 0; the paragraph then reads as left-to-right.
        let base: UInt8 = (par == cfribidi_par_rtl()) ? 1 : 0
        baseLevel = base
        if maxLevel == 0 {
            levels = [UInt8](repeating: base, count: n)
        } else {
            levels = lv.map { UInt8(max(0, $0)) }
        }
        types = t
        isAllLeftToRight = maxLevel <= 1 && base == 0 && !levels.contains { $0 & 1 == 1 }
    }

    /// Levels of `range` (relative to the paragraph) after rule L1.
    package func lineLevels(_ range: Range<Int>) -> [UInt8] {
        if types.isEmpty { return Array(levels[range]) }
        var lv = levels[range].map { FriBidiLevel(bitPattern: $0) }
        let par: FriBidiParType = baseLevel == 1 ? cfribidi_par_rtl() : cfribidi_par_ltr()
        let t = Array(types[range])
        _ = fribidi_reorder_line(cfribidi_flags_default(), t, FriBidiStrIndex(range.count), 0, par, &lv, nil, nil)
        return lv.map { UInt8(bitPattern: $0) }
    }
}

/// L2: the visual order of runs with the given levels (reverse every maximal sequence at level
/// ≥ k, for k from the highest level down to the lowest odd level).
package func visualOrder(levels: [UInt8]) -> [Int] {
    var order = Array(levels.indices)
    guard let maxLevel = levels.max(), maxLevel > 0 else { return order }
    let minOdd = max(1, levels.min()! | 1)
    var k = maxLevel
    while k >= minOdd {
        var i = 0
        while i < order.count {
            if levels[order[i]] >= k {
                var j = i
                while j < order.count, levels[order[j]] >= k { j += 1 }
                order[i..<j].reverse()
                i = j
            } else { i += 1 }
        }
        if k == 0 { break }
        k -= 1
    }
    return order
}

import CICUBreak

/// UAX #14 line break opportunities by ICU's line break iterator: the UTF-16 offsets (relative
/// to `units`' start) before which a line may end, ascending, the text's end included; and
/// which of them are mandatory (after U+2028 and the like inside a paragraph).
package func lineBreakOpportunities(_ units: ArraySlice<UInt16>) -> (offsets: [Int], hard: Set<Int>) {
    let n = units.count
    guard n > 0 else { return ([], []) }
    var offsets: [Int] = []
    var hard: Set<Int> = []
    let ok: Bool = units.withUnsafeBufferPointer { p -> Bool in
        guard let it = cicu_line_break_open(p.baseAddress, Int32(n)) else { return false }
        defer { cicu_break_close(it) }
        while true {
            let b = cicu_break_next(it)
            if b < 0 || b > n { break }   // UBRK_DONE is -1
            offsets.append(Int(b))
            if cicu_break_is_hard(it) != 0 && Int(b) < n { hard.insert(Int(b)) }
            if Int(b) == n { break }
        }
        return true
    }
    LayoutWork.add(n + offsets.count)
    if !ok {
        // ICU unavailable for this text: break after spaces only.
        TextDiagnostics.warnOnce("ICU line breaking failed; breaking after spaces only")
        offsets = []
        for (k, u) in units.enumerated() where u == 0x20 { offsets.append(k + 1) }
        if offsets.last != n { offsets.append(n) }
    }
    return (offsets, hard)
}

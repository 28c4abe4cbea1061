/// UTF-16 helpers shared by the layout code. Core Text indexes strings in UTF-16 units
/// (CFIndex), and a string may hold unpaired surrogates (NSString can); each of those reads
/// as U+FFFD, one unit long, so nothing downstream ever sees an invalid scalar.
package enum UTF16Text {
    /// The scalar starting at `i` (a surrogate pair, or U+FFFD for an unpaired surrogate).
    package static func scalar(in units: [UInt16], at i: Int) -> Unicode.Scalar {
        let u = units[i]
        if UTF16.isLeadSurrogate(u), i + 1 < units.count, UTF16.isTrailSurrogate(units[i + 1]) {
            return Unicode.Scalar(0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00))!
        }
        if UTF16.isLeadSurrogate(u) || UTF16.isTrailSurrogate(u) { return "\u{FFFD}" }
        return Unicode.Scalar(u)!
    }

    /// Decodes into one scalar per UTF-16 unit (the second unit of a pair repeats the scalar's
    /// value with `isContinuation`) so that scalar and unit indices agree.
    package static func scalars(_ units: [UInt16]) -> (values: [UInt32], continuation: [Bool]) {
        var values = [UInt32](repeating: 0, count: units.count)
        var cont = [Bool](repeating: false, count: units.count)
        var i = 0
        while i < units.count {
            let s = scalar(in: units, at: i).value
            values[i] = s
            if s >= 0x10000 { values[i + 1] = s; cont[i + 1] = true; i += 2 } else { i += 1 }
        }
        return (values, cont)
    }
}

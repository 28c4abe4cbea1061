import Foundation

/// Text with attribute runs, as a Swift value: what Core Text lays out, and what `CATextLayer`
/// and the truncation code build, instead of an `NSAttributedString`.
///
/// Why not `NSAttributedString`: swift-corelibs-foundation's `NSAttributedString` never
/// releases the attribute values it stores (upstream swiftlang/swift-corelibs-foundation#5256,
/// docs/SECURITY.md). A string made per display (`CATextLayer` made one every `display()`)
/// kept its fonts — each a `CTFont` holding the whole font file when it was made from data —
/// and colours alive for ever. A Swift array of dictionaries releases them with the value.
/// A user's own `NSAttributedString` is still accepted: its attributes are read once into
/// this type (`init(_:)`), and nothing is stored back into an `NSAttributedString`.
package struct AttributedText: @unchecked Sendable {
    /// One run: a UTF-16 range of `units` and the attributes in force over it
    /// (`NSAttributedString.Key(kCT…AttributeName)` keys, as Core Text reads them).
    package struct Run {
        package var range: Range<Int>
        package var attributes: [NSAttributedString.Key: Any]
        package init(range: Range<Int>, attributes: [NSAttributedString.Key: Any]) {
            self.range = range; self.attributes = attributes
        }
    }

    /// The text as UTF-16 units (unpaired surrogates kept, as `NSString` keeps them).
    package private(set) var units: [UInt16]
    /// Runs in order, covering `units` without gaps (none when the text is empty).
    package private(set) var runs: [Run]

    package var length: Int { units.count }

    /// Plain text with one set of attributes over all of it.
    package init(string: String, attributes: [NSAttributedString.Key: Any] = [:]) {
        self.init(units: Array(string.utf16), attributes: attributes)
    }

    package init(units: [UInt16], attributes: [NSAttributedString.Key: Any] = [:]) {
        self.units = units
        runs = units.isEmpty ? [] : [Run(range: 0..<units.count, attributes: attributes)]
    }

    /// The text and attribute runs of a user's attributed string, read once (nothing is stored
    /// into a new `NSAttributedString`).
    package init(_ string: NSAttributedString) {
        units = Array(string.string.utf16)
        runs = []
        let n = min(string.length, units.count)
        guard n > 0 else { return }
        var collected: [Run] = []
        string.enumerateAttributes(in: NSRange(location: 0, length: n), options: []) { attrs, r, _ in
            let lo = max(0, r.location), hi = min(n, r.location + r.length)
            if lo < hi { collected.append(Run(range: lo..<hi, attributes: attrs)) }
        }
        runs = collected
        if let last = runs.last?.range.upperBound, last < units.count {
            runs.append(Run(range: last..<units.count, attributes: [:]))
        } else if runs.isEmpty {
            runs = [Run(range: 0..<units.count, attributes: [:])]
        }
    }

    /// The attributes at UTF-16 offset `index` (empty past the end).
    package func attributes(at index: Int) -> [NSAttributedString.Key: Any] {
        guard index >= 0, index < units.count else { return [:] }
        var lo = 0, hi = runs.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let r = runs[mid].range
            if index < r.lowerBound { hi = mid - 1 } else if index >= r.upperBound { lo = mid + 1 } else { return runs[mid].attributes }
        }
        return [:]
    }

    /// The text and runs of `range` (clamped to the text), offsets rebased to 0.
    package func substring(_ range: Range<Int>) -> AttributedText {
        let lo = max(0, min(units.count, range.lowerBound)), hi = max(lo, min(units.count, range.upperBound))
        var out = AttributedText(units: Array(units[lo..<hi]))
        out.runs = runs.compactMap { run in
            let a = max(lo, run.range.lowerBound), b = min(hi, run.range.upperBound)
            return a < b ? Run(range: (a - lo)..<(b - lo), attributes: run.attributes) : nil
        }
        return out
    }

    /// Appends `other`'s text and runs after this text's.
    /// Where the runs meet with equal attributes they become one run, as
    /// `NSMutableAttributedString.append` makes them (a truncated line and its token are one
    /// glyph run when they share attributes).
    package mutating func append(_ other: AttributedText) {
        let base = units.count
        units += other.units
        for (k, run) in other.runs.enumerated() {
            let moved = Run(range: (run.range.lowerBound + base)..<(run.range.upperBound + base), attributes: run.attributes)
            if k == 0, let last = runs.last, last.range.upperBound == moved.range.lowerBound,
               Self.sameAttributes(last.attributes, moved.attributes) {
                runs[runs.count - 1].range = last.range.lowerBound..<moved.range.upperBound
            } else {
                runs.append(moved)
            }
        }
    }

    /// Equal keys and values: hashable values by `==`, objects by identity.
    static func sameAttributes(_ a: [NSAttributedString.Key: Any], _ b: [NSAttributedString.Key: Any]) -> Bool {
        guard a.count == b.count else { return false }
        for (key, v) in a {
            guard let w = b[key] else { return false }
            if let x = v as? AnyHashable, let y = w as? AnyHashable {
                if x != y { return false }
            } else if (v as AnyObject) !== (w as AnyObject) {
                return false
            }
        }
        return true
    }

    /// Sets `value` for `key` in every run that has no value for it (CATextLayer: runs without
    /// a font take the layer's).
    package mutating func setIfMissing(_ key: NSAttributedString.Key, _ value: Any) {
        for i in runs.indices where runs[i].attributes[key] == nil { runs[i].attributes[key] = value }
    }
}

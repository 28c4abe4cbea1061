/// Deterministic damage to a valid document: cuts, byte changes, duplicated slices and inserted
/// fragments that readers of XML, JSON and image files must refuse or survive (an empty
/// processing instruction, entity declarations, unterminated sections, huge or non-numbers).
struct Mutator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64: the same inputs on every run, so a failure reproduces.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }

    static let fragments: [[UInt8]] = [
        "<?foo?>", "<?", "<!DOCTYPE x [<!ENTITY a \"&#38;a;&#38;a;\">]>", "&a;", "&#xFFFFFFFF;", "&#0;",
        "<![CDATA[", "]]>", "<", "</g>", "<svg>", "\u{0}", "xmlns:x=\"", "url(#", "d=\"M", "NaN", "1e999",
        "-1e308", "{", "}", "[", "]", "\"", ",", ":", "null", "\\u", "\\ud800", "\u{FEFF}", "\u{10FFFF}",
        "IDAT", "IEND", "VP8L", "RIFF", "\u{FF}\u{D8}\u{FF}",
    ].map { Array($0.utf8) }

    /// One to four of the damages, applied in turn.
    mutating func damage(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + below(4)) {
            let at = below(bytes.count + 1)
            switch below(5) {
            case 0: bytes.removeSubrange(at..<bytes.count)
            case 1: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: next()) }
            case 2: bytes.insert(contentsOf: Self.fragments[below(Self.fragments.count)], at: at)
            case 3:
                let end = min(bytes.count, at + below(64))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            default:
                let end = min(bytes.count, at + below(16))
                bytes.removeSubrange(at..<end)
            }
        }
        return bytes
    }
}

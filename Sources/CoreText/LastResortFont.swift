import Foundation

/// The font Core Text uses here when fontconfig finds no font at all (no fonts installed, or a
/// `FONTCONFIG_FILE` naming an empty configuration): a TrueType font built in memory with one
/// glyph, an empty .notdef half an em wide (ascent 0.8 em, descent 0.2 em, family
/// "LastResort"). Text in it lays out (every character is .notdef, so lines have widths and
/// wrap) and draws nothing; whoever asked for a font gets one warning naming it
/// (docs/TEXT.md, "Clamps and bad input"). Apple ships a LastResort font for the same job; its
/// glyphs are not reproduced.
///
/// The tables are the minimum FreeType and HarfBuzz need for a scalable TrueType face
/// (OpenType spec, "Font file" and the head/hhea/maxp/hmtx/loca/glyf/name/post chapters).
package enum LastResortFont {
    package static let unitsPerEm: UInt16 = 1000
    package static let advance: UInt16 = 500
    package static let postScriptName = "LastResort"

    /// The face, built once.
    package static let face: FontFace = {
        guard let f = FontFace(data: fontData(), sourceName: "built-in last-resort font") else {
            // The bytes are constant: failing here is a programming error caught by its test.
            preconditionFailure("CoreText: the built-in last-resort font does not load")
        }
        return f
    }()

    /// The font file's bytes.
    package static func fontData() -> Data {
        var head = Bytes()
        head.u32(0x0001_0000); head.u32(0x0001_0000); head.u32(0); head.u32(0x5F0F_3CF5)
        head.u16(0x000B); head.u16(unitsPerEm); head.u32(0); head.u32(0); head.u32(0); head.u32(0)
        head.i16(0); head.i16(-200); head.i16(Int16(advance)); head.i16(800)   // bbox
        head.u16(0); head.u16(8); head.i16(2); head.i16(0); head.i16(0)        // macStyle … glyphDataFormat

        var hhea = Bytes()
        hhea.u32(0x0001_0000); hhea.i16(800); hhea.i16(-200); hhea.i16(0)
        hhea.u16(advance); hhea.i16(0); hhea.i16(0); hhea.i16(0)
        hhea.i16(1); hhea.i16(0); hhea.i16(0)
        for _ in 0..<4 { hhea.i16(0) }
        hhea.i16(0); hhea.u16(1)                                                // numberOfHMetrics

        var maxp = Bytes()
        maxp.u32(0x0001_0000); maxp.u16(1)                                      // one glyph
        for _ in 0..<4 { maxp.u16(0) }
        maxp.u16(2)                                                             // maxZones
        for _ in 0..<8 { maxp.u16(0) }

        var hmtx = Bytes(); hmtx.u16(advance); hmtx.i16(0)
        var loca = Bytes(); loca.u16(0); loca.u16(0)                            // .notdef: no outline
        var glyf = Bytes(); glyf.u32(0)

        let names: [(UInt16, String)] = [(1, postScriptName), (2, "Regular"), (4, postScriptName), (6, postScriptName)]
        var name = Bytes(), strings = Bytes()
        name.u16(0); name.u16(UInt16(names.count)); name.u16(UInt16(6 + 12 * names.count))
        for (id, text) in names {
            let units = Array(text.utf16)
            name.u16(3); name.u16(1); name.u16(0x409); name.u16(id)
            name.u16(UInt16(units.count * 2)); name.u16(UInt16(strings.data.count))
            for u in units { strings.u16(u) }
        }
        name.data.append(strings.data)

        var post = Bytes()
        post.u32(0x0003_0000); post.u32(0); post.i16(-100); post.i16(50)
        for _ in 0..<5 { post.u32(0) }

        let tables: [(String, Data)] = [("glyf", glyf.data), ("head", head.data), ("hhea", hhea.data), ("hmtx", hmtx.data),
                                        ("loca", loca.data), ("maxp", maxp.data), ("name", name.data), ("post", post.data)]
        var file = Bytes()
        let n = UInt16(tables.count)
        var power: UInt16 = 1, log: UInt16 = 0
        while power * 2 <= n { power *= 2; log += 1 }
        file.u32(0x0001_0000); file.u16(n); file.u16(power * 16); file.u16(log); file.u16(n * 16 - power * 16)
        var offset = 12 + 16 * tables.count
        var body = Data()
        for (tag, data) in tables {
            for c in tag.utf8 { file.data.append(c) }
            file.u32(checksum(data)); file.u32(UInt32(offset)); file.u32(UInt32(data.count))
            var padded = data
            while padded.count % 4 != 0 { padded.append(0) }
            body.append(padded)
            offset += padded.count
        }
        file.data.append(body)
        return file.data
    }

    /// The table checksum: the sum of its big-endian 32-bit words, zero-padded.
    private static func checksum(_ data: Data) -> UInt32 {
        var sum: UInt32 = 0, word: UInt32 = 0
        for (i, b) in data.enumerated() {
            word = word << 8 | UInt32(b)
            if i % 4 == 3 { sum = sum &+ word; word = 0 }
        }
        let rest = data.count % 4
        if rest != 0 { sum = sum &+ (word << (8 * UInt32(4 - rest))) }
        return sum
    }

    /// Big-endian writer.
    private struct Bytes {
        var data = Data()
        mutating func u16(_ v: UInt16) { data.append(UInt8(v >> 8)); data.append(UInt8(v & 0xFF)) }
        mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
        mutating func u32(_ v: UInt32) { u16(UInt16(v >> 16)); u16(UInt16(v & 0xFFFF)) }
    }
}

import CAFrame

/// Runs of alike texels in shape coverage pages (issue 22). Most of a star's bounding box has
/// neither fill nor stroke coverage, where shape.frag's colour is 0 (a blend that changes
/// nothing), and most of the rest is its interior: full fill coverage and no stroke, where the
/// colour depends on that fill byte alone. Each upload records, per texel of its rectangle, the
/// length of the run of texels from it rightwards (up to the rectangle's right edge) whose fill
/// and stroke bytes (the low 16 bits) equal its own, so the row path skips an empty run in one
/// step and blends an interior run as one span (`SoftwareSpanBlend.fill`) without reading its
/// texels. An upload recomputes the runs of its rectangle and of the texels left of it in the
/// same rows whose runs reached into it, so no run ever claims a texel that differs now.
/// A run of 0 means not known (a page's texels before any upload).
extension SoftwareTarget {
    /// Recomputes the runs of the texels `u` wrote (clipped to the page).
    func updateCoverageRuns(_ u: ShapeAtlasUpload) {
        guard let runs = coverageRuns else { return }
        let xa = max(u.x, 0), xb = min(u.x + u.width, width)
        let ya = max(u.y, 0), yb = min(u.y + u.height, height)
        guard xa < xb, ya < yb else { return }
        let cap = Int(UInt16.max)
        for y in ya..<yb {
            let row = pixels + y * width, out = runs + y * width
            // Right to left, `end` is the first texel right of the current one where the bytes
            // change (the rectangle's right edge counts as a change): the run is end − x,
            // capped. Four texels at a time where no byte changes among them and their right
            // neighbour (most of a raster: its empty margin and its interior), compared in one
            // vector; one at a time where something changes.
            var end = xb
            var x = xb - 1
            out[x] = 1
            x -= 1
            let mask = SIMD4<UInt32>(repeating: 0xFFFF)
            while x - 3 >= xa {
                // Texels x − 3 … x against x − 2 … x + 1 (x + 1 < xb: inside the rectangle).
                let here = UnsafeRawPointer(row + x - 3).loadUnaligned(as: SIMD4<UInt32>.self) & mask
                let right = UnsafeRawPointer(row + x - 2).loadUnaligned(as: SIMD4<UInt32>.self) & mask
                let e = end &- x
                if here == right, e &+ 3 <= cap {
                    // Runs e + 3, e + 2, e + 1, e from x − 3 on: four 16-bit words in one
                    // 64-bit store (little-endian: the lowest address is the low word).
                    let words = UInt64(e) &* 0x0001_0001_0001_0001 &+ 0x0000_0001_0002_0003
                    UnsafeMutableRawPointer(out + (x &- 3)).storeBytes(of: words.littleEndian, as: UInt64.self)
                } else {
                    // A change among them, or runs at the cap: texel by texel.
                    for t in stride(from: x, through: x - 3, by: -1) {
                        if row[t + 1] & 0xFFFF != row[t] & 0xFFFF { end = t + 1 }
                        out[t] = UInt16(min(end - t, cap))
                    }
                }
                x -= 4
            }
            while x >= xa {
                if row[x + 1] & 0xFFFF != row[x] & 0xFFFF { end = x + 1 }
                out[x] = UInt16(min(end - x, cap))
                x -= 1
            }
            var next = Int(out[xa])
            var right = row[xa] & 0xFFFF
            // Texels left of the rectangle whose runs reached into it are recomputed (a run
            // that stops short of it is still true, and so is every run left of that: a run
            // covering its right neighbour is at most one longer than the neighbour's).
            while x >= 0, x + Int(out[x]) > xa {
                let v = row[x] & 0xFFFF
                next = v == right ? min(next + 1, Int(UInt16.max)) : 1
                right = v
                out[x] = UInt16(next)
                x -= 1
            }
        }
    }
}

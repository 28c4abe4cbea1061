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
        for y in ya..<yb {
            let row = pixels + y * width, out = runs + y * width
            var next = 0
            var x = xb - 1
            var right: UInt32 = 0
            while x >= xa {
                let v = row[x] & 0xFFFF
                next = next > 0 && v == right ? min(next + 1, Int(UInt16.max)) : 1
                right = v
                out[x] = UInt16(next)
                x -= 1
            }
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

import CAFrame

/// Runs of empty texels in shape coverage pages (issue 22): most of a star's bounding box has
/// neither fill nor stroke coverage, and shape.frag's colour there is 0 (a blend that changes
/// nothing). Each upload records, per texel of its rectangle, the length of the empty run that
/// starts there (up to the rectangle's right edge), so the row path skips a run in one step
/// instead of visiting each texel. An upload recomputes the runs of its rectangle and of the
/// empty texels left of it in the same rows (whose runs may have reached into it), so no run
/// ever claims a texel that is not empty now.
extension SoftwareTarget {
    /// Recomputes the runs of the texels `u` wrote (clipped to the page).
    func updateZeroRuns(_ u: ShapeAtlasUpload) {
        guard let runs = zeroRuns else { return }
        let xa = max(u.x, 0), xb = min(u.x + u.width, width)
        let ya = max(u.y, 0), yb = min(u.y + u.height, height)
        guard xa < xb, ya < yb else { return }
        for y in ya..<yb {
            let row = pixels + y * width, out = runs + y * width
            var next = 0
            var x = xb - 1
            while x >= xa {
                next = row[x] & 0xFFFF == 0 ? min(next + 1, Int(UInt16.max)) : 0
                out[x] = UInt16(next)
                x -= 1
            }
            // Empty texels left of the rectangle whose runs reached into it are recomputed
            // (a run that stops short of it is still true, and so is every run left of that).
            while x >= 0, row[x] & 0xFFFF == 0, x + Int(out[x]) > xa {
                next = min(next + 1, Int(UInt16.max))
                out[x] = UInt16(next)
                x -= 1
            }
        }
    }
}

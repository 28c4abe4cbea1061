import CAFrame
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shape atlas in memory (as `GLShapeAtlas`): one RGBA8 page per coverage
/// `ShapeAtlasPage` (plus its auxiliary page once an upload brings `aux` texels), one RGBA32F
/// page per field page; created zeroed when a frame first lists a page, written where uploads
/// bring new rasters (each applied once, by serial), dropped when no frame lists it.
final class SoftwareShapeAtlas: @unchecked Sendable {
    var coverage: [Int: SoftwareTarget] = [:]
    var aux: [Int: SoftwareTarget] = [:]
    var fields: [Int: SoftwareFieldPage] = [:]
    /// Rasters uploaded as runs (`ShapeCoverageSpans`), by page id and origin in the page:
    /// their texels in the page are not written until an instance needs them (`densify`).
    var runs: [Int: [SIMD2<Int>: ShapeCoverageSpans]] = [:]
    var appliedSerial = 0

    /// Coverage pages no frame lists any more, kept for new pages of their size (`recycled`),
    /// with the sync that dropped them.
    var spare: [(page: SoftwareTarget, dropped: Int)] = []
    var syncs = 0
    /// A dropped page not reused within this many frames is freed.
    static let spareFrames = 120
    /// Whether new pages reuse dropped ones (tests turn it off for the fresh pages to compare).
    var reusesPages = true

    func sync(_ frame: RenderFrame) {
        syncs += 1
        let live = Set(frame.shapePages.map(\.id))
        if coverage.count + fields.count != live.count || frame.shapePages.contains(where: { coverage[$0.id] == nil && fields[$0.id] == nil }) {
            for (id, page) in coverage where !live.contains(id) { spare.append((page, syncs)) }
            coverage = coverage.filter { live.contains($0.key) }
            aux = aux.filter { live.contains($0.key) }
            runs = runs.filter { live.contains($0.key) }
            fields = fields.filter { live.contains($0.key) }
            for p in frame.shapePages where coverage[p.id] == nil && fields[p.id] == nil {
                if p.isField { fields[p.id] = SoftwareFieldPage(width: p.width, height: p.height) }
                else { coverage[p.id] = recycled(width: p.width, height: p.height) }
            }
        }
        if !spare.isEmpty { spare.removeAll { syncs - $0.dropped > Self.spareFrames } }
        for u in frame.shapeUploads where u.serial > appliedSerial {
            appliedSerial = u.serial
            if u.field.isEmpty {
                guard let t = coverage[u.page] else { continue }
                let inside = u.x >= 0 && u.y >= 0 && u.width > 0 && u.height > 0 && u.x <= t.width - u.width && u.y <= t.height - u.height
                if let s = u.spans, inside, s.width == u.width, s.height == u.height, s.isWellFormed {
                    runs[u.page, default: [:]][SIMD2(u.x, u.y)] = s
                    continue
                }
                runs[u.page]?[SIMD2(u.x, u.y)] = nil
                if u.spans != nil {
                    // Runs outside the page, or not fitting or describing their rectangle: the
                    // rectangle (as far as it is in the page) is written empty.
                    Self.zero(u, in: t)
                } else {
                    Self.copy(u.coverage, u, into: t)
                }
                Self.clearGutter(around: u, in: t)
                t.updateCoverageRuns(u)
                if !u.aux.isEmpty {
                    let a = aux[u.page] ?? SoftwareTarget(width: t.width, height: t.height)
                    aux[u.page] = a
                    Self.copy(u.aux, u, into: a)
                    Self.clearGutter(around: u, in: a)
                }
            } else if let f = fields[u.page] {
                f.write(u)
            }
        }
    }

    /// Writes the texels of the raster uploaded as runs at `origin` of page `page` (and its
    /// gutter and coverage runs, as a dense upload does), for an instance that cannot draw
    /// from the runs (rotated, under perspective, clipped, additive): after this the page holds
    /// what a dense upload of the same raster leaves. Called while a pass is prepared, before
    /// any band draws.
    func densify(page: Int, at origin: SIMD2<Int>) {
        guard let s = runs[page]?[origin], let t = coverage[page] else { return }
        runs[page]?[origin] = nil
        let u = ShapeAtlasUpload(serial: 0, page: page, x: origin.x, y: origin.y, width: s.width, height: s.height,
                                 coverage: s.denseCoverage(), field: [], aux: [])
        Self.copy(u.coverage, u, into: t)
        Self.clearGutter(around: u, in: t)
        t.updateCoverageRuns(u)
    }

    /// A coverage page of `width × height` for a new page id: a dropped one of that size as it
    /// is, else a new, zeroed one. When the shape cache resets its atlas (a Lottie layer whose
    /// rasters change every frame fills several pages within a few dozen frames, issue 23:
    /// 9squares) the frame drops every page and lists new ones of the same size, one after
    /// another as they fill: a fresh 2048² page was 16 MB of page faults and kernel zeroing plus
    /// 8 MB of runs, 17 % of a 9squares frame on the CPU backend.
    ///
    /// Not clearing is safe because a page's texels are read only inside the rasters uploaded
    /// into it and in the one-texel gutter around each (bilinear sampling under perspective
    /// reaches half a texel out; nearest sampling clamps to the raster), which every upload
    /// clears (`clearGutter`); runs are read only inside rasters, and never reach past the
    /// upload that wrote them (`SoftwareCoverageRuns`). So a reused page draws the bytes a fresh
    /// one does, as the GL backend's zeroed pages do.
    func recycled(width: Int, height: Int) -> SoftwareTarget {
        let w = max(width, 1), h = max(height, 1)
        guard reusesPages, let i = spare.firstIndex(where: { $0.page.width == w && $0.page.height == h && $0.page.coverageRuns != nil }) else {
            return SoftwareTarget(width: width, height: height, tracksCoverageRuns: true)
        }
        return spare.remove(at: i).page
    }

    /// Zeroes `u`'s rectangle in `t`, clipped to the page.
    static func zero(_ u: ShapeAtlasUpload, in t: SoftwareTarget) {
        let xa = max(u.x, 0), xb = min(u.x &+ max(u.width, 0), t.width)
        let ya = max(u.y, 0), yb = min(u.y &+ max(u.height, 0), t.height)
        guard xa < xb, ya < yb else { return }
        for y in ya..<yb { (t.pixels + y * t.width + xa).update(repeating: 0, count: xb - xa) }
    }

    /// Zeroes the one-texel frame around `u`'s rectangle in `t` (clipped to the page): the
    /// atlas leaves a texel of gutter right of and below every raster
    /// (`ShapeCache.Page.allocate`), so the frame is gutter (its own, its left neighbour's, the
    /// shelf's above) and never another raster's texels.
    static func clearGutter(around u: ShapeAtlasUpload, in t: SoftwareTarget) {
        guard u.width > 0, u.height > 0 else { return }
        let x0 = max(u.x - 1, 0), x1 = min(u.x + u.width + 1, t.width)
        let y0 = max(u.y - 1, 0), y1 = min(u.y + u.height + 1, t.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in [u.y - 1, u.y + u.height] where y >= 0 && y < t.height {
            (t.pixels + y * t.width + x0).update(repeating: 0, count: x1 - x0)
        }
        for x in [u.x - 1, u.x + u.width] where x >= 0 && x < t.width {
            for y in y0..<y1 { t.pixels[y * t.width + x] = 0 }
        }
    }

    /// Copies RGBA8 rows (top first) into the rectangle of `u`, clipped to the page. A texel's
    /// bytes R, G, B, A become its `UInt32` with R in the low byte (`SoftwareTarget`'s memory
    /// order): on a little-endian host that is the bytes as they are, so each row is one
    /// memory copy (issue 23: the texel-by-texel loop was 7 % of a 9squares frame on the CPU
    /// backend); elsewhere the texels are assembled one by one.
    static func copy(_ bytes: [UInt8], _ u: ShapeAtlasUpload, into t: SoftwareTarget) {
        guard u.width > 0, u.height > 0, bytes.count >= u.width * u.height * 4 else { return }
        // The columns and rows of the rectangle inside the page.
        let xa = max(u.x, 0), xb = min(u.x + u.width, t.width)
        let ya = max(u.y, 0), yb = min(u.y + u.height, t.height)
        guard xa < xb, ya < yb else { return }
        bytes.withUnsafeBytes { b in
            for y in ya..<yb {
                let row = y - u.y
                #if _endian(little)
                let src = b.baseAddress! + (row * u.width + (xa - u.x)) * 4
                UnsafeMutableRawPointer(t.pixels + y * t.width + xa).copyMemory(from: src, byteCount: (xb - xa) * 4)
                #else
                for x in xa..<xb {
                    let s = (row * u.width + (x - u.x)) * 4
                    t.pixels[y * t.width + x] = UInt32(b[s]) | UInt32(b[s + 1]) << 8 | UInt32(b[s + 2]) << 16 | UInt32(b[s + 3]) << 24
                }
                #endif
            }
        }
    }
}

/// An RGBA32F page of exact arc-length fields.
final class SoftwareFieldPage: @unchecked Sendable {
    let width: Int, height: Int
    /// The texels, held by pointer: a `var` array in a class is checked for exclusive access
    /// at every read, once per covered texel of a wide stroke.
    let data: UnsafeMutablePointer<SIMD4<Float>>

    /// Zeroed by `calloc`, which hands a page this large (16 MB at `ShapeCache.fieldPageSize`)
    /// over as untouched zero pages: only the texels written cost memory and time (issue 23:
    /// zeroing every texel was 11 ms of the frame that first drew a width-free stroke).
    init(width: Int, height: Int) {
        self.width = max(width, 1); self.height = max(height, 1)
        let n = self.width * self.height
        guard let p = calloc(n, MemoryLayout<SIMD4<Float>>.stride) else { fatalError("SoftwareFieldPage: out of memory for \(n) texels") }
        data = p.bindMemory(to: SIMD4<Float>.self, capacity: n)
    }

    deinit { free(data) }

    /// The upload's RGBA floats copied row by row (the same layout as the page's `SIMD4<Float>`
    /// texels), clipped to the page.
    func write(_ u: ShapeAtlasUpload) {
        guard u.width > 0, u.height > 0, u.field.count >= u.width * u.height * 4 else { return }
        let c0 = max(0, -u.x), c1 = min(u.width, width - u.x)
        guard c0 < c1 else { return }
        u.field.withUnsafeBufferPointer { src in
            let raw = UnsafeRawPointer(src.baseAddress!)
            for row in 0..<u.height {
                let y = u.y + row
                guard y >= 0, y < height else { continue }
                UnsafeMutableRawPointer(data + y * width + u.x + c0)
                    .copyMemory(from: raw + ((row * u.width + c0) * 4) * MemoryLayout<Float>.stride,
                                byteCount: (c1 - c0) * MemoryLayout<SIMD4<Float>>.stride)
            }
        }
    }

    @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> { texels.texel(x, y) }

    /// The texels by pointer (valid while the page lives).
    var texels: Texels { Texels(data: data, width: width, height: height) }

    /// The page's texels without the page: reading through it costs no reference count.
    struct Texels {
        let data: UnsafeMutablePointer<SIMD4<Float>>
        let width: Int, height: Int

        @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            data[min(max(y, 0), height - 1) &* width &+ min(max(x, 0), width - 1)]
        }
    }

    /// Bilinear at texel-space (x, y), clamped to the edge.
    @inline(__always) func bilinear(_ x: Float, _ y: Float) -> SIMD4<Float> {
        let fx = x - 0.5, fy = y - 0.5
        let x0f = fx.softwareFloor, y0f = fy.softwareFloor
        let ax = fx - x0f, ay = fy - y0f
        let x0 = SoftwareClamp.int(x0f), y0 = SoftwareClamp.int(y0f)
        let a = texel(x0, y0), b = texel(x0 + 1, y0), c = texel(x0, y0 + 1), d = texel(x0 + 1, y0 + 1)
        let top = a + (b - a) * ax, bottom = c + (d - c) * ax
        return top + (bottom - top) * ay
    }
}

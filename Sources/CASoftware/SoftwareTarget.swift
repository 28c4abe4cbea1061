import Foundation

/// A premultiplied RGBA8 render target in memory, row 0 at the top (as the GL backend's
/// offscreen targets and its read-back): one `UInt32` per texel, bytes R, G, B, A in memory
/// order. Blending is GL's premultiplied source-over (`ONE, ONE_MINUS_SRC_ALPHA`) or additive
/// (`ONE, ONE`), rounding to 8 bits at every write as an RGBA8 colour attachment does.
final class SoftwareTarget: @unchecked Sendable {
    let width: Int
    let height: Int
    let pixels: UnsafeMutablePointer<UInt32>
    /// Shape coverage pages only: per texel, how many texels from it rightwards (within the
    /// upload that wrote them) have its fill and stroke bytes; 0 = not known
    /// (`SoftwareCoverageRuns.swift`).
    let coverageRuns: UnsafeMutablePointer<UInt16>?

    /// The texels (and runs) start at 0 through `calloc`: a large block comes zeroed from the
    /// kernel, so its pages are only faulted in where something is drawn. A 2048² shape atlas
    /// page zeroed by hand was 24 MB written at once, and most of the page faults of a Lottie
    /// frame whose atlas keeps growing (issue 23: 9squares). Freed with `free`.
    /// Whether `pixels` was allocated here (and is freed here); a target over texels it was lent
    /// (`init(width:height:texels:)`) leaves them to their owner.
    private let ownsPixels: Bool
    /// Per row, the columns [x, y) outside which every texel is zero, where known: nil until a
    /// draw pass clears the target (`startRowExtents`), and again after a pass that does not
    /// report what it writes (`SoftwareRowExtents.swift`).
    private(set) var rowExtents: UnsafeMutablePointer<SIMD2<Int32>>?
    /// `rowExtents`' memory: a pool block's (`SoftwareTargetPool.Block`), or made here at the
    /// first clearing pass and freed with the target (`ownsRowExtentStorage`).
    var rowExtentStorage: UnsafeMutablePointer<SIMD2<Int32>>?
    var ownsRowExtentStorage = false

    /// A target over `width × height` texels it does not own (the main target over
    /// `SoftwareRenderer`'s frame array): the owner keeps them alive and in place while the
    /// target is used.
    init(width: Int, height: Int, texels: UnsafeMutablePointer<UInt32>, rowExtents: UnsafeMutablePointer<SIMD2<Int32>>? = nil) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        pixels = texels
        rowExtentStorage = rowExtents
        coverageRuns = nil
        ownsPixels = false
    }

    init(width: Int, height: Int, tracksCoverageRuns: Bool = false) {
        ownsPixels = true
        self.width = max(width, 1)
        self.height = max(height, 1)
        let n = self.width * self.height
        guard let p = calloc(n, MemoryLayout<UInt32>.stride) else { fatalError("SoftwareTarget: out of memory for \(n) texels") }
        pixels = p.bindMemory(to: UInt32.self, capacity: n)
        if tracksCoverageRuns {
            guard let r = calloc(n, MemoryLayout<UInt16>.stride) else { fatalError("SoftwareTarget: out of memory for \(n) runs") }
            coverageRuns = r.bindMemory(to: UInt16.self, capacity: n)
        } else {
            coverageRuns = nil
        }
    }

    deinit {
        if ownsPixels { free(pixels) }
        free(coverageRuns)
        if ownsRowExtentStorage { rowExtentStorage?.deallocate() }
    }

    /// Sets `rowExtents` (for `SoftwareRowExtents.swift`).
    func setRowExtents(_ e: UnsafeMutablePointer<SIMD2<Int32>>?) { rowExtents = e }

    /// Fills every texel with `color` (premultiplied, 0…1), as `glClear`.
    func clear(_ color: SIMD4<Float>) {
        let v = SoftwarePixel.pack(color)
        pixels.update(repeating: v, count: width * height)
    }

    /// Fills the texels of `rows` with `color`: `clear(_:)` for one band of a pass. Texels in
    /// `except` are left as they are (the pass's first instance overwrites them).
    func clear(_ color: SIMD4<Float>, rows: Range<Int>, except: SoftwareSpan = .none) {
        let r = rows.clamped(to: 0..<height)
        guard !r.isEmpty else { return }
        let v = SoftwarePixel.pack(color)
        let x0 = min(max(except.x0, 0), width), x1 = min(max(except.x1, x0), width)
        guard !except.isEmpty, x0 < x1 else {
            (pixels + r.lowerBound * width).update(repeating: v, count: r.count * width)
            return
        }
        for y in r {
            let row = pixels + y * width
            if y < except.y0 || y >= except.y1 {
                row.update(repeating: v, count: width)
            } else {
                row.update(repeating: v, count: x0)
                (row + x1).update(repeating: v, count: width - x1)
            }
        }
    }

    /// `clear(_:rows:except:)` of the texels inside `area` only (the texels outside it already
    /// hold `color`).
    func clear(_ color: SIMD4<Float>, rows: Range<Int>, within area: SoftwareSpan, except: SoftwareSpan = .none) {
        let r = rows.clamped(to: max(area.y0, 0)..<max(min(area.y1, height), max(area.y0, 0)))
        let a0 = min(max(area.x0, 0), width), a1 = min(max(area.x1, a0), width)
        guard !r.isEmpty, a0 < a1 else { return }
        let v = SoftwarePixel.pack(color)
        let e0 = min(max(except.x0, a0), a1), e1 = min(max(except.x1, e0), a1)
        for y in r {
            let row = pixels + y * width
            if except.isEmpty || e0 >= e1 || y < except.y0 || y >= except.y1 {
                (row + a0).update(repeating: v, count: a1 - a0)
            } else {
                (row + a0).update(repeating: v, count: e0 - a0)
                (row + e1).update(repeating: v, count: a1 - e1)
            }
        }
    }

    /// The texel at (x, y), clamped to the edge (GL_CLAMP_TO_EDGE), as 0…1 floats.
    @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> { texels.texel(x, y) }

    /// The texels by pointer (valid while the target lives).
    var texels: Texels { Texels(pixels: pixels, width: width, height: height) }

    /// The target's texels without the target: reading through it costs no reference count.
    struct Texels {
        let pixels: UnsafeMutablePointer<UInt32>
        let width: Int, height: Int

        /// The texel at (x, y), clamped to the edge, as 0…1 floats.
        @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            SoftwarePixel.unpack(pixels[min(max(y, 0), height - 1) &* width &+ min(max(x, 0), width - 1)])
        }
    }

    /// Bilinear sample at texel-space point (x, y) (texel centres at +0.5), clamped to the
    /// edge: GL_LINEAR on an RGBA8 texture.
    @inline(__always) func bilinear(_ x: Float, _ y: Float) -> SIMD4<Float> {
        let fx = x - 0.5, fy = y - 0.5
        let x0f = fx.softwareFloor, y0f = fy.softwareFloor
        let ax = fx - x0f, ay = fy - y0f
        let x0 = SoftwareClamp.int(x0f), y0 = SoftwareClamp.int(y0f)
        let a = texel(x0, y0), b = texel(x0 &+ 1, y0), c = texel(x0, y0 &+ 1), d = texel(x0 &+ 1, y0 &+ 1)
        let top = a + (b - a) * ax, bottom = c + (d - c) * ax
        return top + (bottom - top) * ay
    }

    /// Premultiplied source-over of `src` (0…1, clamped as a colour attachment clamps) at (x, y).
    @inline(__always) func blend(_ x: Int, _ y: Int, _ src: SIMD4<Float>, additive: Bool) {
        let i = y * width + x
        pixels[i] = SoftwarePixel.blend(src, over: pixels[i], additive: additive)
    }
}

/// Conversions between packed RGBA8 texels and 0…1 floats.
enum SoftwarePixel {
    @inline(__always) static func unpack(_ v: UInt32) -> SIMD4<Float> {
        SIMD4(Float(v & 0xFF), Float((v >> 8) & 0xFF), Float((v >> 16) & 0xFF), Float(v >> 24)) * (1 / 255)
    }

    /// Rounds to the nearest 8-bit level (GL's float → UNORM8 conversion), clamping to 0…1
    /// (NaN becomes 0).
    @inline(__always) static func pack(_ c: SIMD4<Float>) -> UInt32 {
        var s = c * 255 + 0.5
        s = s.replacing(with: 0, where: .!(s .>= 0))
        s = s.replacing(with: 255, where: s .> 255)
        // Lane by lane: the generic SIMD float → integer conversion is a library call per lane
        // (it was a third of the CPU backend's time); each lane is within 0…255 here.
        return UInt32(s.x) | (UInt32(s.y) << 8) | (UInt32(s.z) << 16) | (UInt32(s.w) << 24)
    }

    /// GL blending into an RGBA8 attachment: the fragment colour is clamped to 0…1, the
    /// destination read as UNORM8, the sum rounded back to 8 bits.
    @inline(__always) static func blend(_ src: SIMD4<Float>, over dst: UInt32, additive: Bool) -> UInt32 {
        var s = src.replacing(with: 0, where: .!(src .>= 0))
        s = s.replacing(with: 1, where: s .> 1)
        if !additive && s.w >= 1 { return pack(s) }
        if dst == 0 { return pack(s) }
        let d = unpack(dst)
        return pack(additive ? s + d : s + d * (1 - s.w))
    }
}

/// Float → Int for texel addressing of values that may be huge or NaN (saturating, as the
/// project's clamped conversions).
enum SoftwareClamp {
    @inline(__always) static func int(_ v: Float) -> Int {
        guard v == v else { return 0 }
        if v >= 1e9 { return 1_000_000_000 }
        if v <= -1e9 { return -1_000_000_000 }
        return Int(v)
    }
}

extension Float {
    /// `rounded(.down)` without the library call it compiles to on baseline x86-64 (no SSE4.1
    /// `roundss`): one conversion each way where the value is an integer-sized float, the
    /// library otherwise (NaN, infinities, |x| ≥ 2²³, which are integers or NaN already).
    @inline(__always) var softwareFloor: Float {
        guard abs(self) < 8_388_608 else { return rounded(.down) }
        let t = Float(Int32(self))
        return t > self ? t - 1 : t
    }
}

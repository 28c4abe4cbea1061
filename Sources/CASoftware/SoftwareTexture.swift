import CoreGraphics
import CAFrame

/// An image's texels for the image pipeline (RGBA8, as the GL backend uploads them), with a
/// mipmap chain made on first trilinear use (2×2 box filter, as `glGenerateMipmap`).
final class SoftwareTexture: @unchecked Sendable {
    private(set) var levels: [SoftwareTarget]
    var lastUsed = 0
    /// The image it was made from, not held: the renderer keeps textures by the image's
    /// identity, an address that a later image can take once this one is freed, so a kept
    /// texture is used only while this is still that image (`SoftwareRenderer.texture(for:)`).
    private(set) weak var source: CGImage?

    init(_ img: CGImage) {
        source = img
        let w = max(img.width, 1), h = max(img.height, 1)
        let t = SoftwareTarget(width: w, height: h)
        let bytes = img.rgba8Bytes
        if bytes.count >= w * h * 4 {
            bytes.withUnsafeBytes { UnsafeMutableRawPointer(t.pixels).copyMemory(from: $0.baseAddress!, byteCount: w * h * 4) }
        }
        levels = [t]
    }

    var width: Int { levels[0].width }
    var height: Int { levels[0].height }
    var byteCount: Int { levels.reduce(0) { $0 + $1.width * $1.height * 4 } }

    func ensureMipmaps() {
        guard levels.count == 1 else { return }
        var prev = levels[0]
        while prev.width > 1 || prev.height > 1 {
            let w = max(prev.width / 2, 1), h = max(prev.height / 2, 1)
            let next = SoftwareTarget(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    let sx = x * 2, sy = y * 2
                    let sum = prev.texel(sx, sy) + prev.texel(sx + 1, sy) + prev.texel(sx, sy + 1) + prev.texel(sx + 1, sy + 1)
                    next.pixels[y * w + x] = SoftwarePixel.pack(sum * 0.25)
                }
            }
            levels.append(next)
            prev = next
        }
    }

    /// Nearest texel at normalised `tc` (GL_NEAREST, clamped to the edge).
    @inline(__always) func nearest(_ tc: SIMD2<Float>, level: Int = 0) -> SIMD4<Float> {
        let l = levels[level]
        return l.texel(SoftwareClamp.int((tc.x * Float(l.width)).softwareFloor), SoftwareClamp.int((tc.y * Float(l.height)).softwareFloor))
    }

    /// Bilinear at normalised `tc` on `level` (GL_LINEAR, clamped to the edge).
    @inline(__always) func linear(_ tc: SIMD2<Float>, level: Int = 0) -> SIMD4<Float> {
        let l = levels[level]
        return l.bilinear(tc.x * Float(l.width), tc.y * Float(l.height))
    }

    /// `textureGrad` with GL_LINEAR_MIPMAP_LINEAR: the level of detail from the larger of the
    /// two gradients (in level-0 texels), magnification bilinear on level 0.
    @inline(__always) func trilinear(_ tc: SIMD2<Float>, _ gx: SIMD2<Float>, _ gy: SIMD2<Float>) -> SIMD4<Float> {
        let size = SIMD2(Float(width), Float(height))
        let dx = gx * size, dy = gy * size
        let rho = max((dx * dx).sum(), (dy * dy).sum()).squareRoot()
        let lambda = rho > 0 ? log2(rho) : -1
        guard lambda > 0, levels.count > 1 else { return linear(tc) }
        let maxLevel = Float(levels.count - 1)
        let d = min(lambda, maxLevel)
        let d0 = Int(d.softwareFloor), d1 = min(d0 + 1, levels.count - 1)
        let f = d - Float(d0)
        let a = linear(tc, level: d0)
        return f > 0 ? a + (linear(tc, level: d1) - a) * f : a
    }
}

/// The frame's gradient colour ramps (`RenderFrame.gradientRamps`), sampled as the GL
/// backend's RGBA32F ramp texture with linear filtering.
struct SoftwareRamps {
    let data: [Float]
    let rows: Int
    /// Per row, whether every texel's alpha is 1 (the gradient interiors' opaque loop).
    let opaqueRows: [Bool]

    init(_ frame: RenderFrame) {
        data = frame.gradientRamps
        rows = frame.gradientRampRows
        let w = GradientInstance.rampWidth
        let d = data
        opaqueRows = (0..<rows).map { r in
            let b = r * w * 4
            return b + w * 4 <= d.count && stride(from: b + 3, to: b + w * 4, by: 4).allSatisfy { d[$0] == 1 }
        }
    }

    /// Row `row` at t ∈ [0, 1] (texel centres at t = 0 and 1).
    @inline(__always) func sample(row: Float, t: Float) -> SIMD4<Float> {
        guard rows > 0 else { return .zero }
        let w = GradientInstance.rampWidth
        let r = min(max(SoftwareClamp.int(row.softwareFloor), 0), rows - 1)
        let x = t * Float(w - 1)
        let xf = x.softwareFloor
        let i0 = min(max(Int(xf), 0), w - 1), i1 = min(i0 + 1, w - 1)
        let f = x - xf
        return data.withUnsafeBufferPointer { d in
            let b = r * w * 4
            let a = SIMD4(d[b + i0 * 4], d[b + i0 * 4 + 1], d[b + i0 * 4 + 2], d[b + i0 * 4 + 3])
            let c = SIMD4(d[b + i1 * 4], d[b + i1 * 4 + 1], d[b + i1 * 4 + 2], d[b + i1 * 4 + 3])
            return a + (c - a) * f
        }
    }
}

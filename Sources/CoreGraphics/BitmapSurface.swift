// The pixels a CGContext draws into: the bitmap of a context (in the layout its creator chose)
// or a transparency layer (premultiplied RGBA8). Drawing reads and writes them one premultiplied
// `SIMD4<Float>` (r, g, b, a in 0…1) at a time; this file is the only place that knows the byte
// layouts.

/// Where each component of a pixel sits, for the layouts a bitmap context accepts.
package enum PixelLayout: Sendable, Equatable {
    /// 4 bytes a pixel: byte offsets of R, G, B, and of A (nil: no alpha, the byte is padding
    /// and every pixel is opaque).
    case rgba32(r: Int, g: Int, b: Int, a: Int?)
    /// 1 byte a pixel, gray, opaque.
    case gray8
    /// 1 byte a pixel, alpha only (colour is black).
    case alpha8

    var bytesPerPixel: Int {
        switch self {
        case .rgba32: 4
        case .gray8, .alpha8: 1
        }
    }

    var hasAlpha: Bool {
        switch self {
        case .rgba32(_, _, _, let a): a != nil
        case .gray8: false
        case .alpha8: true
        }
    }

    /// The layout for an alpha info and byte order (RGB, 32 bits a pixel).
    static func rgba(_ alpha: CGImageAlphaInfo, littleEndian: Bool) -> PixelLayout? {
        switch alpha {
        case .premultipliedLast: littleEndian ? .rgba32(r: 3, g: 2, b: 1, a: 0) : .rgba32(r: 0, g: 1, b: 2, a: 3)
        case .premultipliedFirst: littleEndian ? .rgba32(r: 2, g: 1, b: 0, a: 3) : .rgba32(r: 1, g: 2, b: 3, a: 0)
        case .noneSkipLast: littleEndian ? .rgba32(r: 3, g: 2, b: 1, a: nil) : .rgba32(r: 0, g: 1, b: 2, a: nil)
        case .noneSkipFirst: littleEndian ? .rgba32(r: 2, g: 1, b: 0, a: nil) : .rgba32(r: 1, g: 2, b: 3, a: nil)
        default: nil
        }
    }

    /// Premultiplied RGBA8 in R, G, B, A byte order: transparency layers and CGImage storage.
    static let premultipliedRGBA = PixelLayout.rgba32(r: 0, g: 1, b: 2, a: 3)
}

/// A pixel buffer: rows top first (row 0 is the top of the image, as Apple's bitmap `data`).
/// Does not own its memory (the context or the layer that made it does).
package struct BitmapSurface {
    let base: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    let bytesPerRow: Int
    let layout: PixelLayout

    @inline(__always) func offset(_ x: Int, _ y: Int) -> Int { y * bytesPerRow + x * layout.bytesPerPixel }

    /// The premultiplied colour at pixel (x, y), row 0 at the top.
    @inline(__always) func load(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let p = base + offset(x, y)
        switch layout {
        case .rgba32(let r, let g, let b, let a):
            let alpha: Float = a.map { Float(p.load(fromByteOffset: $0, as: UInt8.self)) } ?? 255
            return SIMD4(Float(p.load(fromByteOffset: r, as: UInt8.self)), Float(p.load(fromByteOffset: g, as: UInt8.self)),
                         Float(p.load(fromByteOffset: b, as: UInt8.self)), alpha) * (1 / 255)
        case .gray8:
            let v = Float(p.load(as: UInt8.self)) * (1 / 255)
            return SIMD4(v, v, v, 1)
        case .alpha8:
            return SIMD4(0, 0, 0, Float(p.load(as: UInt8.self)) * (1 / 255))
        }
    }

    /// Stores a premultiplied colour (clamped to 0…1, rounded to nearest). A layout without
    /// alpha keeps the colour as if composited over black (its alpha is 1 by definition); gray
    /// stores the Rec. 601 luma of the colour.
    @inline(__always) func store(_ c: SIMD4<Float>, _ x: Int, _ y: Int) {
        let p = base + offset(x, y)
        let v = (c.clamped(lowerBound: .zero, upperBound: .one) * 255 + 0.5)
        switch layout {
        case .rgba32(let r, let g, let b, let a):
            p.storeBytes(of: UInt8(v.x), toByteOffset: r, as: UInt8.self)
            p.storeBytes(of: UInt8(v.y), toByteOffset: g, as: UInt8.self)
            p.storeBytes(of: UInt8(v.z), toByteOffset: b, as: UInt8.self)
            if let a { p.storeBytes(of: UInt8(v.w), toByteOffset: a, as: UInt8.self) }
        case .gray8:
            let l = (0.299 * v.x + 0.587 * v.y + 0.114 * v.z).rounded(.down)
            p.storeBytes(of: UInt8(Swift.min(l, 255)), as: UInt8.self)
        case .alpha8:
            p.storeBytes(of: UInt8(v.w), as: UInt8.self)
        }
    }

    /// Premultiplied RGBA8, tightly packed, rows top first: what `CGImage` stores.
    func premultipliedRGBA8() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { o in
            var i = 0
            for y in 0..<height {
                let row = base + y * bytesPerRow
                switch layout {
                case .rgba32(let r, let g, let b, let a):
                    for x in 0..<width {
                        let p = row + x * 4
                        o[i] = p.load(fromByteOffset: r, as: UInt8.self)
                        o[i + 1] = p.load(fromByteOffset: g, as: UInt8.self)
                        o[i + 2] = p.load(fromByteOffset: b, as: UInt8.self)
                        o[i + 3] = a.map { p.load(fromByteOffset: $0, as: UInt8.self) } ?? 255
                        i += 4
                    }
                case .gray8:
                    for x in 0..<width {
                        let v = row.load(fromByteOffset: x, as: UInt8.self)
                        o[i] = v; o[i + 1] = v; o[i + 2] = v; o[i + 3] = 255
                        i += 4
                    }
                case .alpha8:
                    for x in 0..<width {
                        o[i + 3] = row.load(fromByteOffset: x, as: UInt8.self)
                        i += 4
                    }
                }
            }
        }
        return out
    }
}

import Testing
import Foundation

/// Renders layer trees headless for tests. One renderer per call: GL contexts are current on
/// one thread, and Swift Testing runs tests in parallel on different threads.
enum RenderHarness {
    /// Renders `root` into a `size`-point target at `scale`, at media time `time`, over an
    /// opaque white background unless `clear` says otherwise.
    static func render(_ root: CALayer, size: CGSize, scale: CGFloat = 1, time: CFTimeInterval = 0,
                       clear: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)) throws -> CGImage {
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
        r.clearColor = clear
        r.layer = root
        return try frame(r, at: time)
    }

    /// A renderer on the OpenGL backend whatever `CA_BACKEND` says (tests of the GL target pool
    /// and of patching, which count GL objects or read the GL path's statistics), showing `root`
    /// in a `size`-point target at scale 1.
    static func glRenderer(_ root: CALayer, size: CGSize) throws -> CARenderer {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .openGL
        let r = try CARenderer(offscreenSize: size, scale: 1, maxTextureSize: nil, options: o)
        r.layer = root
        return r
    }

    /// One frame of `r` at media time `t`, read back.
    static func frame(_ r: CARenderer, at t: CFTimeInterval) throws -> CGImage {
        r.beginFrame(atTime: t)
        try r.renderChecked()
        r.endFrame()
        return try r.makeImage()
    }

    /// Renders the same tree at several times with one renderer (frames of an animation).
    static func renderFrames(_ root: CALayer, size: CGSize, times: [CFTimeInterval], scale: CGFloat = 1,
                             clear: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)) throws -> [CGImage] {
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
        r.clearColor = clear
        r.layer = root
        return try times.map { try frame(r, at: $0) }
    }
}

/// Pixel helpers for assertions.
struct RGBA: Equatable, CustomStringConvertible {
    var r: Int, g: Int, b: Int, a: Int
    init(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) { self.r = r; self.g = g; self.b = b; self.a = a }
    var description: String { "(\(r), \(g), \(b), \(a))" }

    /// Every channel within `tolerance`.
    func isClose(to o: RGBA, tolerance: Int = 2) -> Bool {
        abs(r - o.r) <= tolerance && abs(g - o.g) <= tolerance && abs(b - o.b) <= tolerance && abs(a - o.a) <= tolerance
    }
}

extension CGImage {
    /// The premultiplied pixel at (x, y), y down from the top row.
    func rgba(_ x: Int, _ y: Int) -> RGBA {
        let p = pixel(x: x, y: y)
        return RGBA(Int(p.r), Int(p.g), Int(p.b), Int(p.a))
    }
}

func solid(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
}

/// A basic animation from `from` to `to` over `duration` seconds (the renderer tests' animations).
func basic(_ keyPath: String, from: Any, to: Any, duration: Double = 1) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: keyPath)
    a.fromValue = from
    a.toValue = to
    a.duration = duration
    return a
}

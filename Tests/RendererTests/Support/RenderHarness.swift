import Testing
import Foundation
import CATestSupport

/// Renders layer trees headless for tests. One renderer per call: GL contexts are current on
/// one thread, and Swift Testing runs tests in parallel on different threads.
///
/// Every image these helpers return is GL's (the goldens are GL's), and the same tree is drawn
/// at the same times by the CPU backend too and compared (issue 22: "both backends render the
/// whole render-test suite to matching pixels"; the parity rule, `BackendParity`: ≤ 2/255 per
/// channel on ≥ 99.5 % of the pixels). A test about something one backend does alone passes
/// `parity: false` and says why.
enum RenderHarness {
    /// Renders `root` into a `size`-point target at `scale`, at media time `time`, over an
    /// opaque white background unless `clear` says otherwise.
    static func render(_ root: CALayer, size: CGSize, scale: CGFloat = 1, time: CFTimeInterval = 0,
                       clear: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1), parity: Bool = true,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> CGImage {
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
        r.clearColor = clear
        r.layer = root
        let image = try frame(r, at: time)
        if parity { try expectParity(image, root, size: size, scale: scale, times: [time], clear: clear, sourceLocation: sourceLocation) }
        return image
    }

    /// Draws `root` at `times` with the CPU backend and records an issue unless its last frame
    /// matches `gl` within the parity rule.
    static func expectParity(_ gl: CGImage, _ root: CALayer, size: CGSize, scale: CGFloat, times: [CFTimeInterval],
                             clear: CGColor?, sourceLocation: SourceLocation) throws {
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .software))
        r.clearColor = clear
        r.layer = root
        var cpu: CGImage?
        for t in times { cpu = try frame(r, at: t) }
        guard let cpu else { return }
        let p = BackendParity(gl.rgba8Bytes, cpu.rgba8Bytes, width: gl.width)
        if !p.passes() {
            Issue.record(Comment(rawValue: "the CPU backend's frame at t = \(times.last!) differs from GL's: \(p)"), sourceLocation: sourceLocation)
        }
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
                             clear: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1), parity: Bool = true,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> [CGImage] {
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
        r.clearColor = clear
        r.layer = root
        let images = try times.map { try frame(r, at: $0) }
        if parity, let last = images.last {
            try expectParity(last, root, size: size, scale: scale, times: times, clear: clear, sourceLocation: sourceLocation)
        }
        return images
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

import Foundation

/// Window test helpers: a hidden window at a pinned refresh rate and simulated clock, and
/// image comparison with the headless path.
@MainActor
enum WindowHarness {
    static func configuration(size: CGSize, scale: CGFloat = 1, simulated: Bool = true) -> LayerWindow.Configuration {
        var c = LayerWindow.Configuration()
        c.title = "WindowTests"
        c.size = size
        c.visible = false
        c.contentScale = scale
        c.refreshRate = 60
        c.vsync = false
        if simulated { c.simulatedStartTime = 1000 }
        c.backend = .openGL   // compared with the headless GL render, pixel for pixel
        return c
    }

    static func open(size: CGSize, scale: CGFloat = 1, simulated: Bool = true) throws -> LayerWindow {
        try LayerWindow(configuration: configuration(size: size, scale: scale, simulated: simulated))
    }

    /// `root` rendered headless at each of `times`, the last image returned. The window must
    /// not hold its context current meanwhile (glvnd: GLX or EGL per thread).
    static func headless(_ root: CALayer, size: CGSize, scale: CGFloat = 1, times: [CFTimeInterval],
                         clear: CGColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1),
                         backend: CARenderer.Backend = .openGL) throws -> CGImage {
        LayerWindow.releaseCurrentContext()
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: backend))
        r.clearColor = clear
        r.layer = root
        for t in times {
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
        }
        return try r.makeImage()
    }

    /// Largest per-channel difference over RGB, and the fraction of pixels differing by more
    /// than `threshold`.
    static func difference(_ a: CGImage, _ b: CGImage, threshold: Int = 2) -> (maxDiff: Int, fraction: Double) {
        guard a.width == b.width, a.height == b.height else { return (255, 1) }
        let pa = a.rgba8Bytes, pb = b.rgba8Bytes
        var worst = 0, bad = 0
        for i in stride(from: 0, to: pa.count, by: 4) {
            var m = 0
            for c in 0..<3 { m = max(m, abs(Int(pa[i + c]) - Int(pb[i + c]))) }
            worst = max(worst, m)
            if m > threshold { bad += 1 }
        }
        return (worst, Double(bad) / Double(a.width * a.height))
    }

    static func rgb(_ img: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = img.pixel(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b)]
    }
}

import QuartzCore

/// The renderer benchmark's stress scenes (issues 4 and 6), shared by `carender bench --builtin
/// NAME` and `tools/benchmarks` render-benchmark: 10k animated rounded rects, 1k image layers,
/// 200 gradient layers, 100 shadowed layers, 1k shapes, all at 1920×1080. Every scene is deterministic (integer
/// generators, no system randomness), so two runs draw the same frames.
public enum StressScenes {
    public static let size = CGSize(width: 1920, height: 1080)

    /// The built-in scenes by the name `carender bench --builtin` takes, in listing order.
    public static let names = ["rects", "static-rects", "mostly-static-rects", "images", "gradients", "shadows",
                               "shapes", "shapes-animated", "filters"]

    /// The scene called `name` (see `names`), or nil for an unknown name.
    public static func make(named name: String) -> CALayer? {
        switch name {
        case "rects": return rects(count: rectCount, animatedEvery: 1)
        case "static-rects": return rects(count: rectCount, animatedEvery: 0)
        case "mostly-static-rects": return rects(count: rectCount, animatedEvery: 100)
        case "images": return images(count: 1000)
        case "gradients": return gradients(count: 200)
        case "shadows": return shadows(count: 100)
        case "shapes": return ShapeScene.make(animated: false)
        case "shapes-animated": return ShapeScene.make(animated: true)
        case "filters": return filters()
        default: return nil
        }
    }

    /// One line per built-in scene, for `--help` and error messages.
    public static let summaries: [String: String] = [
        "rects": "10,000 rounded rects with borders, all animating position.x",
        "static-rects": "the same 10,000 rects, none animating (frames are reused)",
        "mostly-static-rects": "the same 10,000 rects, 1 in 100 animating (leaf patching)",
        "images": "1,000 image layers (16 distinct 64×64 images) pulsing opacity",
        "gradients": "200 three-stop gradient layers sweeping endPoint",
        "shadows": "100 rounded layers with animated shadowRadius",
        "shapes": "1,000 filled and stroked cubic-Bézier stars (CAShapeLayer), static",
        "shapes-animated": "the same 1,000 stars with strokeEnd and fillColor animating",
        "filters": "20 layers with a 16-point Gaussian blur and 10 sliding blend-mode layers (issue 24)",
    ]

    static func root() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        return root
    }

    /// Deterministic pseudo-random numbers (xorshift32) for the non-rect scenes.
    struct Random {
        var state: UInt32
        mutating func next() -> UInt32 { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state }
        mutating func unit() -> CGFloat { CGFloat(next() % 10_000) / 10_000 }
    }

    /// The rect scene's size, seed and rule, the same as the benchmark package's hand-written
    /// GL baseline (`GLB_SCENE_*` in tools/benchmarks/Sources/GLBaseline/include/GLBaseline.h).
    public static let rectCount = 10_000
    public static let rectSeed: UInt32 = 1

    /// Rect `i` of the benchmark scene over 1920×1080: x, y, w, h, fill rgba, border rgba
    /// (straight alpha). A Swift re-statement of `glb_scene_rect` (integer maths only, the
    /// "lowbias32" hash), so the tool does not need the C baseline to draw the same rects.
    public static func benchmarkRect(_ i: Int, seed: UInt32 = rectSeed) -> [Float] {
        func mix(_ v: UInt32) -> UInt32 {
            var x = v
            x ^= x >> 16; x = x &* 0x7feb352d
            x ^= x >> 15; x = x &* 0x846ca68b
            x ^= x >> 16
            return x
        }
        func word(_ k: UInt32) -> UInt32 { mix(mix(seed ^ 0x9e37_79b9) ^ (UInt32(truncatingIfNeeded: i) &* 8 &+ k)) }
        let minSize: UInt32 = 20, maxSize: UInt32 = 200, w: UInt32 = 1920, h: UInt32 = 1080
        let span = maxSize - minSize + 1
        let rw = min(minSize + word(0) % span, w), rh = min(minSize + word(1) % span, h)
        let x = word(2) % (w - rw + 1), y = word(3) % (h - rh + 1)
        let f = word(4), b = word(5)
        func byte(_ v: UInt32, _ shift: UInt32) -> Float { Float((v >> shift) & 255) / 255 }
        return [Float(x), Float(y), Float(rw), Float(rh),
                byte(f, 0), byte(f, 8), byte(f, 16), 0.8,
                byte(b, 0), byte(b, 8), byte(b, 16), 0.8]
    }

    /// `rect(i)` gives x, y, w, h, fill rgba, border rgba (straight alpha).
    /// `animatedEvery`: every n-th rect animates (1: all, 0: none).
    public static func rects(count: Int, animatedEvery: Int, rect: (Int) -> [Float] = { benchmarkRect($0) }) -> CALayer {
        let root = root()
        for i in 0..<count {
            let r = rect(i)
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(r[0]), y: CGFloat(r[1]), width: CGFloat(r[2]), height: CGFloat(r[3]))
            l.backgroundColor = CGColor(red: CGFloat(r[4]), green: CGFloat(r[5]), blue: CGFloat(r[6]), alpha: CGFloat(r[7]))
            l.borderColor = CGColor(red: CGFloat(r[8]), green: CGFloat(r[9]), blue: CGFloat(r[10]), alpha: CGFloat(r[11]))
            l.borderWidth = 2
            l.cornerRadius = 8
            if animatedEvery > 0, i % animatedEvery == 0 { l.add(drift(i), forKey: "drift") }
            root.addSublayer(l)
        }
        return root
    }

    /// The stress scenes' moving animation: 12 points to the right and back, forever, at a
    /// period that varies with `i`.
    public static func drift(_ i: Int) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "position.x")
        a.byValue = 12.0
        a.duration = 0.5 + Double(i % 7) * 0.1
        a.autoreverses = true
        a.repeatCount = .infinity
        return a
    }

    public static func images(count: Int) -> CALayer {
        let root = root()
        var rng = Random(state: 7)
        let pictures = (0..<16).map { k in picture(side: 64, hue: k) }
        for i in 0..<count {
            let l = CALayer()
            let side = 48 + CGFloat(rng.next() % 48)
            l.frame = CGRect(x: rng.unit() * (size.width - side), y: rng.unit() * (size.height - side), width: side, height: side)
            l.contents = pictures[i % pictures.count]
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 1.0; a.toValue = 0.4; a.duration = 1; a.autoreverses = true; a.repeatCount = .infinity
            l.add(a, forKey: "pulse")
            root.addSublayer(l)
        }
        return root
    }

    public static func gradients(count: Int) -> CALayer {
        let root = root()
        var rng = Random(state: 11)
        for _ in 0..<count {
            let g = CAGradientLayer()
            let w = 80 + rng.unit() * 160, h = 60 + rng.unit() * 120
            g.frame = CGRect(x: rng.unit() * (size.width - w), y: rng.unit() * (size.height - h), width: w, height: h)
            g.colors = (0..<3).map { _ in CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 1) }
            g.cornerRadius = 10
            g.masksToBounds = true
            let a = CABasicAnimation(keyPath: "endPoint")
            a.fromValue = CGPoint(x: 0.5, y: 1); a.toValue = CGPoint(x: 1, y: 0.2); a.duration = 1.5
            a.autoreverses = true; a.repeatCount = .infinity
            g.add(a, forKey: "sweep")
            root.addSublayer(g)
        }
        return root
    }

    public static func shadows(count: Int) -> CALayer {
        let root = root()
        root.backgroundColor = CGColor(gray: 0.95, alpha: 1)
        var rng = Random(state: 13)
        for _ in 0..<count {
            let l = CALayer()
            let w = 80 + rng.unit() * 120, h = 60 + rng.unit() * 90
            l.frame = CGRect(x: 20 + rng.unit() * (size.width - w - 40), y: 20 + rng.unit() * (size.height - h - 40), width: w, height: h)
            l.backgroundColor = CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 1)
            l.cornerRadius = 12
            l.shadowOpacity = 0.5
            l.shadowRadius = 10
            l.shadowOffset = CGSize(width: 0, height: 6)
            let a = CABasicAnimation(keyPath: "shadowRadius")
            a.fromValue = 4.0; a.toValue = 14.0; a.duration = 1; a.autoreverses = true; a.repeatCount = .infinity
            l.add(a, forKey: "lift")
            root.addSublayer(l)
        }
        return root
    }

    static func picture(side: Int, hue: Int) -> CGImage {
        var bytes = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let i = (y * side + x) * 4
                let on = ((x / 8) + (y / 8)) % 2 == 0
                bytes[i] = UInt8((hue * 37 + (on ? 200 : 40)) % 256)
                bytes[i + 1] = UInt8((hue * 91 + x * 3) % 256)
                bytes[i + 2] = UInt8((hue * 53 + y * 3) % 256)
                bytes[i + 3] = 255
            }
        }
        return CGImage(width: side, height: side, rgba8Bytes: bytes, premultiplied: true)!
    }
}

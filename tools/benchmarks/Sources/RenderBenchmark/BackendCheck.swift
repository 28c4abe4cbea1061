import QuartzCore
import CADemoScenes
import Foundation

/// `render-benchmark --backend-check`: on whatever machine this runs (a GPU's driver, or
/// llvmpipe), which backend the default renderer chooses and why; the CPU backend chosen on
/// that machine against OpenGL, frame for frame over the stress scenes (issue 22: "choosing
/// `cpu` on a machine with a GPU works", the same pixels); and the `lineWidth` stars drawn from
/// one raster per animation against one per width bucket (`CA_WIDTH_RASTER_SPANS`).
enum BackendCheck {
    /// Two opaque 600×600 planes crossing under perspective in a transform layer (GL: depth
    /// planes, drawn in two phases; CPU: split), in array order or reversed.
    static func planes(swapped: Bool) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: StressScenes.size)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        root.sublayerTransform.m34 = -1 / 2000
        let t = CATransformLayer()
        t.frame = root.bounds
        var layers: [CALayer] = []
        for (i, c) in [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)].enumerated() {
            let p = CALayer()
            p.frame = CGRect(x: 660, y: 240, width: 600, height: 600)
            p.backgroundColor = c
            if i == 1 { p.transform = CATransform3DMakeRotation(0.8, 0, 1, 0) }
            layers.append(p)
        }
        for p in swapped ? layers.reversed() : layers { t.addSublayer(p) }
        root.addSublayer(t)
        return root
    }

    static func run() throws {
        let base = ProcessInfo.processInfo.environment
        let auto = try CARenderer(offscreenSize: CGSize(width: 16, height: 16))
        print("backend-check default renderer: \(auto.activeBackend.backend) — \(auto.activeBackend.reason)")
        let scenes: [(String, () -> CALayer, Double)] = [
            ("rects", { StressScenes.rects(count: 10_000, animatedEvery: 1) }, 0.3),
            ("images", { StressScenes.images(count: 1000) }, 0.3),
            ("gradients", { StressScenes.gradients(count: 200) }, 0.3),
            ("shadows", { StressScenes.shadows(count: 100) }, 0.3),
            ("stars, lineWidth", { ShapeScene.make(animated: true, widths: true) }, 0.5),
            ("replicator", ReplicatorScene.make, 0.25),
            ("emitter", emitterScene, 0.5),
            ("filters", StressScenes.filters, 0.5),
            ("intersecting planes", { planes(swapped: false) }, 0),
            ("intersecting planes, reversed order", { planes(swapped: true) }, 0),
        ]
        for (name, make, t) in scenes {
            var gl = base, cpu = base
            gl["CA_BACKEND"] = "gl"
            cpu["CA_BACKEND"] = "cpu"
            let (a, sa) = try PathParityCheck.frame(make, at: t, environment: gl)
            let (b, sb) = try PathParityCheck.frame(make, at: t, environment: cpu)
            let (n, worst) = PathParityCheck.over2(a, b)
            let share = Double(n) / Double(max(1, a.count / 4)) * 100
            print("backend-check \(name) t=\(t) gl vs cpu: \(n) pixels off by more than 2/255 (\(String(format: "%.3f", share)) %), "
                  + "worst \(worst)/255; draw calls \(sa.drawCalls) vs \(sb.drawCalls) — "
                  + (share <= 0.5 ? "within the parity rule" : "OUTSIDE the parity rule"))
        }
        for t in [0.2, 0.5, 0.9] {
            var buckets = base, spans = base
            buckets["CA_BACKEND"] = "gl"; buckets["CA_WIDTH_RASTER_SPANS"] = "0"
            spans["CA_BACKEND"] = "gl"; spans["CA_WIDTH_RASTER_SPANS"] = "1"
            let make = { ShapeScene.make(animated: true, widths: true) }
            let (a, sa) = try PathParityCheck.frame(make, at: t, environment: buckets)
            let (b, sb) = try PathParityCheck.frame(make, at: t, environment: spans)
            let (n, worst) = PathParityCheck.over2(a, b)
            print("width-raster-check t=\(t) CA_WIDTH_RASTER_SPANS=0 vs 1: \(n) pixels off by more than 2/255, worst \(worst)/255; "
                  + "rasters \(sa.shapeRasters) vs \(sb.shapeRasters)")
        }
    }
}

import QuartzCore
import CADemoScenes
import Foundation

/// `render-benchmark --gpu-path-check`: the emitter and replicator scenes rendered with a GPU
/// evaluation path switched off and on (its environment variable set to 0, then 1, through
/// `CARenderer.Options(environment:)`), compared pixel by pixel. The tests compare the two paths
/// on llvmpipe; this runs the same comparison on whatever driver the machine has (an NVIDIA
/// compiler differs from llvmpipe's in float rounding and in integer maths the hashes rely on).
enum PathParityCheck {
    /// Pixels off by more than 2/255 (the project's parity rule allows ≤ 0.5 % of them).
    static func over2(_ a: [UInt8], _ b: [UInt8]) -> (count: Int, worst: Int) {
        var count = 0, worst = 0
        for i in stride(from: 0, to: min(a.count, b.count) - 3, by: 4) {
            var d = 0
            for k in 0..<4 { d = max(d, abs(Int(a[i + k]) - Int(b[i + k]))) }
            worst = max(worst, d)
            if d > 2 { count += 1 }
        }
        return (count, worst)
    }

    static func frame(_ make: () -> CALayer, at t: Double, environment: [String: String]) throws -> ([UInt8], RenderStats) {
        let r = try CARenderer(offscreenSize: StressScenes.size, options: CARenderer.Options(environment: environment))
        r.layer = make()
        r.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        r.beginFrame(atTime: t)
        try r.renderChecked()
        try r.waitUntilCompleted()
        r.endFrame()
        return ([UInt8](try r.makeImage().dataProvider?.data ?? Data()), r.statistics)
    }

    /// An emitter with what the benchmark's cell leaves out: a circle outline, additive
    /// blending, colour ranges and speeds, scale speed, acceleration.
    static func variedEmitter() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: StressScenes.size)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterShape = .circle
        e.emitterMode = .outline
        e.renderMode = .additive
        e.seed = 7
        e.emitterPosition = CGPoint(x: 900, y: 500)
        e.emitterSize = CGSize(width: 300, height: 300)
        var px = [UInt8](repeating: 0, count: 16 * 16 * 4)
        for y in 0..<16 { for x in 0..<16 {
            let a = UInt8(max(0, 255 - 32 * max(abs(x - 8), abs(y - 8))))
            let i = (y * 16 + x) * 4
            px[i] = a; px[i + 1] = a; px[i + 2] = a; px[i + 3] = a
        } }
        let cell = CAEmitterCell()
        cell.contents = CGImage(width: 16, height: 16, rgba8Bytes: px, premultiplied: true)
        cell.birthRate = 3000
        cell.lifetime = 2
        cell.lifetimeRange = 1
        cell.velocity = 80
        cell.velocityRange = 40
        cell.emissionRange = .pi
        cell.yAcceleration = 30
        cell.scale = 0.8
        cell.scaleRange = 0.3
        cell.scaleSpeed = -0.2
        cell.spin = 2
        cell.spinRange = 3
        cell.color = CGColor(red: 0.5, green: 0.7, blue: 0.9, alpha: 0.7)
        cell.redRange = 0.3
        cell.greenSpeed = -0.2
        cell.alphaSpeed = -0.25
        e.emitterCells = [cell]
        root.addSublayer(e)
        return root
    }

    static func run() throws {
        let base = ProcessInfo.processInfo.environment
        let cases: [(String, String, () -> CALayer, [Double])] = [
            ("emitter (benchmark scene)", "CA_GPU_PARTICLES", emitterScene, [0, 1.5]),
            ("emitter (circle outline, additive, ranges, speeds)", "CA_GPU_PARTICLES", variedEmitter, [0.7, 3.2]),
            ("replicator (benchmark scene)", "CA_GPU_REPLICAS", ReplicatorScene.make, [0.25, 0.8]),
        ]
        for (name, variable, make, times) in cases {
            for t in times {
                var off = base, on = base
                off[variable] = "0"
                on[variable] = "1"
                let (a, sa) = try frame(make, at: t, environment: off)
                let (b, sb) = try frame(make, at: t, environment: on)
                let (n, worst) = over2(a, b)
                let share = Double(n) / Double(max(1, a.count / 4)) * 100
                print("gpu-path-check \(name) t=\(t) \(variable)=0 vs 1: \(n) pixels off by more than 2/255 "
                      + "(\(String(format: "%.3f", share)) %), worst \(worst)/255; draw calls \(sa.drawCalls) vs \(sb.drawCalls), "
                      + "instances \(sa.instances) vs \(sb.instances), particles \(sa.particles) vs \(sb.particles) — "
                      + (share <= 0.5 ? "within the parity rule" : "OUTSIDE the parity rule"))
            }
        }
    }
}

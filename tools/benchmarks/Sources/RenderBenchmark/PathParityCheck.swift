import QuartzCore
import CADemoScenes
import Foundation

/// `render-benchmark --gpu-path-check`: the replicator and emitter scenes rendered with their GPU
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

    static func run() throws {
        let base = ProcessInfo.processInfo.environment
        // name, switch, scene, times, and how many things the GPU path drew (0: it did not run).
        let cases: [(String, String, () -> CALayer, [Double], (RenderStats) -> Int)] = [
            ("replicator (benchmark scene)", "CA_GPU_REPLICAS", ReplicatorScene.make, [0.25, 0.8], { $0.gpuReplicatedCopies }),
            ("emitter (benchmark scene)", "CA_GPU_PARTICLES", emitterScene, [0.5, 3.0], { $0.gpuParticleRuns }),
        ]
        for (name, variable, make, times, gpuDrawn) in cases {
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
                      + "instances \(sa.instances) vs \(sb.instances), drawn by the GPU path \(gpuDrawn(sa)) vs \(gpuDrawn(sb)) — "
                      + (gpuDrawn(sb) == 0 ? "the GPU path did NOT run" : share <= 0.5 ? "within the parity rule" : "OUTSIDE the parity rule"))
            }
        }
    }
}

import QuartzCore
import CADemoScenes

/// `emitter`: one `CAEmitterLayer` over 1920×1080 keeping 100,000 live particles (a rectangle
/// emitter covering the frame, one cell of an 8×8 image, 20,000 births a second living 5 s,
/// drifting and spinning). Its `timeOffset` of 10 s puts every frame in the steady state.
func emitterScene() -> CALayer {
    let root = CALayer()
    root.frame = CGRect(origin: .zero, size: StressScenes.size)
    let e = CAEmitterLayer()
    e.frame = root.bounds
    e.timeOffset = 10
    e.emitterShape = .rectangle
    e.emitterMode = .surface
    e.emitterPosition = CGPoint(x: root.bounds.midX, y: root.bounds.midY)
    e.emitterSize = root.bounds.size
    let side = 8
    var px = [UInt8](repeating: 0, count: side * side * 4)
    for i in stride(from: 0, to: px.count, by: 4) { px[i] = 255; px[i + 1] = 255; px[i + 2] = 255; px[i + 3] = 255 }
    let cell = CAEmitterCell()
    cell.contents = CGImage(width: side, height: side, rgba8Bytes: px, premultiplied: true)
    cell.birthRate = 20_000
    cell.lifetime = 5
    cell.velocity = 20
    cell.velocityRange = 10
    cell.emissionRange = 2 * .pi
    cell.spin = 1
    cell.spinRange = 2
    cell.color = CGColor(red: 0.9, green: 0.6, blue: 0.3, alpha: 0.8)
    cell.alphaSpeed = -0.1
    e.emitterCells = [cell]
    root.addSublayer(e)
    return root
}

func reportParticles(_ res: Result) {
    print("  particles \(res.stats.particles), simulation \(String(format: "%.2f", res.stats.particleSeconds * 1000)) ms of the render tree"
          + (res.stats.gpuParticleRuns > 0 ? ", evaluated by the GL backend from \(res.stats.gpuParticleRuns) run record(s) (CA_GPU_PARTICLES)" : ""))
}

// The timing engine's frame step: N layers, each with a basic, a keyframe and a spring
// animation, stepped frame by frame with the pinned clock. Prints ns per animated property per
// frame and heap allocations per frame (counted by interposing malloc).
import QuartzCore
@_spi(Benchmark) import CoreAnimation
import AllocCounter

/// `BENCH_ONLY=basic|keyframe|spring` keeps one kind of animation, to attribute costs.
let only = ProcessInfo.processInfo.environment["BENCH_ONLY"]
/// `BENCH_DISTINCT_TIMING=1` gives the layers' animations 997 different durations (and spring
/// dampings); `=all` gives every layer durations of its own, so no two layers share their
/// timing maths (the engine evaluates equal timing once per frame). By default the layers are
/// animated alike, as one transaction would.
let distinctMode = ProcessInfo.processInfo.environment["BENCH_DISTINCT_TIMING"]
let distinctTiming = distinctMode != nil

func makeScene(_ n: Int) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 1920, height: 1080)
    for i in 0..<n {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        l.position = CGPoint(x: Double(i % 1920), y: Double(i % 1080))
        root.addSublayer(l)
        // Values differ per layer; durations too with BENCH_DISTINCT_TIMING.
        let k = Double(i % 100) / 100
        let stretch = distinctMode == "all" ? 1 + Double(i) / Double(n) : distinctTiming ? 1 + Double(i % 997) / 997 : 1
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0; fade.toValue = 0.5 + k / 2; fade.duration = 2 * stretch; fade.repeatCount = .infinity
        fade.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        if only == nil || only == "basic" { l.add(fade, forKey: "fade") }
        let move = CAKeyframeAnimation(keyPath: "position")
        move.values = [CGPoint(x: k, y: 0), CGPoint(x: 100 + k, y: 50), CGPoint(x: 200, y: k)]
        move.duration = 3 * stretch; move.repeatCount = .infinity
        if only == nil || only == "keyframe" { l.add(move, forKey: "move") }
        let spring = CASpringAnimation(keyPath: "transform.scale")
        spring.fromValue = 0.5 + k / 4; spring.toValue = 1; spring.duration = 10_000
        if distinctTiming { spring.damping = 8 + stretch }
        if only == nil || only == "spring" { l.add(spring, forKey: "spring") }
    }
    return root
}

if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil {
    let a = CABasicAnimation(keyPath: "opacity")
    print("keyPath", a.keyPath as Any, (a.copy() as! CABasicAnimation).keyPath as Any)
}
/// This thread's CPU time: on a shared machine wall time also counts time spent descheduled.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let sizes = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let frames = Int(ProcessInfo.processInfo.environment["BENCH_FRAMES"] ?? "") ?? 60
print("timing engine frame step (release), \(frames) frames per size, 3 animated properties per layer")
print("layers     ms/frame   ns/property   allocations/frame   CPU ms/frame   store ms/frame")
for n in sizes.isEmpty ? [1_000, 10_000, 100_000] : sizes {
    CAMediaClock.freeze(at: 1000)
    let root = makeScene(n)
    CATransaction.flush()
    CAMediaClock.advance(by: 1.0 / 60)  // warm-up frame (creates the reused presentation copies)
    let allocs0 = alloc_counter_count()
    var clock = ContinuousClock.now
    let start = clock
    let cpu0 = threadCPUSeconds()
    for _ in 0..<frames { CAMediaClock.advance(by: 1.0 / 60) }
    clock = ContinuousClock.now
    let cpuMs = (threadCPUSeconds() - cpu0) * 1000 / Double(frames)
    let allocs = alloc_counter_count() - allocs0
    let seconds = Double((clock - start).components.attoseconds) / 1e18 + Double((clock - start).components.seconds)
    let msPerFrame = seconds * 1000 / Double(frames)
    let nsPerProp = seconds * 1e9 / Double(frames * n * (only == nil ? 3 : 1))
    // What a renderer adds when it reads every presentation copy after a step: the table's
    // values stored into the copies (`renderCopy`), timed apart from the step.
    let layers = root.sublayers ?? []
    var storeSeconds = 0.0
    let storeRounds = Int(ProcessInfo.processInfo.environment["BENCH_STORE_ROUNDS"] ?? "") ?? 5
    for _ in 0..<storeRounds {
        CAMediaClock.advance(by: 1.0 / 60)
        let s0 = ContinuousClock.now
        for l in layers { _ = l.renderCopyForBenchmark }
        let d = ContinuousClock.now - s0
        storeSeconds += Double(d.components.attoseconds) / 1e18 + Double(d.components.seconds)
    }
    print(String(format: "%7d   %8.2f   %11.1f   %17.1f   %12.2f   %14.2f", n, msPerFrame, nsPerProp, Double(allocs) / Double(frames), cpuMs,
                 storeSeconds * 1000 / Double(storeRounds)))
    // Proof the frames did real work: a layer's presentation moved off its model value.
    if let probe = root.sublayers?.last, let p = probe.presentation(), n > 0 {
        precondition(p.position != probe.position || p.opacity != probe.opacity || only == "spring",
                     "benchmark scene did not animate")
    }
    root.sublayers = nil
    CAMediaClock.unfreeze()
}

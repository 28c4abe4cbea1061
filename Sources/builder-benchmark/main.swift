// builder-benchmark: whole builds and incremental patches of the stress scenes through the
// render-tree builder, with no GL, so that `valgrind --tool=callgrind` counts the builder's and
// the timing engine's instructions alone (docs/PERFORMANCE.md, "Unsafe constructs and what they
// buy"). Instruction counts, not times: they repeat exactly from run to run on a shared machine.
//
//   swift build -c release --product builder-benchmark
//   valgrind --tool=callgrind .build/release/builder-benchmark 5 rects images
//   callgrind_annotate --inclusive=yes callgrind.out.* | grep -E 'RenderTreeBuilderC5(build|patch)|TimingEngineO4step'
//
// Arguments: the number of frames (default 5), then stress scene names (`StressScenes`), or
// `rects-N-K`: N rounded rects (sides 8–24 px) of which every K-th is animated (issue 22's scale
// row, e.g. `rects-100000-10`). Besides the instance count it prints the median wall time of
// the timing engine's step and of the patch per patched frame (noisy on a shared machine), and
// the patched frames' median CPU time (the thread's, which leaves out waiting) and page faults.
import CoreGraphics
import CoreAnimation
import CARender
import CADemoScenes
import Foundation

let args = CommandLine.arguments.dropFirst()
let frames = max(1, Int(args.first ?? "5") ?? 5)
let names = args.count > 1 ? Array(args.dropFirst()) : ["rects"]
for name in names {
    guard let root = scene(named: name) else { print("unknown scene \(name)"); continue }
    var instances = 0
    var stepTimes: [Double] = [], patchTimes: [Double] = [], cpuTimes: [Double] = []
    var faults = 0
    // One builder that builds the first frame and patches the rest, as CARenderer does …
    let patching = RenderTreeBuilder()
    for f in 0..<frames {
        let t = Double(f) / 60
        let c0 = threadCPUNanoseconds(), f0 = minorFaults()
        let t0 = DispatchTime.now().uptimeNanoseconds
        CAMediaClock.withFrameTime(t) { CATransaction.flush(); TimingEngine.step(to: t) }
        let changed = TimingEngine.animatedLayers()
        let t1 = DispatchTime.now().uptimeNanoseconds
        if f > 0, let p = CAMediaClock.withFrameTime(t, { patching.patch(changed, committed: []) }) {
            instances += p.1.instances
            stepTimes.append(Double(t1 - t0) / 1e6)
            patchTimes.append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e6)
            cpuTimes.append(Double(threadCPUNanoseconds() - c0) / 1e6)
            faults += minorFaults() - f0
        } else {
            let r = CAMediaClock.withFrameTime(t) { patching.build(root: root, width: 1920, height: 1080, scale: 1) }
            instances += r.1.instances
        }
    }
    // … and one that builds every frame whole (`BB_PATCH_ONLY=1` leaves these out, for a
    // profile of the patches alone).
    let whole = RenderTreeBuilder()
    let wholeFrames = ProcessInfo.processInfo.environment["BB_PATCH_ONLY"] == "1" ? 0 : frames
    for f in 0..<wholeFrames {
        let t = Double(frames + f) / 60
        CAMediaClock.withFrameTime(t) { CATransaction.flush(); TimingEngine.step(to: t) }
        let r = CAMediaClock.withFrameTime(t) { whole.build(root: root, width: 1920, height: 1080, scale: 1) }
        instances += r.1.instances
    }
    print("\(name): \(frames) patched and \(wholeFrames) whole frames, \(instances) instances")
    if !patchTimes.isEmpty {
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        print("  patched frames: step \(fmt(median(stepTimes))) ms, patch \(fmt(median(patchTimes))) ms, step + patch \(fmt(median(zip(stepTimes, patchTimes).map { $0 + $1 }))) ms (median of \(patchTimes.count))")
        // The thread's CPU time leaves out time the thread waited (other processes on a loaded
        // machine), and the page faults taken during patched frames show memory first touched.
        print("  patched frames: step + patch CPU time \(fmt(median(cpuTimes))) ms (median), \(faults) minor page faults in all")
    }
}

func fmt(_ v: Double) -> String { String(format: "%.2f", v) }

/// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// This thread's minor page faults so far (`getrusage(RUSAGE_THREAD)`).
func minorFaults() -> Int {
    var u = rusage()
    getrusage(1, &u)  // RUSAGE_THREAD (glibc; not imported into Swift)
    return u.ru_minflt
}

/// A `StressScenes` scene, or `rects-N-K` (N small rects, every K-th animated).
func scene(named name: String) -> CALayer? {
    let parts = name.split(separator: "-")
    if parts.count == 3, parts[0] == "rects", let n = Int(parts[1]), let k = Int(parts[2]), n > 0, n <= 1_000_000, k >= 0 {
        return StressScenes.rects(count: n, animatedEvery: k) { i in
            // Sides 8–24 px spread over the frame, as the growth table's small rects.
            var r = StressScenes.benchmarkRect(i)
            r[2] = Float(8 + (i * 7919) % 17)
            r[3] = r[2]
            r[0] = Float((i * 104_729) % 1900)
            r[1] = Float((i * 7_877) % 1060)
            return r
        }
    }
    return StressScenes.make(named: name)
}

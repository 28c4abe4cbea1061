// builder-benchmark: whole builds and incremental patches of the stress scenes through the
// render-tree builder, with no GL, so that `valgrind --tool=callgrind` counts the builder's and
// the timing engine's instructions alone (docs/PERFORMANCE.md, "Unsafe constructs and what they
// buy"). Instruction counts, not times: they repeat exactly from run to run on a shared machine.
//
//   swift build -c release --product builder-benchmark
//   valgrind --tool=callgrind .build/release/builder-benchmark 5 rects images
//   callgrind_annotate --inclusive=yes callgrind.out.* | grep -E 'RenderTreeBuilderC5(build|patch)|TimingEngineO4step'
//
// Arguments: the number of frames (default 5), then stress scene names (`StressScenes`).
import CoreGraphics
import CoreAnimation
import CARender
import CADemoScenes

let args = CommandLine.arguments.dropFirst()
let frames = max(1, Int(args.first ?? "5") ?? 5)
let names = args.count > 1 ? Array(args.dropFirst()) : ["rects"]
for name in names {
    guard let root = StressScenes.make(named: name) else { print("unknown scene \(name)"); continue }
    var instances = 0
    // One builder that builds the first frame and patches the rest, as CARenderer does …
    let patching = RenderTreeBuilder()
    for f in 0..<frames {
        let t = Double(f) / 60
        CAMediaClock.withFrameTime(t) { CATransaction.flush(); TimingEngine.step(to: t) }
        let changed = TimingEngine.animatedLayers()
        if f > 0, let p = CAMediaClock.withFrameTime(t, { patching.patch(changed, committed: []) }) {
            instances += p.1.instances
        } else {
            let r = CAMediaClock.withFrameTime(t) { patching.build(root: root, width: 1920, height: 1080, scale: 1) }
            instances += r.1.instances
        }
    }
    // … and one that builds every frame whole.
    let whole = RenderTreeBuilder()
    for f in 0..<frames {
        let t = Double(frames + f) / 60
        CAMediaClock.withFrameTime(t) { CATransaction.flush(); TimingEngine.step(to: t) }
        let r = CAMediaClock.withFrameTime(t) { whole.build(root: root, width: 1920, height: 1080, scale: 1) }
        instances += r.1.instances
    }
    print("\(name): \(frames) patched and \(frames) whole frames, \(instances) instances")
}

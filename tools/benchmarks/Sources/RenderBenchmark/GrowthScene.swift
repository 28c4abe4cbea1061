import Foundation
import QuartzCore
import CADemoScenes

// `render-benchmark [frames] growth` (issue 22 part 3, "Scale"): how a frame's cost grows with the
// layer count (1k, 10k, 100k), the animated fraction (1 %, 10 %, 100 %) and the covered area
// (sides 8–24 px against the rect scene's 20–200 px), with the engine step (`beginFrame`: the
// timing engine) and the render-tree build/patch printed apart from the backend's drawing, and
// the resident memory each layer adds. One table row per line, ready for docs/PERFORMANCE.md.

/// Resident set size in bytes (/proc/self/statm's second field × the page size).
func residentBytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = s.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The rect scene's rect `i` with its sides mapped from 20…200 to 8…24 px when `small`.
func growthRect(_ i: Int, small: Bool) -> [Float] {
    var r = StressScenes.benchmarkRect(i)
    if small {
        r[2] = 8 + ((r[2] - 20) * 16 / 180).rounded()
        r[3] = 8 + ((r[3] - 20) * 16 / 180).rounded()
    }
    return r
}

func growthTable(frames: Int) throws {
    print("| layers | animated | sides px | ms/frame | engine step ms | render tree ms | step + tree ms | draw ms | KiB/layer |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    var rows: [(Int, Int, Bool)] = []
    for n in [1_000, 10_000, 100_000] { for every in [100, 10, 1] { rows.append((n, every, true)) } }
    rows.append((10_000, 10, false))
    for (n, every, small) in rows {
        let before = residentBytes()
        let root = StressScenes.rects(count: n, animatedEvery: every, rect: { growthRect($0, small: small) })
        let (res, r) = try run(root, frames: frames)
        let perLayer = Double(residentBytes() - before) / Double(n) / 1024
        print("| \(n) | \(100 / every) % | \(small ? "8–24" : "20–200") | \(ms(res.total)) | \(ms(res.engine)) | \(ms(res.build)) | "
              + "\(ms(res.engine + res.build)) | \(ms(res.gl)) | \(String(format: "%.2f", perLayer)) |")
        withExtendedLifetime(r) {}
    }
}

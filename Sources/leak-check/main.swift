// leak-check: feeds thousands of malformed inputs to each reader of untrusted files in one
// process, as a server rendering users' uploads would, and fails when the C heap grows with the
// number of inputs (issue 17: about 425 bytes leaked per malformed SVG, so a server looping over
// bad files grew without bound). Not a product; `LeakCheckTests` runs it, docs/SECURITY.md says
// how to run it longer.
//
//   leak-check [COUNT] [svg|scene|lottie|image ...] [--max-per-input BYTES] [--simulate-leak BYTES]
//
// Each reader first takes a warm-up of COUNT/2 inputs (at least 1,000: caches, first-time
// warnings, lazily loaded libraries), then COUNT more (default 10,000) between two heap
// measurements. Exit status 1 when a reader's heap grew by more than BYTES per input (default 16)
// plus 512 KB: the slack is for the process's bounded caches still filling (the commit log's
// 8,192 entries, each warning channel's 4,096 remembered messages, which carry input-derived
// values). The leak this was written for (425 bytes per malformed SVG) grows 4.1 MB in 10,000.
// `--simulate-leak BYTES` leaks that much per input on purpose: the check of the checker.
import CALottie
import CAScene
import CASVG
import CoreGraphics
import Foundation
import ImageIO

var count = 10_000
var maxPerInput = 16.0
var simulatedLeak = 0
let slack = 512 * 1024
var readers: [String] = []
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    if arg == "--max-per-input", let v = args.popFirst().flatMap(Double.init) { maxPerInput = v }
    else if arg == "--simulate-leak", let v = args.popFirst().flatMap(Int.init), (0...1 << 20).contains(v) { simulatedLeak = v }
    else if let n = Int(arg), n > 0 { count = min(n, 10_000_000) }
    else if ["svg", "scene", "lottie", "image"].contains(arg) { readers.append(arg) }
    else {
        FileHandle.standardError.write(Data("leak-check: unknown argument '\(arg)' (usage: leak-check [COUNT] [svg|scene|lottie|image ...] [--max-per-input BYTES] [--simulate-leak BYTES])\n".utf8))
        exit(2)
    }
}
if readers.isEmpty { readers = ["svg", "scene", "lottie", "image"] }

/// Scene files resolve image paths in a folder of their own; an empty one here.
let sceneFolder: URL = {
    let u = FileManager.default.temporaryDirectory.appendingPathComponent("leak-check-\(getpid())")
    try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
    return u
}()
defer { try? FileManager.default.removeItem(at: sceneFolder) }

/// Reads one input; true when the reader accepted it.
func read(_ reader: String, _ bytes: [UInt8]) -> Bool {
    let data = Data(bytes)
    switch reader {
    case "svg": return (try? SVGDocument(data: data)) != nil
    case "scene": return (try? SceneFile.load(data: data, baseDirectory: sceneFolder)) != nil
    case "lottie":
        guard let animation = try? LottieAnimation(data: data) else { return false }
        _ = animation.makeLayer()
        return true
    default:
        guard let source = CGImageSourceCreateWithData(data as CFData, nil) else { return false }
        var decoded = false
        for i in 0..<min(CGImageSourceGetCount(source), 4) where CGImageSourceCreateImageAtIndex(source, i, nil) != nil { decoded = true }
        return decoded
    }
}

func seeds(_ reader: String) -> [[UInt8]] {
    switch reader {
    case "svg": return Seeds.svg.map { Array($0.utf8) }
    case "scene": return Seeds.scene.map { Array($0.utf8) }
    case "lottie": return Seeds.lottie.map { Array($0.utf8) }
    default: return Seeds.images.map { Array($0) }
    }
}

var failed = false
for reader in readers {
    let valid = seeds(reader)
    guard !valid.isEmpty, valid.allSatisfy({ read(reader, $0) }) else {
        print("\(reader): a seed document does not read; nothing measured")
        failed = true
        continue
    }
    var mutator = Mutator(seed: 0x1EA4_C4EC)
    func feed(_ n: Int) -> Int {
        var accepted = 0
        for i in 0..<n {
            if read(reader, mutator.damage(valid[i % valid.count])) { accepted += 1 }
            if simulatedLeak > 0, let p = malloc(simulatedLeak) { memset(p, 1, simulatedLeak) }
        }
        return accepted
    }
    // Long enough for the bounded caches to fill (the commit log's 8,192 entries, the warning
    // channels' remembered messages), so that what remains is growth with the input count.
    let warmUp = max(1_000, count / 2)
    _ = feed(warmUp)
    let before = Heap.bytesInUse
    let accepted = feed(count)
    let after = Heap.bytesInUse
    let growth = after - before
    let allowed = slack + Int(maxPerInput * Double(count))
    let verdict = growth > allowed ? "LEAKS" : "ok"
    print(String(format: "%@: %d malformed inputs after %d warm-up (%d still read), heap %.1f → %.1f KB, %+.1f bytes per input (allowed %.0f KB): %@",
                 reader, count, warmUp, accepted, Double(before) / 1024, Double(after) / 1024,
                 Double(growth) / Double(count), Double(allowed) / 1024, verdict))
    if growth > allowed { failed = true }
}
exit(failed ? 1 : 0)

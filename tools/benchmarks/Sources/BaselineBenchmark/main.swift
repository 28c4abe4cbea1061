// The floor of the renderer benchmark: the scene of GLBaseline.h drawn by hand-written GL
// (headless EGL, one instanced SDF draw), no engine. Prints median ms per frame and a checksum
// of the readback. `--dump-scene FILE` writes the rect list as JSON for the CPU peers.
//
// usage: baseline-benchmark [count width height frames] [--seed N] [--dump-scene FILE] [--ppm FILE]
//                           [--max-size N]   (a scene variant for experiments; canonical: 200)
//                           [--quads N]      (the particle floor instead: N textured 8x8 quads)
import Foundation
import GLBaseline

var positional: [Int] = []
var seed = UInt32(GLB_SCENE_SEED)
var scenePath: String?
var ppmPath: String?
var maxSize = Int(GLB_SCENE_MAX_SIZE)
var quads: Int?
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--seed": seed = UInt32(args.popFirst().flatMap { UInt32($0) } ?? seed)
    case "--dump-scene": scenePath = args.popFirst()
    case "--ppm": ppmPath = args.popFirst()
    case "--max-size": maxSize = args.popFirst().flatMap { Int($0) } ?? maxSize
    case "--quads": quads = args.popFirst().flatMap { Int($0) } ?? 100_000
    case "-h", "--help":
        print("usage: baseline-benchmark [count width height frames] [--seed N] [--dump-scene FILE] [--ppm FILE] [--max-size N] [--quads N]")
        exit(0)
    default:
        guard let v = Int(a), v > 0 else { FileHandle.standardError.write("bad argument \(a)\n".data(using: .utf8)!); exit(2) }
        positional.append(v)
    }
}
let defaults = [Int(GLB_SCENE_COUNT), Int(GLB_SCENE_WIDTH), Int(GLB_SCENE_HEIGHT), 30]
let p = positional + defaults.dropFirst(positional.count)
let (count, width, height, frames) = (p[0], p[1], p[2], p[3])

if let scenePath {
    // Same numbers as the GL draw: one row of 12 floats per rect (see GLBaseline.h).
    var out = "{\"count\": \(count), \"seed\": \(seed), \"width\": \(width), \"height\": \(height), "
    out += "\"max_size\": \(maxSize), \"radius\": \(GLB_SCENE_RADIUS), \"border\": \(GLB_SCENE_BORDER),\n \"rects\": [\n"
    var r = [Float](repeating: 0, count: 12)
    for i in 0..<count {
        glb_scene_rect_ex(Int32(i), seed, Int32(width), Int32(height), Int32(maxSize), &r)
        out += "  [" + r.map { "\($0)" }.joined(separator: ", ") + (i + 1 < count ? "],\n" : "]\n")
    }
    out += " ]}\n"
    do { try out.write(toFile: scenePath, atomically: true, encoding: .utf8) } catch {
        FileHandle.standardError.write("cannot write \(scenePath): \(error)\n".data(using: .utf8)!); exit(1)
    }
    print("scene: \(count) rects, seed \(seed), \(width)x\(height), sizes 20...\(maxSize) -> \(scenePath)")
}

var err = [CChar](repeating: 0, count: 512)
guard glb_init(&err, Int32(err.count)) == 0 else {
    let message = err.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    FileHandle.standardError.write("GL init failed: \(message)\n".data(using: .utf8)!)
    exit(1)
}
print("renderer: \(String(cString: glb_renderer())) | \(String(cString: glb_version())) | EGL platform \(String(cString: glb_platform()))")
if let quads {
    // The particle floor (`render-benchmark emitter` draws this many 8 x 8 textured quads).
    let ms = glb_quads_ms(Int32(quads), Int32(width), Int32(height), Int32(frames), 8)
    guard ms >= 0 else { FileHandle.standardError.write("quad draw failed (\(ms))\n".data(using: .utf8)!); exit(1) }
    print(String(format: "%d textured 8x8 quads %dx%d, one instanced draw: %.2f ms/frame (median of %d, glFinish per frame)",
                 quads, width, height, ms, frames))
    print(String(format: "baseline gl-instanced-textured-quads %.2f", ms))
    exit(0)
}
let ms = glb_rects_ms_ex(Int32(count), Int32(width), Int32(height), Int32(frames), seed, Int32(maxSize))
guard ms >= 0 else { FileHandle.standardError.write("draw failed (\(ms))\n".data(using: .utf8)!); exit(1) }

var pixels = [UInt8](repeating: 0, count: width * height * 4)
guard glb_read_rgba(&pixels, Int32(width), Int32(height)) == 0 else {
    FileHandle.standardError.write("readback failed\n".data(using: .utf8)!); exit(1)
}
var hash: UInt64 = 0xcbf29ce484222325  // FNV-1a 64 over the premultiplied RGBA bytes, top-down
var covered = 0
for i in stride(from: 0, to: pixels.count, by: 4) {
    if pixels[i + 3] != 0 { covered += 1 }
    for k in 0..<4 { hash = (hash ^ UInt64(pixels[i + k])) &* 0x100000001b3 }
}
precondition(count == 0 || covered > 0, "nothing was drawn")
if let ppmPath {  // un-premultiplied over black is just the premultiplied RGB
    var data = Data("P6\n\(width) \(height)\n255\n".utf8)
    data.reserveCapacity(width * height * 3 + 32)
    for i in stride(from: 0, to: pixels.count, by: 4) { data.append(contentsOf: pixels[i..<i + 3]) }
    try? data.write(to: URL(fileURLWithPath: ppmPath))
}
print(String(format: "checksum: fnv1a64 %016llx, %.1f%% of pixels covered", hash, 100 * Double(covered) / Double(width * height)))
print(String(format: "%d rounded rects (sizes 20...%d, seed %u) %dx%d, one instanced SDF draw: %.2f ms/frame (median of %d, glFinish per frame)",
             count, maxSize, seed, width, height, ms, frames))
print(String(format: "baseline gl-instanced-sdf %.2f", ms))

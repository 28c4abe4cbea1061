import QuartzCore
import CADemoScenes
import Foundation

// Renders the bundled demo headless: numbered PNG frames and a contact sheet (a grid of
// frames) in the output folder (default `out/demo`). Usage: ca-demo [OUTPUT_DIR] [FRAMES]
let args = CommandLine.arguments
let outDir = URL(fileURLWithPath: args.count > 1 ? args[1] : "out/demo")
let frameCount = args.count > 2 ? max(1, min(Int(args[2]) ?? 24, 600)) : 24

do {
    try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
    CAMediaClock.freeze(at: 0)
    let scene = DemoScene.makeScene()
    let renderer = try CARenderer(offscreenSize: DemoScene.size, scale: 1)
    renderer.layer = scene.rootLayer
    let info = renderer.contextInfo
    print("EGL platform \(info["platform"] ?? "?"), \(info["renderer"] ?? "?"), OpenGL \(info["version"] ?? "?")")
    var frames: [CGImage] = []
    let start = Date()
    for i in 0..<frameCount {
        let t = DemoScene.duration * Double(i) / Double(frameCount)
        scene.applyScheduledChanges(upTo: t)
        renderer.beginFrame(atTime: t)
        try renderer.renderChecked()
        renderer.endFrame()
        let img = try renderer.makeImage()
        frames.append(img)
        guard let png = img.pngData() else { throw CARendererError.backend("PNG encoding failed") }
        try png.write(to: outDir.appendingPathComponent(String(format: "frame-%04d.png", i)))
    }
    let elapsed = Date().timeIntervalSince(start)
    let sheet = ContactSheet.make(frames, columns: 4, thumbnailScale: 0.5)
    try sheet.pngData()!.write(to: outDir.appendingPathComponent("contact-sheet.png"))
    print("wrote \(frameCount) frames and contact-sheet.png to \(outDir.path) "
          + "(\(String(format: "%.1f", elapsed * 1000 / Double(frameCount))) ms per frame incl. PNG; last frame: \(renderer.statistics))")
} catch {
    FileHandle.standardError.write(Data("ca-demo: \(error)\n".utf8))
    exit(1)
}

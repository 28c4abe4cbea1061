import CAWindow
import CADemoScenes
import Foundation

// Previews the bundled demo scene in a window at the display's refresh rate.
//   ca-preview                 the demo, looping (keys: space, ←/→, ↑/↓, Home, +/−, S, R, Esc)
//   ca-preview --interactive   drag the cards; the button pauses and resumes the animations
//   ca-preview --frames N      quit after N frames (smoke tests, CI)
//   ca-preview --camera DEV    a live source in a CAVideoLayer (CameraPreview.swift)
// Needs a display (a desktop, or Xvfb: xvfb-run -a ca-preview).
let args = Array(CommandLine.arguments.dropFirst())
if args.contains("--help") || args.contains("-h") {
    print("""
    usage: ca-preview [--interactive] [--frames N] [--backend gl|cpu|auto] [--camera DEVICE [--camera-format F] [--camera-option K=V]…]
      Plays the bundled demo in a window. Keys: space pause/resume, ←/→ step a frame,
      ↑/↓ or Shift+←/→ scrub 1 s, Home restart, +/− speed ×2/÷2, S save PNG, R reload, Esc quit.
      --interactive  drag the cards (implicit animations); click the button to pause/resume.
      --frames N     quit after N frames.
      --backend B    which backend draws: gl, cpu, or auto (default: the CPU backend where the
                     window's OpenGL is a software rasteriser such as llvmpipe, else gl).
      --camera DEVICE  show a live source (a V4L2 camera, e.g. /dev/video0) instead of the demo;
                     --camera-format lavfi takes an FFmpeg filter graph as DEVICE
                     (e.g. testsrc2=size=640x480:rate=30); --camera-option video_size=640x480 …
    """)
    exit(0)
}
var frameLimit: Int?
if let i = args.firstIndex(of: "--frames") {
    guard i + 1 < args.count, let n = Int(args[i + 1]), n > 0 else {
        FileHandle.standardError.write(Data("ca-preview: --frames needs a positive number\n".utf8))
        exit(2)
    }
    frameLimit = n
}

var backend = CARenderer.Backend.automatic
if let i = args.firstIndex(of: "--backend") {
    guard i + 1 < args.count, let b = try? CARenderer.Backend(name: args[i + 1]) else {
        FileHandle.standardError.write(Data("ca-preview: --backend needs gl, cpu or auto\n".utf8))
        exit(2)
    }
    backend = b
}

MainActor.assumeIsolated {
    do {
        if let source = CameraPreview.source(args) {
            let preview = try ScenePreview(name: "camera \(source.device)", watching: nil, backend: backend) {
                CameraPreview.scene(source) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            }
            preview.window.configurationNote()
            if let n = frameLimit { try preview.window.run(frames: n); preview.window.close() } else { preview.run() }
        } else if args.contains("--interactive") {
            let demo = try InteractiveDemo()
            demo.window.configurationNote()
            if let n = frameLimit { try demo.window.run(frames: n); demo.window.close() } else { demo.window.run() }
        } else {
            let preview = try ScenePreview(name: "demo", watching: nil, backend: backend) {
                // The demo with its scheduled transactions (the implicit morph and the push).
                let demo = DemoScene.makeScene()
                return PreviewScene(rootLayer: demo.rootLayer, size: demo.size, scale: demo.scale,
                                    duration: demo.duration, framesPerSecond: demo.framesPerSecond,
                                    applyScheduledChanges: { demo.applyScheduledChanges(upTo: $0) })
            }
            preview.window.configurationNote()
            if let n = frameLimit { try preview.window.run(frames: n); preview.window.close() } else { preview.run() }
        }
    } catch {
        FileHandle.standardError.write(Data("ca-preview: \(error)\n".utf8))
        exit(1)
    }
}

extension LayerWindow {
    /// One line about the window's context and rate, to the terminal.
    func configurationNote() {
        let info = contextInfo
        FileHandle.standardError.write(Data(("ca-preview: \(Int(size.width))×\(Int(size.height)) pt at scale \(contentsScale), "
            + "\(String(format: "%.0f", refreshRate)) Hz, \(info["api"] ?? "?") \(info["renderer"] ?? "?"), OpenGL \(info["version"] ?? "?"); "
            + "backend \(renderer.activeBackend.backend) (\(renderer.activeBackend.reason))\n").utf8))
    }
}

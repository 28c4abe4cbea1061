import ArgumentParser
import CAWindow
import Foundation

/// `carender preview`: the scene in a window (CAWindow's `ScenePreview`), reloaded when the
/// file changes. The one command that needs a display.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a scene in a window at the display's rate; reload it when the file changes.",
        discussion: """
        Keys: space pause/resume · ←/→ step one frame (pauses) · ↑/↓ or Shift+←/→ scrub one second · Home back to 0 · +/− double/halve the speed · S save the frame shown as a PNG (rendered headless, in the current folder) · R reload · Esc or the close button quit.

        When the scene file changes it is reloaded at the same playback time; a file that no longer loads leaves the last good scene on screen and prints the problem. Needs a display (a desktop, or a virtual one: xvfb-run -a carender preview …). Frame statistics are printed on exit.

        Examples:
          carender preview                         the built-in demo
          carender preview Scenes/demo/scene.json  a scene file, reloaded on save
          carender preview icon.svg                an SVG file
        """)

    @Argument(help: "A scene file (JSON), a Lottie file (.json, .lottie) or an SVG file. Omitted: the built-in demo.")
    var scene: String?

    @Option(help: ArgumentHelp("Quit after this many frames (for scripts and smoke tests).", valueName: "N"))
    var frames: Int?

    @Flag(help: "Let a scene file use images outside its folder.")
    var allowOutsideImages = false

    @OptionGroup var backendChoice: BackendOption

    func run() throws {
        try CLI.run {
            if let frames, frames < 1 { throw CLIError.usage("--frames \(frames): at least 1") }
            try backendChoice.apply()
            try MainActor.assumeIsolated { try preview() }
        }
    }

    @MainActor
    private func preview() throws {
        let (path, allow) = (scene, allowOutsideImages)
        // Loaded on the live clock (not frozen, unlike `render`): the window's frames are real time.
        let backend = try CARenderer.Options.fromCarenderEnvironment().backend
        let preview = try ScenePreview(name: path ?? "demo", watching: path.map { URL(fileURLWithPath: $0) }, backend: backend) {
            let s = try path.map { try SceneInput.loadFile($0, allowOutsideImages: allow) } ?? SceneInput.demo()
            s.notes.forEach(CLI.note)
            return PreviewScene(rootLayer: s.rootLayer, size: s.size, scale: s.scale, duration: s.duration,
                                framesPerSecond: s.framesPerSecond, applyScheduledChanges: s.applyScheduledChanges)
        }
        if let frames {
            try preview.window.run(frames: frames)
            preview.window.close()
        } else {
            preview.run()
        }
    }
}

import Testing
import CATestSupport
import Foundation

/// The preview in a window: keys reach the session at frame times, S saves the frame through
/// the headless path, a changed file reloads at the same time, a broken one keeps the last
/// good scene on screen.
@Suite("Scene preview in a window", .serialized, .clockExclusive, .enabled(if: TestDisplay.isAvailable, "needs a display: DISPLAY, or Xvfb on the PATH"))
@MainActor
struct ScenePreviewTests {
    /// A scene file holding a colour name ("white" or "green"); anything else fails to load.
    static func loader(_ url: URL) -> () throws -> PreviewScene {
        {
            let text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            switch text {
            case "white": return SessionProbe.scene(colour: CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            case "green": return SessionProbe.scene(colour: CGColor(red: 0, green: 1, blue: 0, alpha: 1))
            default: throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "unknown colour '\(text)'"])
            }
        }
    }

    /// A preview of the probe scene in `file`, in a window of the scene's size.
    static func preview(_ file: URL, log: @escaping (String) -> Void) throws -> ScenePreview {
        try ScenePreview(name: "probe", watching: file, configuration: WindowHarness.configuration(size: SessionProbe.size),
                         log: log, load: loader(file))
    }

    static func tempFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ca-preview-\(getpid())-\(UUID().uuidString).scene")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("space pauses at a frame time; S saves that frame through the headless path")
    func pauseAndSave() throws {
        let file = try Self.tempFile("white")
        defer { try? FileManager.default.removeItem(at: file) }
        var log: [String] = []
        let preview = try Self.preview(file) { log.append($0) }
        defer { preview.window.close() }
        preview.outputDirectory = FileManager.default.temporaryDirectory
        try preview.window.run(frames: 30)   // the frame rendered last is at scene time 30/60 = 0.5
        preview.handle(.keyDown(KeyEvent(key: .space)))
        try preview.window.run(frames: 30)   // paused at the next frame's time, 31/60
        let shown = try preview.window.readPixels()
        #expect(preview.session.isPaused)
        #expect(abs(preview.position - 31.0 / 60) < 1e-6)
        // The window fits the scene exactly (same size): the box is at 100 pt/s × 31/60 s.
        #expect(SessionProbe.boxX(shown) == 52)
        preview.handle(.keyDown(KeyEvent(key: .letter("S")!)))
        try preview.window.run(frames: 1)
        let saved = log.compactMap { $0.hasPrefix("saved ") ? String($0.dropFirst(6)) : nil }
        #expect(saved.count == 1)
        guard let path = saved.first else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let png = try CGImage(contentsOfPNGFile: path)
        #expect(png.width == 200 && png.height == 20)
        #expect(WindowHarness.difference(png, shown).maxDiff <= 1)
    }

    @Test("a changed file reloads at the same playback time; a broken one keeps the last good scene")
    func reloadOnChange() throws {
        let file = try Self.tempFile("white")
        defer { try? FileManager.default.removeItem(at: file) }
        var log: [String] = []
        let preview = try Self.preview(file) { log.append($0) }
        defer { preview.window.close() }
        try preview.window.run(frames: 20)
        try Data("green".utf8).write(to: file)
        try preview.window.run(frames: 20)   // the watcher polls every 0.25 s of frame time
        #expect(preview.session.loadCount == 2)
        #expect(log.contains { $0.hasPrefix("reloaded probe") })
        let green = try preview.window.readPixels()
        #expect(SessionProbe.boxX(green) == 67)          // 40/60 s: playback time kept
        #expect(WindowHarness.rgb(green, 70, 10) == [0, 255, 0])
        try Data("purple!".utf8).write(to: file)
        try preview.window.run(frames: 20)
        #expect(preview.session.lastError?.contains("unknown colour 'purple!'") == true)
        #expect(log.contains { $0.contains("keeping the last good scene") })
        let still = try preview.window.readPixels()
        #expect(SessionProbe.boxX(still) == 100)         // still playing, still green
        #expect(WindowHarness.rgb(still, 103, 10) == [0, 255, 0])
    }

    @Test("a scene that fails to load at start opens no window and says why")
    func failsAtStart() throws {
        let file = try Self.tempFile("nonsense")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: PreviewError.self) {
            _ = try Self.preview(file) { _ in }
        }
        do {
            _ = try Self.preview(file) { _ in }
        } catch {
            #expect("\(error)".contains("unknown colour 'nonsense'"))
        }
    }
}

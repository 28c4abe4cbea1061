import Testing
import CATestSupport
import Foundation

/// Preview playback without a window (runs everywhere): Apple's pause/resume recipe (C10) on
/// the scene's container, speed changes (C11), frame steps and scrubbing, loops, reloads that
/// keep the time, and bad scenes. Scene time is read back from rendered pixels.
@Suite("Preview session", .clockExclusive)
@MainActor
struct PreviewSessionTests {
    @Test("plays from 0 at the media time it starts; C10 pause holds, resume continues from there")
    func pauseResume() throws {
        let s = try PreviewSession(at: 100) { SessionProbe.scene() }
        #expect(try SessionProbe.shownTime(s, at: 100) == 0)
        #expect(try SessionProbe.shownTime(s, at: 100.5) == 0.5)
        s.togglePause(at: 100.8)
        #expect(s.isPaused)
        #expect(s.container.speed == 0)
        #expect(abs(s.container.timeOffset - 0.8) < 1e-9)
        // Any later wall time shows 0.8 s.
        #expect(try SessionProbe.shownTime(s, at: 105) == 0.8)
        s.togglePause(at: 110)
        #expect(!s.isPaused)
        #expect(try SessionProbe.shownTime(s, at: 110.5) == 1.3)
    }

    @Test("+ doubles the speed, keeping the position (C11)")
    func rate() throws {
        let s = try PreviewSession(at: 100) { SessionProbe.scene() }
        s.changeRate(by: 2, at: 100.5)
        #expect(s.rate == 2)
        #expect(try SessionProbe.shownTime(s, at: 100.5) == 0.5)
        #expect(try SessionProbe.shownTime(s, at: 100.75) == 1.0)
        s.changeRate(by: 0.25, at: 100.75)
        #expect(try SessionProbe.shownTime(s, at: 101.75) == 1.5)
        s.changeRate(by: .nan, at: 101.75)
        #expect(s.rate == 0.5)
    }

    @Test("arrow steps move one scene frame and pause; stepping back rebuilds the scene")
    func steps() throws {
        let s = try PreviewSession(at: 100) { SessionProbe.scene(fps: 10) }
        s.step(frames: 1, at: 100.5)   // 0.5 → 0.6, paused
        #expect(s.isPaused)
        #expect(try SessionProbe.shownTime(s, at: 101) == 0.6)
        let loads = s.loadCount
        s.step(frames: -2, at: 102)
        #expect(try SessionProbe.shownTime(s, at: 103) == 0.4)
        #expect(s.loadCount == loads + 1)
        s.scrub(by: 1, at: 103)
        #expect(try SessionProbe.shownTime(s, at: 104) == 1.4)
        s.seek(to: -5, at: 104)        // clamped to 0
        #expect(try SessionProbe.shownTime(s, at: 105) == 0)
    }

    @Test("playback loops at the scene's duration with a fresh scene")
    func loops() throws {
        let s = try PreviewSession(at: 100) { SessionProbe.scene(duration: 1.5) }
        s.update(at: 101.2)
        #expect(s.loadCount == 1)
        s.update(at: 101.7)   // 1.7 → 0.2
        #expect(s.loadCount == 2)
        #expect(try SessionProbe.shownTime(s, at: 101.7) == 0.2)
    }

    @Test("reload keeps the playback time and the paused state, and shows the new scene")
    func reloadKeepsTime() throws {
        var colour = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let s = try PreviewSession(at: 100) { SessionProbe.scene(colour: colour) }
        s.togglePause(at: 101.2)
        colour = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        #expect(s.reload(at: 102))
        #expect(s.isPaused)
        let img = try SessionProbe.render(s, at: 103)
        #expect(SessionProbe.boxX(img) == 120)
        #expect(img.pixel(x: 125, y: 10).r == 0 && img.pixel(x: 125, y: 10).g == 255)
    }

    @Test("a reload that fails keeps the last good scene on screen and reports the error")
    func reloadFailureKeepsScene() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "line 3: unknown key 'positon'" } }
        var fail = false
        var logged: [String] = []
        let s = try PreviewSession(at: 100, log: { logged.append($0) }) {
            if fail { throw Broken() }
            return SessionProbe.scene()
        }
        fail = true
        #expect(!s.reload(at: 100.5))
        #expect(s.lastError?.contains("unknown key 'positon'") == true)
        #expect(logged.count == 1 && logged[0].contains("keeping the last good scene"))
        #expect(try SessionProbe.shownTime(s, at: 100.7) == 0.7)   // still the old scene, still playing
        fail = false
        #expect(s.reload(at: 100.8))
        #expect(s.lastError == nil)
    }

    @Test("a scene that fails to load at start, or has no size, is a clear error")
    func loadFailureAtStart() {
        struct Missing: Error, CustomStringConvertible { var description: String { "no such file: scene.json" } }
        #expect(throws: PreviewError.loadFailed("no such file: scene.json")) {
            _ = try PreviewSession(at: 0) { throw Missing() }
        }
        #expect(throws: PreviewError.self) {
            _ = try PreviewSession(at: 0) { PreviewScene(rootLayer: CALayer(), size: CGSize(width: 0, height: 10)) }
        }
        #expect(throws: PreviewError.self) {
            _ = try PreviewSession(at: 0) { PreviewScene(rootLayer: CALayer(), size: CGSize(width: 10, height: 10), scale: .nan) }
        }
    }

    @Test("scheduled changes are applied up to the position, again from scratch after going back")
    func scheduledChanges() throws {
        var calls: [Double] = []
        let s = try PreviewSession(at: 100) { SessionProbe.scene(scheduled: { calls.append($0) }) }
        s.update(at: 100.3)
        s.update(at: 100.6)
        #expect(calls.map { ($0 * 1000).rounded() } == [0, 300, 600])
        calls = []
        s.seek(to: 0.2, at: 100.6)   // back: a fresh scene gets changes up to 0.2 only
        #expect(calls.map { ($0 * 1000).rounded() } == [200])
    }
}

@Suite("Frame pacing and statistics", .clockExclusive)
struct FramePacingTests {
    @Test("with vsync the swap returns a refresh later: shown then, nothing dropped")
    func vsync() {
        var p = FramePacer(refreshRate: 60)
        let i = 1.0 / 60
        let first = p.frameSwapped(now: 10)
        #expect(first.sleepUntil == nil)
        for k in 1...10 {
            let r = p.frameSwapped(now: 10 + Double(k) * i + 0.0004)
            #expect(r.sleepUntil == nil)
        }
        #expect(p.droppedFrames == 0)
        let (ts, target) = p.frameTimes(now: 10.2)
        #expect(abs(target - ts - i) < 1e-12)
    }

    @Test("without vsync the loop sleeps to the next refresh; a late frame counts as dropped")
    func noVsync() {
        var p = FramePacer(refreshRate: 50)   // 20 ms
        _ = p.frameSwapped(now: 1)
        let r = p.frameSwapped(now: 1.005)
        #expect(r.sleepUntil == 1.02)
        #expect(r.presentTime == 1.02)
        let late = p.frameSwapped(now: 1.02 + 0.061)   // three intervals later
        #expect(late.sleepUntil == nil)
        #expect(p.droppedFrames == 2)
        #expect(FramePacer(refreshRate: .nan).interval == 1.0 / 60)
        #expect(FramePacer(refreshRate: 0).interval == 1.0 / 60)
    }

    @Test("percentiles by nearest rank; the report names frames, fps and dropped frames")
    func statistics() {
        let samples = (1...100).map(Double.init)
        #expect(FrameStatistics.percentile(50, of: samples) == 50)
        #expect(FrameStatistics.percentile(99, of: samples) == 99)
        #expect(FrameStatistics.percentile(100, of: samples) == 100)
        #expect(FrameStatistics.percentile(0, of: samples) == 1)
        #expect(FrameStatistics.percentile(50, of: []) == nil)
        #expect(FrameStatistics.percentile(.nan, of: samples) == nil)
        var s = FrameStatistics(refreshInterval: 1.0 / 60)
        for _ in 0..<10 { s.record(interval: 0.02, work: 0.005) }
        s.record(interval: .nan, work: -1)   // ignored samples
        s.droppedFrames = 3
        #expect(s.frames == 11)
        #expect(abs((s.framesPerSecond ?? 0) - 50) < 1e-9)
        #expect(s.description.contains("11 frames, 50.0 fps"))
        #expect(s.description.contains("3 dropped"))
        #expect(s.description.contains("p99 20.00"))
    }
}

@Suite("File watching and bad window input")
struct FileWatcherTests {
    @Test("a changed file is reported once; a missing one is not, until it is back")
    func watch() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ca-watch-\(getpid())-\(UUID().uuidString).txt")
        try Data("a".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var w = FileWatcher(url: url, interval: 0)
        do { let c = w.changed(now: 0); #expect(!c) }
        try Data("bb".utf8).write(to: url)   // size changes even within one mtime tick
        do { let c = w.changed(now: 1); #expect(c) }
        do { let c = w.changed(now: 2); #expect(!c) }
        try FileManager.default.removeItem(at: url)
        do { let c = w.changed(now: 3); #expect(!c) }
        try Data("ccc".utf8).write(to: url)
        do { let c = w.changed(now: 4); #expect(c) }
        var slow = FileWatcher(url: url, interval: 10)
        try Data("dddd".utf8).write(to: url)
        do { let c = slow.changed(now: 0); #expect(c) }        // first check
        try Data("eeeee".utf8).write(to: url)
        do { let c = slow.changed(now: 5); #expect(!c) }       // not yet due
        do { let c = slow.changed(now: 10); #expect(c) }
    }

    @MainActor
    @Test("bad window sizes and scales are refused before any display is needed")
    func badConfiguration() {
        var c = LayerWindow.Configuration()
        c.size = CGSize(width: CGFloat.nan, height: 100)
        #expect(throws: WindowError.self) { _ = try LayerWindow(configuration: c) }
        c.size = CGSize(width: 100, height: 100_000)
        #expect(throws: WindowError.self) { _ = try LayerWindow(configuration: c) }
        c.size = CGSize(width: 100, height: 100)
        c.contentScale = 0
        #expect(throws: WindowError.self) { _ = try LayerWindow(configuration: c) }
    }

    @Test("ca-preview without a display exits 1 with one clear line, no crash",
          .enabled(if: FileWatcherTests.preview != nil, "ca-preview is not built next to the tests"))
    func previewWithoutDisplay() throws {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        let (status, text) = try Self.runPreview(["--frames", "1"], environment: env)
        #expect(status == 1)
        #expect(text.hasPrefix("ca-preview: no display for a window: DISPLAY is not set"))
        #expect(text.split(separator: "\n").count == 1)
    }

    @Test("an X server without GLX: the window falls back to an EGL context and plays",
          .enabled(if: FileWatcherTests.preview != nil && TestDisplay.findExecutable("Xvfb") != nil, "needs ca-preview and Xvfb"))
    func noGLXFallsBackToEGL() throws {
        let xvfb = try #require(TestDisplay.findExecutable("Xvfb"))
        let server: (display: Int, watchdog: pid_t)
        switch TestDisplay.launchXvfb(xvfb, extraArguments: ["-extension", "GLX"]) {
        case .success(let s): server = s
        case .failure(let why): Issue.record("\(why.text)"); return
        }
        defer { kill(server.watchdog, SIGTERM) }
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = ":\(server.display)"
        let (status, text) = try Self.runPreview(["--frames", "3"], environment: env)
        #expect(status == 0, "\(text)")
        #expect(text.contains(", EGL "), "\(text)")
    }

    /// Runs ca-preview and returns its exit status and standard error.
    static func runPreview(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = preview
        p.arguments = arguments
        p.environment = environment
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    static let preview: URL? = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = dir.appendingPathComponent("ca-preview")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }()
}

import Testing
import CATestSupport
import Foundation

/// The backend a window's renderer draws with (`LayerWindow.Configuration.backend`, issue 22:
/// "the preview chooses explicitly"). The window's OpenGL context presents every frame; where
/// the CPU backend draws them, its pixels go up through that context.
@Suite("Window backends", .serialized, .clockExclusive, .enabled(if: TestDisplay.isAvailable, "needs a display: DISPLAY, or Xvfb on the PATH"))
@MainActor
struct WindowBackendTests {
    @Test("the CPU backend in a window shows the headless CPU render, and matches the GL render within the parity rule")
    func softwareInAWindow() throws {
        var c = WindowHarness.configuration(size: DemoScene.size)
        c.backend = .software
        let window = try LayerWindow(configuration: c)
        defer { window.close() }
        #expect(window.renderer.activeBackend.backend == .software)
        window.layer = DemoScene.make()
        try window.drawFrame(atTime: 0)
        try window.drawFrame(atTime: 1.25)
        let shown = try window.readPixels()
        try window.swapBuffers()
        #expect(shown.width == 640 && shown.height == 360)
        let cpu = try WindowHarness.headless(DemoScene.make(), size: DemoScene.size, times: [0, 1.25], backend: .software)
        let same = WindowHarness.difference(shown, cpu, threshold: 0)
        #expect(same.maxDiff == 0, "the presented frame is the CPU backend's, byte for byte: largest difference \(same.maxDiff)")
        let gl = try WindowHarness.headless(DemoScene.make(), size: DemoScene.size, times: [0, 1.25], backend: .openGL)
        #expect(WindowHarness.difference(shown, gl, threshold: 2).fraction <= 0.005)
        // A second frame at another time is drawn and presented too (not the first one again).
        try window.drawFrame(atTime: 2.0)
        #expect(WindowHarness.difference(try window.readPixels(), shown).fraction > 0.001)
    }

    @Test("by default a window chooses automatically: the CPU backend on a software GL driver (optimised builds), OpenGL on a GPU, and says why")
    func automaticInAWindow() throws {
        var c = WindowHarness.configuration(size: CGSize(width: 64, height: 48))
        c.backend = .automatic
        #expect(LayerWindow.Configuration().backend == .automatic)
        let window = try LayerWindow(configuration: c)
        defer { window.close() }
        let name = (window.contextInfo["renderer"] ?? "").lowercased()
        let software = ["llvmpipe", "softpipe", "swrast"].contains { name.contains($0) }
        // (A debug build keeps GL on a software driver: its CPU backend is unoptimised.)
        let cpu = software && CARenderer.Options().cpuBackendIsOptimised
        let active = window.renderer.activeBackend
        #expect(active.backend == (cpu ? .software : .openGL), "\(name): \(active.reason)")
        #expect(active.reason.hasPrefix("automatic"))
        if cpu { #expect(active.reason.contains("presented through the window's OpenGL context")) }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)
        window.layer = root
        try window.drawFrame(atTime: 0)
        #expect(WindowHarness.rgb(try window.readPixels(), 32, 24) == [0, 128, 255])
    }
}

import Testing
import CATestSupport
import Foundation

/// Windows under a display (a desktop, `xvfb-run`, or the private Xvfb `TestDisplay` starts):
/// what the window shows is the headless render, resize and HiDPI scale reach the layer and
/// the renderer, closing is safe at any point.
@Suite("Window rendering", .serialized, .clockExclusive, .enabled(if: TestDisplay.isAvailable, "needs a display: DISPLAY, or Xvfb on the PATH"))
@MainActor
struct WindowRenderTests {
    /// The demo at a pinned time, through the window (GLX default framebuffer, read back
    /// before the swap) and through the headless EGL path: the same pixels. Only the gradient
    /// dither (which keys on gl_FragCoord, flipped in the window) may move values by 1/255.
    @Test("the window shows the headless render of the demo at a pinned time")
    func windowMatchesHeadless() throws {
        let window = try WindowHarness.open(size: DemoScene.size)
        defer { window.close() }
        window.layer = DemoScene.make()
        try window.drawFrame(atTime: 0)        // the commit: animations begin at 0
        try window.drawFrame(atTime: 1.25)
        let shown = try window.readPixels()
        try window.swapBuffers()
        let expected = try WindowHarness.headless(DemoScene.make(), size: DemoScene.size, times: [0, 1.25])
        #expect(shown.width == 640 && shown.height == 360)
        let d = WindowHarness.difference(shown, expected, threshold: 2)
        #expect(d.maxDiff <= 3, "largest channel difference \(d.maxDiff)")
        #expect(d.fraction < 0.001, "\(d.fraction * 100)% of pixels differ by more than 2")
        // And it is the demo at 1.25 s, not at 0: the ball has left its start (40, 140).
        let atStart = try WindowHarness.headless(DemoScene.make(), size: DemoScene.size, times: [0])
        #expect(WindowHarness.difference(shown, atStart).fraction > 0.001)
    }

    @Test("HiDPI: content scale 2 renders twice the pixels, equal to the headless render at scale 2")
    func hiDPI() throws {
        let size = CGSize(width: 120, height: 80)
        let window = try WindowHarness.open(size: size, scale: 2)
        defer { window.close() }
        #expect(window.contentsScale == 2)
        #expect(window.size == size)
        let root = Self.card()
        window.layer = root
        #expect(root.contentsScale == 2)
        try window.drawFrame(atTime: 0)
        let shown = try window.readPixels()
        #expect(shown.width == 240 && shown.height == 160)
        let expected = try WindowHarness.headless(Self.card(), size: size, scale: 2, times: [0])
        #expect(WindowHarness.difference(shown, expected).maxDiff <= 1)
        // The card's fill at its centre (60, 40 pt → 120, 80 px): opaque red.
        #expect(WindowHarness.rgb(shown, 120, 80) == [255, 0, 0])
    }

    @Test("resize: the layer's bounds and the drawable follow the window")
    func resize() throws {
        let window = try WindowHarness.open(size: CGSize(width: 200, height: 150))
        defer { window.close() }
        let root = CALayer()
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        window.layer = root
        #expect(root.bounds.size == CGSize(width: 200, height: 150))
        var resizedEvents: [CGSize] = []
        window.eventHandler = { e in if case .resized(let s, _) = e { resizedEvents.append(s) } }
        try window.setSize(CGSize(width: 320, height: 180))
        // The X server confirms the size asynchronously: poll for up to 2 s.
        let deadline = Date().addingTimeInterval(2)
        while window.size != CGSize(width: 320, height: 180), Date() < deadline {
            try window.processEvents(waitingUpTo: 0.05)
        }
        #expect(window.size == CGSize(width: 320, height: 180))
        #expect(root.bounds.size == CGSize(width: 320, height: 180))
        #expect(root.frame.origin == .zero)
        #expect(resizedEvents.last == CGSize(width: 320, height: 180))
        try window.drawFrame(atTime: 0)
        let shown = try window.readPixels()
        #expect(shown.width == 320 && shown.height == 180)
        // Every corner blue: the frame fills the new size (not clipped to the old 200×150).
        for (x, y) in [(0, 0), (319, 0), (0, 179), (319, 179), (250, 20)] {
            #expect(WindowHarness.rgb(shown, x, y) == [0, 0, 255], "pixel (\(x), \(y))")
        }
        #expect(throws: WindowError.self) { try window.setSize(CGSize(width: CGFloat.nan, height: 10)) }
    }

    @Test("close: once closed, frames throw WindowError.closed; closing twice is harmless")
    func close() throws {
        let window = try WindowHarness.open(size: CGSize(width: 64, height: 64))
        window.layer = Self.card()
        try window.runFrame()
        window.close()
        window.close()
        #expect(window.isClosed)
        #expect(throws: WindowError.closed) { try window.drawFrame(atTime: 1) }
        #expect(throws: WindowError.closed) { try window.runFrame() }
        #expect(throws: WindowError.closed) { try window.readPixels() }
        // The renderer of a closed window fails cleanly too (its context is gone).
        window.renderer.beginFrame(atTime: 2)
        #expect(throws: CARendererError.self) { try window.renderer.renderChecked() }
        window.renderer.endFrame()
    }

    @Test("closing from a display link mid-frame ends the loop after that frame, without rendering")
    func closeMidFrame() throws {
        let window = try WindowHarness.open(size: CGSize(width: 64, height: 64))
        window.layer = Self.card()
        var ticks = 0
        let link = window.displayLink { _ in
            ticks += 1
            if ticks == 3 { window.close() }
        }
        link.add(to: .main, forMode: .common)
        window.run()   // returns when the window closes
        #expect(ticks == 3)
        #expect(window.isClosed)
        #expect(window.statistics.frames == 2)
        #expect(window.displayLinks.isEmpty)
    }

    @Test("Escape and the close button request closing; a handler may cancel it")
    func escapeCloses() throws {
        let window = try WindowHarness.open(size: CGSize(width: 64, height: 64))
        var requests = 0
        var cancel = true
        window.eventHandler = { e in
            if e == .closeRequested {
                requests += 1
                if cancel { window.cancelClose() }
            }
        }
        window.simulateKey(.escape, pressed: true)
        try window.runFrame()
        #expect(requests == 1)
        #expect(!window.isClosed)
        cancel = false
        window.simulateCloseButton()
        try window.runFrame()
        #expect(requests == 2)
        #expect(window.isClosed)
    }

    @Test("mouse events arrive in layer coordinates; hitTest finds the layer under the pointer")
    func mouseHitTest() throws {
        let window = try WindowHarness.open(size: CGSize(width: 200, height: 100), scale: 2)
        defer { window.close() }
        let root = CALayer()
        let target = CALayer()
        target.frame = CGRect(x: 100, y: 20, width: 50, height: 40)
        root.addSublayer(target)
        window.layer = root
        var downs: [CGPoint] = []
        var drags: [CGPoint] = []
        window.eventHandler = { e in
            switch e {
            case .mouseDown(let m): downs.append(m.location)
            case .mouseDragged(let m): drags.append(m.location)
            default: break
            }
        }
        // Window coordinates on X11 are pixels: (250, 60) px is (125, 30) pt at scale 2.
        window.simulateMouse(button: 0, pressed: true, atWindowPixel: CGPoint(x: 250, y: 60))
        window.simulateCursor(atWindowPixel: CGPoint(x: 20, y: 20))
        try window.processEvents()
        #expect(downs == [CGPoint(x: 125, y: 30)])
        #expect(drags == [CGPoint(x: 10, y: 10)])
        #expect(window.layer?.hitTest(downs[0]) === target)
        #expect(target.convert(downs[0], from: nil) == CGPoint(x: 25, y: 10))
        #expect(window.layer?.hitTest(drags[0]) === root)
    }

    /// A 120×80 root with an opaque red card filling its middle.
    static func card() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let c = CALayer()
        c.frame = CGRect(x: 20, y: 20, width: 80, height: 40)
        c.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.cornerRadius = 8
        root.addSublayer(c)
        return root
    }
}

import Testing
import Foundation

/// Bad input to the renderer: a clear error or a documented fallback, never a crash, a hang or
/// a silently black frame (issue "bad input never crashes"). Every test is one or a few small
/// renders; the deep and wide trees are sized to stay well under 5 s in a debug build.
@Suite struct BadInputTests {
    /// A 60×40 scene over white: a red 20×20 layer at (10, 10) that must always render, and
    /// `victim` (configured by the test) as its sibling.
    func scene(_ configure: (CALayer) -> Void) -> (root: CALayer, victim: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        let good = CALayer()
        good.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        good.backgroundColor = solid(1, 0, 0)
        root.addSublayer(good)
        let victim = CALayer()
        victim.frame = CGRect(x: 35, y: 10, width: 20, height: 20)
        victim.backgroundColor = solid(0, 0, 1)
        configure(victim)
        root.addSublayer(victim)
        return (root, victim)
    }

    static let red = RGBA(255, 0, 0), blue = RGBA(0, 0, 255), white = RGBA(255, 255, 255)

    /// The red layer rendered and nothing leaked over the background around it.
    func expectGoodLayerAndBackground(_ img: CGImage, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(img.rgba(20, 20) == Self.red, sourceLocation: sourceLocation)
        #expect(img.rgba(2, 2) == Self.white, sourceLocation: sourceLocation)
        #expect(img.rgba(57, 37) == Self.white, sourceLocation: sourceLocation)
        #expect(img.rgba(32, 35) == Self.white, sourceLocation: sourceLocation)
    }

    /// Renders the 60×40 scene over white; returns the image and the warnings this render gave
    /// (captured for this test alone, though tests run in parallel).
    func render(_ root: CALayer) throws -> (CGImage, [String]) {
        try RenderDiagnostics.capture { try RenderHarness.render(root, size: CGSize(width: 60, height: 40)) }
    }

    /// True when `body` made the model log a new warning containing `needle`.
    func modelWarns(_ needle: String, _ body: () -> Void) -> Bool {
        // Captured per call: the process-wide ring of recent warnings (256) is filled by other
        // suites in parallel, and a full ring keeps a count unchanged.
        Diagnostics.capture(body).1.contains { $0.contains(needle) }
    }

    // MARK: Target sizes

    @Test(arguments: [
        (CGSize(width: 0, height: 10), "has no pixels"),
        (CGSize(width: 10, height: 0), "has no pixels"),
        (CGSize(width: -20, height: 10), "has no pixels"),
        (CGSize(width: 0.2, height: 0.2), "has no pixels"),
        (CGSize(width: CGFloat.nan, height: 10), "not finite"),
        (CGSize(width: 10, height: CGFloat.infinity), "not finite"),
        (CGSize(width: -CGFloat.infinity, height: 10), "not finite"),
        (CGSize(width: 100_000, height: 10), "exceeds the limit of 16384"),
        (CGSize(width: 10, height: 1e300), "exceeds the limit of 16384"),   // finite, but no Int holds it
    ])
    func invalidOffscreenSizeThrowsAClearError(size: CGSize, message: String) {
        let e = #expect(throws: CARendererError.self) { _ = try CARenderer(offscreenSize: size, options: .init(backend: .openGL)) }
        guard case .invalidSize(let text)? = e else { Issue.record("expected invalidSize, got \(String(describing: e))"); return }
        #expect(text.contains(message), "\(text)")
    }

    @Test(arguments: [CGFloat(0), -1, .nan, .infinity])
    func invalidScaleThrowsAClearError(scale: CGFloat) {
        let e = #expect(throws: CARendererError.self) { _ = try CARenderer(offscreenSize: CGSize(width: 10, height: 10), scale: scale, options: .init(backend: .openGL)) }
        #expect(e?.description.contains("not finite and positive") == true, "\(String(describing: e))")
    }

    // MARK: Non-finite and degenerate geometry

    @Test func nanTransformIsRejectedByTheModelAndTheLayerStillDraws() throws {
        var nan = CATransform3DIdentity
        nan.m11 = .nan
        var warned = false
        let (root, victim) = scene { v in warned = modelWarns("transform") { v.transform = nan } }
        #expect(CATransform3DIsIdentity(victim.transform))   // the setter ignored it…
        #expect(warned)                                     // …and said so
        let (img, _) = try render(root)
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == Self.blue)
    }

    /// Each factor is finite (the model accepts it); their product overflows to infinity in
    /// the world matrix. The layer and its subtree are skipped with a warning, the rest draws.
    @Test func transformOverflowingToInfinityIsSkippedWithAWarning() throws {
        let (root, _) = scene { v in
            v.transform = CATransform3DMakeScale(1e200, 1e200, 1)
            let child = CALayer()
            child.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            child.transform = CATransform3DMakeScale(1e200, 1e200, 1)
            child.backgroundColor = solid(0, 1, 0)
            v.addSublayer(child)
        }
        let (img, warnings) = try render(root)
        expectGoodLayerAndBackground(img)
        #expect(warnings.contains { $0.contains("not finite") }, "\(warnings)")
        for y in stride(from: 0, to: 40, by: 3) {
            for x in stride(from: 0, to: 60, by: 3) {
                #expect(img.rgba(x, y).g == 0 || img.rgba(x, y) == Self.white, "the infinite child leaked at (\(x), \(y))")
            }
        }
    }

    /// 1e39 is a finite Double but overflows the Float the GPU is given: the renderer must
    /// treat it as it treats infinity instead of feeding inf/NaN to the shaders.
    @Test func transformBeyondFloatRangeIsSkippedWithAWarning() throws {
        let (root, _) = scene { v in v.transform = CATransform3DMakeScale(1e39, 1e39, 1) }
        let (img, warnings) = try render(root)
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == Self.white)
        #expect(warnings.contains { $0.contains("beyond 32-bit float range") }, "\(warnings)")
    }

    /// m44 = 0 puts the whole plane at infinity (W = 0): nothing of it can be drawn.
    @Test func transformWithZeroWDrawsNothingAndTheRestRenders() throws {
        var t = CATransform3DIdentity
        t.m44 = 0
        let (root, _) = scene { $0.transform = t }
        let img = try render(root).0
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == Self.white)
    }

    /// A singular matrix (scale 0) collapses the layer to a line: nothing visible, no error.
    @Test func singularTransformDrawsNothingAndTheRestRenders() throws {
        let (root, _) = scene { v in
            v.transform = CATransform3DMakeScale(0, 0, 1)
            v.masksToBounds = true   // the clip needs the inverse, which does not exist
            let child = CALayer()
            child.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            child.backgroundColor = solid(0, 1, 0)
            v.addSublayer(child)
        }
        let img = try render(root).0
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == Self.white)
    }

    @Test func zeroAndNegativeLayerSizesDrawNothingOrTheirStandardizedRect() throws {
        let (root, _) = scene { $0.bounds = .zero }
        let img = try render(root).0
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == Self.white)
        // A negative size is a rectangle extending the other way (CGRect's standardized form),
        // as Core Graphics reads every rect.
        let (root2, _) = scene { $0.bounds = CGRect(x: 0, y: 0, width: -20, height: -20) }
        let img2 = try render(root2).0
        expectGoodLayerAndBackground(img2)
        #expect(img2.rgba(45, 20) == Self.blue)
        #expect(img2.rgba(36, 11) == Self.blue)
        #expect(img2.rgba(33, 20) == Self.white)
    }

    /// Finite values the model accepts but the GPU's 32-bit floats cannot hold (beyond
    /// ±3.4e38) skip the layer with a warning, as non-finite ones do; a huge border width is
    /// clamped (a border wider than half the layer covers it); a huge radius clamps to half the
    /// shorter side (docs/BEHAVIOUR.md N5b corner rule). Nothing poisons the rest of the frame.
    @Test func hugeFiniteGeometryIsClampedOrSkippedNeverPoisonsTheFrame() throws {
        let (root, _) = scene { v in
            v.borderWidth = 1e300
            v.borderColor = solid(0, 1, 0)
            v.cornerRadius = 1e300
        }
        let img = try render(root).0
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == RGBA(0, 255, 0))
        #expect(img.rgba(35, 10) == Self.white)   // the corner is cut by the clamped radius (10)

        for configure in [{ (v: CALayer) in v.bounds = CGRect(x: 0, y: 0, width: 1e300, height: 20) },
                          { (v: CALayer) in v.position = CGPoint(x: 1e300, y: 0) },
                          { (v: CALayer) in v.bounds = CGRect(x: -1e300, y: 0, width: 20, height: 20) },
                          { (v: CALayer) in v.anchorPointZ = 1e300; v.transform.m34 = -1 / 500 }] {
            let (root2, _) = scene(configure)
            let (img2, warnings) = try render(root2)
            expectGoodLayerAndBackground(img2)
            #expect(img2.rgba(45, 20) == Self.white)
            #expect(warnings.contains { $0.contains("beyond 32-bit float range") }, "\(warnings)")
        }
    }

    /// CALayer.opacity: "Values outside that range are clamped to the minimum or maximum."
    @Test(arguments: [Float(5), .infinity, -3, -Float.infinity])
    func opacityOutsideZeroToOneIsClamped(opacity: Float) throws {
        let (root, _) = scene { $0.opacity = opacity }
        let img = try render(root).0
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == (opacity > 0 ? Self.blue : Self.white))
    }

    // MARK: Frame protocol

    @Test func renderOutsideBeginEndFrameThrowsAndMakeImageDoesNotHandBackAFrame() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: .init(backend: .openGL))
        r.layer = scene { _ in }.root
        let e = #expect(throws: CARendererError.self) { try r.renderChecked() }
        #expect(e?.description.contains("outside beginFrame/endFrame") == true)
        r.render()   // Apple-shaped: logs, does not throw
        #expect(throws: CARendererError.self) { _ = try r.makeImage() }
        // After endFrame too.
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        #expect(throws: Never.self) { _ = try r.makeImage() }
        #expect(throws: CARendererError.self) { try r.renderChecked() }
        #expect(throws: CARendererError.self) { _ = try r.makeImage() }
    }

    @Test func makeImageBeforeAnyRenderThrows() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: .init(backend: .openGL))
        let e = #expect(throws: CARendererError.self) { _ = try r.makeImage() }
        #expect(e?.description.contains("before a frame was rendered") == true)
        r.beginFrame(atTime: 0)   // begun but not rendered: still nothing to read
        #expect(throws: CARendererError.self) { _ = try r.makeImage() }
    }

    @Test func nonFiniteFrameTimeSkipsTheFrameWithAWarning() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: .init(backend: .openGL))
        let (_, warnings) = RenderDiagnostics.capture { r.beginFrame(atTime: .nan) }
        #expect(warnings.contains { $0.contains("non-finite time") }, "\(warnings)")
        #expect(throws: CARendererError.self) { try r.renderChecked() }
    }

    // MARK: Images

    @Test func corruptPNGGivesNoImageAndTheLayerShowsItsBackground() throws {
        let red = try #require(CGImage(width: 4, height: 4, rgba8Bytes: [UInt8](repeating: 255, count: 64), premultiplied: true))
        let png = try #require(red.pngData())
        #expect(CGImage(pngData: png.prefix(png.count / 2)) == nil)                 // truncated
        var flipped = png; flipped[20] ^= 0xFF                                    // bad IHDR CRC
        #expect(CGImage(pngData: flipped) == nil)
        #expect(CGImage(pngData: Data("not a png at all".utf8)) == nil)
        #expect(CGImage(pngData: Data()) == nil)
        let (root, _) = scene { $0.contents = CGImage(pngData: png.prefix(png.count / 2)) }
        let img = try render(root).0
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == Self.blue)
    }

    /// llvmpipe's real GL_MAX_TEXTURE_SIZE is 16384: a 20000×20 image does not fit and is
    /// downscaled with a warning (the downscale's quality is tested elsewhere; here: it renders).
    @Test func imageWiderThanMaxTextureSizeRendersWithAWarning() throws {
        var bytes = [UInt8](repeating: 0, count: 20_000 * 20 * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) { bytes[i + 1] = 255; bytes[i + 3] = 255 }
        let wide = try #require(CGImage(width: 20_000, height: 20, rgba8Bytes: bytes, premultiplied: true))
        let (root, _) = scene { $0.contents = wide }
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        r.beginFrame(atTime: 0)
        let (_, warnings) = try RenderDiagnostics.capture { try r.renderChecked() }
        r.endFrame()
        let img = try r.makeImage()
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == RGBA(0, 255, 0))
        if r.contextInfo["renderer"]?.contains("llvmpipe") == true {   // GL_MAX_TEXTURE_SIZE 16384
            #expect(warnings.contains { $0.contains("image 20000×20 exceeds the texture size limit 16384") }, "\(warnings)")
        }
    }

    // MARK: Deep and wide trees

    /// 100,000 nested layers: built from the leaf up, committed, rendered (the builder stops at
    /// `RenderTreeBuilder.maxDepth` with a warning; the top levels still draw) and released
    /// (CALayer tears a chain down iteratively; recursion used to overflow the stack).
    @Test func hundredThousandDeepChainRendersTheTopLevelsAndIsReleased() throws {
        weak var leaf: CALayer?
        do {
            var top = CALayer()
            top.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
            top.backgroundColor = solid(0, 1, 0)
            leaf = top
            for _ in 1..<100_000 {
                let parent = CALayer()
                parent.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
                parent.addSublayer(top)
                top = parent
            }
            top.frame = CGRect(x: 35, y: 10, width: 20, height: 20)
            top.backgroundColor = solid(0, 0, 1)
            let (root, _) = scene { _ in }
            root.addSublayer(top)
            let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), options: .init(backend: .openGL))
            r.clearColor = solid(1, 1, 1)
            r.layer = root
            let (img, warnings) = try RenderDiagnostics.capture { try RenderHarness.frame(r, at: 0) }
            expectGoodLayerAndBackground(img)
            #expect(img.rgba(45, 20) == Self.blue)
            #expect(img.rgba(35, 10) == Self.blue)   // the leaf (green, at depth 100,000) is not drawn
            #expect(warnings.contains { $0.contains("deeper than \(RenderTreeBuilder.maxDepth) levels") }, "\(warnings)")
            // The walk stops at the depth limit: the work is bounded by it, not by the chain.
            #expect(r.statistics.layersVisited <= RenderTreeBuilder.maxDepth + 8, "\(r.statistics.layersVisited) layers visited")
            #expect(leaf != nil)
            CATransaction.flush()   // the implicit transaction holds the layers it saw change
        }
        #expect(leaf == nil)
    }

    /// Every level of a deep chain isolated (clip with rounded corners, group opacity, a blurred
    /// shadow): the offscreen targets and clips nest only down to `maxDepth`, and the frame
    /// renders. 1,000 levels prove the cap as well as 100,000 would, at a fraction of the time.
    @Test func deepChainOfIsolatedLayersStopsAtMaxDepth() throws {
        var top = CALayer()
        for _ in 1..<1_000 {
            let parent = CALayer()
            parent.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            parent.masksToBounds = true
            parent.cornerRadius = 3
            parent.opacity = 0.999
            parent.shadowOpacity = 0.5
            parent.shadowRadius = 1
            parent.backgroundColor = solid(0, 0, 1)
            top.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            parent.addSublayer(top)
            top = parent
        }
        top.frame = CGRect(x: 35, y: 10, width: 20, height: 20)
        let (root, _) = scene { _ in }
        root.addSublayer(top)
        let (img, warnings) = try render(root)
        expectGoodLayerAndBackground(img)
        // Each level covers its parent exactly, so its shadow hides under it: pure blue.
        #expect(img.rgba(45, 20) == Self.blue)
        #expect(warnings.contains { $0.contains("deeper than \(RenderTreeBuilder.maxDepth) levels") }, "\(warnings)")
    }

    /// One parent with 100,000 sibling layers builds and renders (under 3 s in a debug build on
    /// 2 cores). 1,000,000 work too but take 7–9 s to build the render tree in debug (plus about
    /// 13 s to make the layers), too slow for a unit test; `wideTreeBuildScalesLinearly` checks
    /// the growth rate instead.
    @Test func hundredThousandSiblingsRender() throws {
        let n = 100_000
        let (root, victim) = scene { _ in }
        var kids: [CALayer] = []
        kids.reserveCapacity(n)
        for i in 0..<n {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(i % 20), y: CGFloat((i / 20) % 20), width: 1, height: 1)
            l.backgroundColor = solid(0, 1, 0)
            kids.append(l)
        }
        victim.sublayers = kids
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        let img = try r.makeImage()
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(40, 15) == RGBA(0, 255, 0))
        #expect(img.rgba(45, 35) == Self.white)   // below the 20×20 block: nothing
        // Each layer is visited once (the root, the scene's layers and the n siblings), and the
        // siblings make n box instances: work proportional to the tree. The build time is
        // information only (the O(n²) build took about 44 s at this size).
        #expect(r.statistics.layersVisited >= n && r.statistics.layersVisited <= n + 8, "\(r.statistics.layersVisited) layers visited")
        #expect(r.statistics.instances <= n + 8, "\(r.statistics.instances) instances")
        print("100,000 siblings: render tree built in \(String(format: "%.2f", r.statistics.buildSeconds)) s")
    }

    /// Siblings alternating between two pipelines (a background, then contents) make one batch
    /// each. Appending a batch used to copy the pass's whole batch list (copy-on-write with two
    /// owners): O(n²), 28 s to build 80,000 layers. The build's work is checked by what it
    /// produced (one instance and one batch per sibling, at 10,000 and at 40,000 layers); the
    /// times are printed as information, never asserted, so a busy machine cannot fail it.
    @Test func wideTreeBuildScalesLinearly() throws {
        let image = try #require(CGImage(width: 1, height: 1, rgba8Bytes: [0, 0, 255, 255], premultiplied: true))
        func build(_ n: Int) throws -> Double {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
            var kids: [CALayer] = []
            kids.reserveCapacity(n)
            for i in 0..<n {
                let l = CALayer()
                l.frame = CGRect(x: CGFloat(i % 20), y: 0, width: 1, height: 1)
                if i % 2 == 1 { l.contents = image } else { l.backgroundColor = solid(0, 1, 0) }
                kids.append(l)
            }
            root.sublayers = kids
            CATransaction.flush()
            let builder = RenderTreeBuilder()
            let start = Date()
            let (frame, stats) = builder.build(root: root, width: 60, height: 40, scale: 1)
            let seconds = Date().timeIntervalSince(start)
            #expect(frame.boxes.count + frame.images.count == n)
            var batches = 0
            for p in frame.passes { if case .draw(let b) = p.kind { batches += b.count } }
            #expect(frame.passes.count == 1 && batches == n, "\(frame.passes.count) passes, \(batches) batches for \(n) layers")
            #expect(stats.layersVisited <= n + 1, "\(stats.layersVisited) layers visited")
            return seconds
        }
        let small = try build(10_000), large = try build(40_000)
        print(String(format: "wide tree build: 10,000 layers %.3f s, 40,000 layers %.3f s (information only)", small, large))
    }

    // MARK: GL errors and lost contexts

    /// A GL error during a frame fails it: `renderChecked()` throws `.backend` naming the
    /// error, and `makeImage()` throws instead of returning a stale or black frame. The error
    /// is injected before the frame's passes, whose debug `glCheck`s would otherwise consume it.
    @Test func glErrorFailsTheFrameAndMakeImageThrows() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = scene { _ in }.root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        _ = try r.makeImage()

        r.injectGLErrorForTesting()
        r.beginFrame(atTime: 1)
        let e = #expect(throws: CARendererError.self) { try r.renderChecked() }
        guard case .backend(let text)? = e else { Issue.record("expected .backend, got \(String(describing: e))"); return }
        #expect(text.contains("GL_INVALID_ENUM"), "\(text)")
        r.endFrame()
        #expect(throws: CARendererError.self) { _ = try r.makeImage() }

        // The Apple-shaped render() logs instead, and makeImage() still refuses.
        r.injectGLErrorForTesting()
        r.beginFrame(atTime: 2)
        r.render()
        r.endFrame()
        #expect(throws: CARendererError.self) { _ = try r.makeImage() }

        // The next clean frame renders again.
        r.beginFrame(atTime: 3)
        try r.renderChecked()
        r.endFrame()
        expectGoodLayerAndBackground(try r.makeImage())
    }

    /// A lost context cannot be provoked on llvmpipe; a destroyed one fails the same way
    /// (eglMakeCurrent refuses it), so that is what this drives.
    @Test func destroyedContextGivesAClearErrorNotACrash() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), options: .init(backend: .openGL))
        r.layer = scene { _ in }.root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        r.destroyContextForTesting()
        r.beginFrame(atTime: 1)
        let e = #expect(throws: CARendererError.self) { try r.renderChecked() }
        guard case .noContext(let text)? = e else { Issue.record("expected .noContext, got \(String(describing: e))"); return }
        #expect(text.contains("eglMakeCurrent failed"), "\(text)")
        r.endFrame()
        #expect(throws: CARendererError.self) { _ = try r.makeImage() }
    }

    // MARK: EGL platforms

    @Test func bogusPlatformNameNamesTheAcceptedOnes() throws {
        let e = #expect(throws: CARendererError.self) { _ = try CARenderer.Options(environment: ["CA_EGL_PLATFORM": "bogus"]) }
        #expect(e?.description.contains("device, surfaceless, pbuffer") == true)
        #expect(try CARenderer.Options(environment: [:]).eglPlatforms == [.device, .surfaceless, .pbuffer])
        #expect(try CARenderer.Options(environment: ["CA_EGL_PLATFORM": ""]).eglPlatforms == [.device, .surfaceless, .pbuffer])
        #expect(try CARenderer.Options(environment: ["CA_EGL_PLATFORM": "pbuffer"]).eglPlatforms == [.pbuffer])
    }

    /// Tools map their environment onto options; the library itself reads none.
    @Test func environmentMapsOntoOptions() throws {
        let all = try CARenderer.Options(environment: ["CA_DEPTH_PREPASS": "0", "CA_IMAGE_ATLAS": "0",
                                                       "CA_SUBTREE_PATCH": "0", "CA_GL_CHECK": "1", "CA_GLYPH_ATLAS": "0"])
        #expect(!all.usesDepthPrepass && !all.usesImageAtlas && !all.patchesSubtrees && all.checksGLErrors && !all.usesGlyphAtlas)
        #expect(try CARenderer.Options(environment: [:]) == CARenderer.Options())
        let d = CARenderer.Options()
        #expect(d.usesDepthPrepass && d.usesImageAtlas && d.patchesSubtrees && !d.checksGLErrors && d.usesGlyphAtlas)
        #expect(d.backend == .automatic)
    }

    @Test func noPlatformToTryNamesTheInstallCommand() {
        let e = #expect(throws: SurfaceError.self) { _ = try EGLHeadlessContext(platforms: []) }
        #expect(e?.description.contains("apt-get install") == true, "\(String(describing: e))")
    }

    /// No driver gives OpenGL 9.9: every platform fails, each failure is named, and the
    /// message says what to install — the path a machine without a suitable driver takes.
    @Test func noSuitableContextOnAnyPlatformNamesEachFailureAndTheInstallCommand() {
        let e = #expect(throws: SurfaceError.self) {
            _ = try EGLHeadlessContext(platforms: EGLPlatformChoice.allCases, debug: false, glVersion: (9, 9))
        }
        let text = e?.description ?? ""
        for p in EGLPlatformChoice.allCases { #expect(text.contains("\(p.rawValue):"), "\(text)") }
        #expect(text.contains("9.9"))
        #expect(text.contains("apt-get install -y libegl1 libegl-mesa0 libgl1-mesa-dri"), "\(text)")
    }

    /// Each platform of the fallback chain renders when forced. On Mesa (llvmpipe here, and
    /// any machine with Mesa's EGL) all three must work; elsewhere (a vendor driver) a platform
    /// may be missing, but then it must say why.
    @Test(arguments: CARenderer.Options.EGLPlatform.allCases)
    func eachPlatformRendersWhenForced(platform: CARenderer.Options.EGLPlatform) throws {
        let isMesa = try CARenderer(offscreenSize: CGSize(width: 1, height: 1), options: .init(backend: .openGL)).contextInfo["eglVendor"]?.contains("Mesa") == true
        let r: CARenderer
        do {
            var options = CARenderer.Options(backend: .openGL)
            options.eglPlatforms = [platform]
            r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), scale: 1, options: options)
        } catch let e as CARendererError {
            #expect(!isMesa, "Mesa offers every platform, but \(platform) failed: \(e)")
            #expect(e.description.contains("\(platform.rawValue):"))
            return
        }
        #expect(r.contextInfo["platform"] == platform.rawValue)
        r.clearColor = solid(1, 1, 1)
        r.layer = scene { _ in }.root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        let img = try r.makeImage()
        expectGoodLayerAndBackground(img)
        #expect(img.rgba(45, 20) == Self.blue)
    }
}

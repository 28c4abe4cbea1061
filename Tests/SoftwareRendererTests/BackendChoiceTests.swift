import Testing
import Foundation

/// `CARenderer.Options.backend` (issue 22; an extension beyond Apple's API).
@Suite struct BackendChoiceTests {
    static func layerTree() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 10, width: 10, height: 10)
        child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(child)
        return root
    }

    @Test(".software draws without OpenGL, on a machine that has it")
    func softwareRenders() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .software
        let r = try CARenderer(offscreenSize: CGSize(width: 40, height: 30), options: o)
        #expect(r.activeBackend.backend == .software)
        #expect(r.contextInfo["backend"] == "software")
        r.layer = Self.layerTree()
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        let img = try r.makeImage()
        let inside = img.pixel(x: 15, y: 15), outside = img.pixel(x: 2, y: 2)
        #expect([inside.r, inside.g, inside.b, inside.a] == [255, 0, 0, 255])
        #expect([outside.r, outside.g, outside.b, outside.a] == [0, 0, 255, 255])
        #expect(r.statistics.drawCalls > 0)
    }

    @Test("a frame with Core Image filters draws on the CPU backend, blurred (no longer refused)")
    func filtersDrawOnTheCPUBackend() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .software
        let r = try CARenderer(offscreenSize: CGSize(width: 40, height: 30), options: o)
        let root = Self.layerTree()
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        blur.setValue(2, forKey: kCIInputRadiusKey)
        root.sublayers?.first?.filters = [blur]
        r.layer = root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        let img = try r.makeImage()
        // The red square (x 10…20) over blue: blurred, its edge pixel mixes red and blue; its
        // centre stays red, far outside stays blue.
        let edge = img.pixel(x: 10, y: 15), centre = img.pixel(x: 15, y: 15), outside = img.pixel(x: 2, y: 2)
        #expect(edge.r > 40 && edge.r < 215 && edge.b > 40 && edge.b < 215, "\(edge)")
        #expect(centre.r > 240 && centre.b < 15, "\(centre)")
        #expect([outside.r, outside.g, outside.b, outside.a] == [0, 0, 255, 255])
    }

    @Test("the default renderer chooses automatically: the CPU backend on a software GL driver, OpenGL on a GPU")
    func defaultIsAutomatic() throws {
        #expect(CARenderer.Options().backend == .automatic)
        let r = try CARenderer(offscreenSize: CGSize(width: 8, height: 8))
        let probe = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: .init(backend: .openGL))
        let name = (probe.contextInfo["GL_RENDERER"] ?? probe.contextInfo["renderer"] ?? "").lowercased()
        let software = ["llvmpipe", "softpipe", "swrast"].contains { name.contains($0) }
        // (A debug build keeps GL on a software driver: its CPU backend is unoptimised.)
        let cpu = software && CARenderer.Options().cpuBackendIsOptimised
        #expect(r.activeBackend.backend == (cpu ? .software : .openGL), "\(name): \(r.activeBackend.reason)")
        #expect(r.activeBackend.reason.hasPrefix("automatic"), "\(r.activeBackend.reason)")
    }

    @Test(".automatic in an unoptimised build keeps OpenGL on a software driver, and says why")
    func automaticInADebugBuild() throws {
        var o = CARenderer.Options(backend: .automatic)
        o.cpuBackendIsOptimised = false
        let r = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: o)
        #expect(r.activeBackend.backend == .openGL)
        let name = (r.contextInfo["renderer"] ?? "").lowercased()
        if ["llvmpipe", "softpipe", "swrast"].contains(where: { name.contains($0) }) {
            #expect(r.activeBackend.reason.contains("unoptimised"), "\(r.activeBackend.reason)")
        }
    }

    @Test("Options(backend:) sets the backend and keeps every other default")
    func optionsWithBackend() {
        var expected = CARenderer.Options()
        expected.backend = .software
        #expect(CARenderer.Options(backend: .software) == expected)
    }

    @Test(".automatic picks the CPU backend on a software GL driver and says why")
    func automaticOnSoftwareGL() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .automatic
        o.cpuBackendIsOptimised = true   // the optimised build's choice, in any build
        let r = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: o)
        var gl = CARenderer.Options(backend: .openGL)
        gl.backend = .openGL
        let probe = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: gl)
        let name = (probe.contextInfo["GL_RENDERER"] ?? probe.contextInfo["renderer"] ?? "").lowercased()
        let software = ["llvmpipe", "softpipe", "swrast"].contains { name.contains($0) }
        #expect(r.activeBackend.backend == (software ? .software : .openGL), "\(name): \(r.activeBackend.reason)")
        #expect(r.activeBackend.reason.hasPrefix("automatic"))
    }

    @Test("an automatic renderer whose GL context is lost draws on with the CPU backend, warning once")
    func lostContextFallsBack() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .automatic
        o.softwareGLDrivers = []   // automatic resolves to GL here, even on llvmpipe
        let r = try CARenderer(offscreenSize: CGSize(width: 40, height: 30), options: o)
        #expect(r.activeBackend.backend == .openGL)
        r.layer = Self.layerTree()
        r.destroyContextForTesting()
        let (img, warnings) = try RenderDiagnostics.capture { () throws -> CGImage in
            r.beginFrame(atTime: 0)
            try r.renderChecked()
            r.endFrame()
            return try r.makeImage()
        }
        #expect(r.activeBackend.backend == .software)
        #expect(warnings.filter { $0.contains("CPU backend") }.count == 1, "\(warnings)")
        let p = img.pixel(x: 15, y: 15)
        #expect([p.r, p.g, p.b, p.a] == [255, 0, 0, 255])
    }

    @Test("after the switch to the CPU backend, shapes rasterised for GL before the loss are drawn again")
    func shapesSurviveTheFallback() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .automatic
        o.softwareGLDrivers = []
        let r = try CARenderer(offscreenSize: CGSize(width: 40, height: 30), options: o)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        shape.path = CGPath(rect: CGRect(x: 5, y: 5, width: 20, height: 12), transform: nil)
        shape.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        root.addSublayer(shape)
        r.layer = root
        func frame() throws -> CGImage {
            r.beginFrame(atTime: 0)
            try r.renderChecked()
            r.endFrame()
            return try r.makeImage()
        }
        let before = try frame()
        #expect(r.activeBackend.backend == .openGL)
        r.destroyContextForTesting()
        // A commit, so the frame is drawn, not reused.
        CATransaction.begin(); CATransaction.setDisableActions(true)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 0.98, alpha: 1)
        CATransaction.commit()
        let (after, _) = try RenderDiagnostics.capture { try frame() }
        #expect(r.activeBackend.backend == .software)
        // The shape's inside (the path in layer space; the layer is not flipped: y down on iOS).
        for img in [before, after] {
            let p = img.pixel(x: 15, y: 10)
            #expect([p.r, p.g, p.b, p.a] == [0, 0, 255, 255], "\(p)")
        }
    }

    @Test("an OpenGL renderer whose context is lost still fails its frame (no silent switch)")
    func lostContextOnGLThrows() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 8, height: 8), options: .init(backend: .openGL))
        r.layer = Self.layerTree()
        r.destroyContextForTesting()
        r.beginFrame(atTime: 0)
        #expect(throws: CARendererError.self) { try r.renderChecked() }
        r.endFrame()
    }

    @Test("backend names: gl, cpu, auto; anything else is an error")
    func names() throws {
        #expect(try CARenderer.Backend(name: "gl") == .openGL)
        #expect(try CARenderer.Backend(name: "cpu") == .software)
        #expect(try CARenderer.Backend(name: "auto") == .automatic)
        #expect(throws: CARendererError.self) { try CARenderer.Backend(name: "vulkan") }
        #expect(try CARenderer.Options(environment: ["CA_BACKEND": "cpu"]).backend == .software)
    }
}

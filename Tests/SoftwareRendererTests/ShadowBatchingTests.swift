import Testing
import Foundation
import CATestSupport

/// Issue 22 part 2: "Soft shadows of rounded rects as one instanced draw … 100 shadowed layers:
/// ≤ 4 draw calls." A layer's implied shadow is an analytically blurred box instance
/// (docs/BEHAVIOUR.md N1); its background is a plain box. Down a list of shadowed layers the two
/// alternate, and they used to be separate batches (shader variants with and without `.blur`):
/// 100 layers made 201 draws. Now they share one batch under the union variant and box.frag
/// takes its blur branch per instance. The pixels must not change: the plain boxes in such a
/// batch draw exactly as in a batch of their own, and the CPU backend reads the same batches.
@Suite struct ShadowBatchingTests {
    static let size = CGSize(width: 320, height: 240)

    /// `count` rounded layers with soft shadows, as `StressScenes.shadows` at a smaller size.
    static func shadowed(count: Int, shadows: Bool = true) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(gray: 0.95, alpha: 1)
        for i in 0..<count {
            let l = CALayer()
            l.frame = CGRect(x: 10 + Double((i * 37) % 250), y: 10 + Double((i * 53) % 180), width: 40 + Double(i % 5) * 6,
                             height: 30 + Double(i % 3) * 8)
            l.backgroundColor = CGColor(red: Double(i % 7) / 7, green: Double(i % 11) / 11, blue: Double(i % 13) / 13, alpha: 1)
            l.cornerRadius = 6
            if shadows {
                l.shadowOpacity = 0.5
                l.shadowRadius = 4 + Double(i % 4)
                l.shadowOffset = CGSize(width: 0, height: 3)
            }
            root.addSublayer(l)
        }
        return root
    }

    static func render(_ root: CALayer, _ backend: CARenderer.Backend) throws -> (CGImage, RenderStats) {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = backend
        let r = try CARenderer(offscreenSize: size, options: o)
        r.layer = root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        return (try r.makeImage(), r.statistics)
    }

    @Test("100 shadowed rounded layers are at most 4 draw calls on the GL backend (issue 22)")
    func hundredShadowsAreFewDraws() throws {
        let (_, stats) = try Self.render(Self.shadowed(count: 100), .openGL)
        #expect(stats.drawCalls <= 4, "\(stats)")
        #expect(stats.offscreenPasses == 0, "no offscreen pass for an implied shadow: \(stats)")
    }

    @Test("a plain box batched with shadows draws exactly as without them")
    func plainBoxesInAShadowBatchAreUnchanged() throws {
        // Layer 0 casts a shadow (blur variant) and lies apart from layer 1, a plain rounded
        // box that follows it in the same batch. Layer 1's pixels, edges included, must equal
        // those of a frame where layer 0 casts nothing (layer 1 then in a plain batch).
        func scene(_ shadow: Bool) -> CALayer {
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: Self.size)
            let a = CALayer()
            a.frame = CGRect(x: 10, y: 10, width: 60, height: 40)
            a.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            a.cornerRadius = 8
            if shadow { a.shadowOpacity = 1; a.shadowRadius = 3; a.shadowOffset = CGSize(width: 0, height: 6) }
            let b = CALayer()
            b.frame = CGRect(x: 150.25, y: 100.5, width: 80.5, height: 50.25)
            b.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.75)
            b.cornerRadius = 12
            root.addSublayer(a)
            root.addSublayer(b)
            return root
        }
        for backend in [CARenderer.Backend.openGL, .software] {
            let (with, withStats) = try Self.render(scene(true), backend)
            let (without, _) = try Self.render(scene(false), backend)
            // One batch for the shadow and both boxes (plus, on GL, the depth pre-pass's draw of
            // the opaque blue interior).
            if backend == .openGL { #expect(withStats.batches == 1 && withStats.drawCalls <= 2, "\(withStats)") }
            let w = with.rgba8Bytes, wo = without.rgba8Bytes
            func px(_ b: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(b[(y * with.width + x) * 4..<(y * with.width + x) * 4 + 4]) }
            var differing = 0
            for y in 95..<160 {
                for x in 145..<240 where px(w, x, y) != px(wo, x, y) { differing += 1 }
            }
            #expect(differing == 0, "\(backend): \(differing) pixels of the plain box changed")
            // The interior is the premultiplied fill: (1, 0.5, 0)·0.75 → 191, 96, 0, 191 (±1 for
            // the backends' rounding of 95.6).
            let inside = px(w, 190, 125).map(Int.init)
            #expect(inside[0] == 191 && abs(inside[1] - 96) <= 1 && inside[2] == 0 && inside[3] == 191, "\(backend): \(inside)")
            // The shadow itself is drawn just below the blue layer (whose bottom edge is y = 50),
            // where the frame without it is empty.
            #expect(px(w, 40, 51)[3] > 0 && px(wo, 40, 52) == [0, 0, 0, 0], "\(backend): \(px(w, 40, 51))")
        }
    }

    @Test("the shadowed layers match on the CPU and GL backends")
    func parity() throws {
        let (gl, _) = try Self.render(Self.shadowed(count: 100), .openGL)
        let (cpu, _) = try Self.render(Self.shadowed(count: 100), .software)
        let p = BackendParity(gl.rgba8Bytes, cpu.rgba8Bytes, width: gl.width)
        #expect(p.passes(), "\(p)")
    }
}


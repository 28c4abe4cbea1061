import Testing
import Foundation

/// Subtree records serve the next frame's patch (`RenderTreeBuilder+Subtrees.swift`); where
/// frames do not patch (here: an emitter's particles change with time alone), the renderer stops
/// making them after two builds whose records went unused and makes them again every eighth
/// build, so a scene that can patch once more gets its patches back (`CARenderer.renderFrame`).
@Suite struct SubtreeRecordSkippingTests {
    let size = CGSize(width: 120, height: 90)

    func star(_ frame: CGRect) -> CAShapeLayer {
        let s = CAShapeLayer()
        s.frame = frame
        let p = CGMutablePath()
        for i in 0..<10 {
            let a = Double(i) * .pi / 5, r = i % 2 == 0 ? 18.0 : 8.0
            let pt = CGPoint(x: 20 + r * sin(a), y: 20 - r * cos(a))
            if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        s.path = p
        s.fillColor = solid(1, 0.5, 0)
        s.strokeColor = solid(0, 0, 0.8)
        s.lineWidth = 2
        return s
    }

    @Test("records are skipped while frames cannot patch, and made again once they can")
    func recordsSkippedWhileUnused() throws {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: 60, y: 45)
        let cell = CAEmitterCell()
        cell.birthRate = 20
        cell.lifetime = 1
        cell.velocity = 10
        cell.contents = try #require(CGImage(width: 2, height: 2, rgba8Bytes: [UInt8](repeating: 255, count: 16), premultiplied: true))
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
        let shape = star(CGRect(x: 10, y: 10, width: 40, height: 40))
        root.addSublayer(shape)
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 30, y: 30)
        move.toValue = CGPoint(x: 90, y: 60)
        move.duration = 10
        shape.add(move, forKey: "move")
        CATransaction.flush()

        let r = try CARenderer(offscreenSize: size, options: CARenderer.Options(backend: .software))
        r.layer = root
        var t = 0.0
        func frame() throws -> RenderStats {
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
            t += 0.1
            return r.statistics
        }
        var recorded: [Bool] = []
        for _ in 0..<4 {
            #expect(try frame().patchedSubtrees == 0, "an emitter's frame is built whole")
            recorded.append(r.lastBuildMadeSubtreeRecords)
        }
        #expect(recorded == [true, true, false, false], "\(recorded)")

        CATransaction.begin()
        CATransaction.setDisableActions(true)
        emitter.removeFromSuperlayer()
        CATransaction.commit()
        var patched: [Bool] = []
        for _ in 0..<12 { patched.append(try frame().patchedSubtrees > 0) }
        // Built whole until the eighth build without records records again; patched after it.
        #expect(patched.contains(true), "\(patched)")
        #expect(patched.suffix(2) == [true, true], "\(patched)")
        // The patched frame is the picture a fresh renderer draws at that time.
        let mine = try r.makeImage()
        let other = try CARenderer(offscreenSize: size, options: CARenderer.Options(backend: .software))
        other.layer = root
        other.beginFrame(atTime: t - 0.1)
        try other.renderChecked()
        other.endFrame()
        let fresh = try other.makeImage()
        var differing = 0
        for y in 0..<mine.height { for x in 0..<mine.width where mine.rgba(x, y) != fresh.rgba(x, y) { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ from a fresh renderer's")
    }
}

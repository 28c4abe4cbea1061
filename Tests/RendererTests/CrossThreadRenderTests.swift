import Testing
import Foundation
import Synchronization

/// A tree rendered on one thread and changed on another (issue 17 item 3). Apple: Core
/// Animation's data model "promises not to corrupt the internal data structures when called from
/// multiple threads concurrently" (discussion of `CATransaction.lock()`), and a commit from any
/// thread reaches the screen.
@Suite struct CrossThreadRenderTests {
    @Test("a change committed on another thread is drawn by the next frame, not hidden by the reused last frame")
    func commitOnAnotherThreadReachesTheRenderer() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let box = CALayer()
        box.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        box.backgroundColor = solid(0, 0, 1)
        root.addSublayer(box)
        let r = try CARenderer(offscreenSize: CGSize(width: 40, height: 40), options: .init(backend: .openGL))
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        #expect(try r.makeImage().rgba(20, 20) == RGBA(0, 0, 255))
        // Another thread changes the colour and moves a new sublayer in, in its own transaction.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let (b, rt) = (box, root)
        let other = Thread {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            b.backgroundColor = solid(1, 0, 0)
            let corner = CALayer()
            corner.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
            corner.backgroundColor = solid(0, 1, 0)
            rt.addSublayer(corner)
            CATransaction.commit()
            done.signal()
        }
        other.start()
        done.wait()
        r.beginFrame(atTime: 1); try r.renderChecked(); r.endFrame()
        #expect(!r.statistics.reusedFrame)
        let image = try r.makeImage()
        #expect(image.rgba(20, 20) == RGBA(255, 0, 0))
        #expect(image.rgba(2, 2) == RGBA(0, 255, 0))
    }

    @Test("frames rendered on one thread while another adds, changes, animates and removes layers of the same tree")
    func renderWhileAnotherThreadChangesTheTree() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let fixed = CALayer()
        fixed.frame = CGRect(x: 40, y: 40, width: 20, height: 20)
        fixed.backgroundColor = solid(0, 0, 1)
        root.addSublayer(fixed)
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 64), options: .init(backend: .openGL))
        r.layer = root
        let stop = Atomic<Bool>(false)
        let changes = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let tree = root
        let other = Thread {
            var mine: [CALayer] = []
            var i = 0
            while !stop.load(ordering: .acquiring) {
                let l = CALayer()
                l.frame = CGRect(x: Double(i % 30), y: 2, width: 6, height: 6)
                l.backgroundColor = solid(1, 0, 0)
                if i % 4 == 0 {
                    let spin = CABasicAnimation(keyPath: "transform.rotation.z")
                    spin.toValue = Double.pi
                    spin.duration = 1
                    spin.repeatCount = .infinity
                    l.add(spin, forKey: "spin")
                }
                tree.addSublayer(l)
                mine.append(l)
                if mine.count > 12 { mine.removeFirst().removeFromSuperlayer() }
                mine.first?.opacity = Float(i % 10) / 10
                CATransaction.flush()
                i += 1
                changes.store(i, ordering: .relaxed)
            }
            for l in mine { l.removeFromSuperlayer() }
            CATransaction.flush()
            done.signal()
        }
        other.start()
        var frames = 0
        while frames < 60 || changes.load(ordering: .relaxed) < 60 {
            r.beginFrame(atTime: Double(frames) / 60); try r.renderChecked(); r.endFrame()
            frames += 1
            // The layer no thread touches is drawn in every frame.
            #expect(try r.makeImage().rgba(50, 50) == RGBA(0, 0, 255))
        }
        stop.store(true, ordering: .releasing)
        done.wait()
        // After the other thread removed its layers, the next frame shows only the fixed one.
        r.beginFrame(atTime: 10); try r.renderChecked(); r.endFrame()
        let image = try r.makeImage()
        #expect(root.sublayers?.count == 1)
        #expect(image.rgba(50, 50) == RGBA(0, 0, 255))
        #expect(image.rgba(5, 5) == RGBA(0, 0, 0, 0))
    }
}

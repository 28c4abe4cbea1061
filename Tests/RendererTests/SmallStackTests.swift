import Testing
import Foundation

/// Issue 17.9: the builder's walk recurses once per tree level, several kilobytes a level, so the
/// depth cap alone needs megabytes of stack. On a thread with a small stack a deep tree must not
/// crash: the walk stops where the stack runs short, draws what it reached and warns.
/// Carries a result from the thread back (written before the semaphore is signalled).
final class ResultBox<T>: @unchecked Sendable { var result: Result<T, Error>? }

@Suite struct SmallStackTests {
    /// Runs `body` on a new thread with a `stackSize`-byte stack and waits for it.
    static func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let t = Thread { box.result = Result { try body() }; done.signal() }
        t.stackSize = stackSize
        t.start()
        done.wait()
        return try box.result!.get()
    }

    /// A chain `depth` layers deep, each 1 point inside its parent, the innermost red.
    static func chain(depth: Int) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.backgroundColor = solid(1, 1, 1)
        var parent = root
        for _ in 0..<depth {
            let l = CALayer()
            l.frame = parent.bounds
            parent.addSublayer(l)
            parent = l
        }
        parent.backgroundColor = solid(1, 0, 0)
        return root
    }

    @Test("a 256-deep tree on a 512 KiB thread does not crash: it draws what fits and says why the rest is missing")
    func deepTreeOnASmallStack() throws {
        let (pixel, warnings) = try Self.onThread(stackSize: 512 * 1024) { () -> (RGBA, [String]) in
            let root = Self.chain(depth: 256)
            let (img, w) = try RenderDiagnostics.capture { try RenderHarness.render(root, size: root.bounds.size) }
            return (img.rgba(32, 32), w)
        }
        #expect(warnings.contains { $0.contains("does not fit this thread's stack") }, "\(warnings)")
        #expect(pixel == RGBA(255, 255, 255), "the layers that fitted drew (the white root); the deep red one did not")
    }

    @Test("the same tree on an 8 MiB thread draws to the depth cap without a stack warning")
    func deepTreeOnALargeStack() throws {
        let (pixel, warnings) = try Self.onThread(stackSize: 8 << 20) { () -> (RGBA, [String]) in
            let root = Self.chain(depth: 200)
            let (img, w) = try RenderDiagnostics.capture { try RenderHarness.render(root, size: root.bounds.size) }
            return (img.rgba(32, 32), w)
        }
        #expect(!warnings.contains { $0.contains("stack") }, "\(warnings)")
        #expect(pixel == RGBA(255, 0, 0))
    }
}

import Testing
import Foundation
import CATestSupport

/// Issue 17 (a server loop over SVG files grows): documents imported on a thread that never
/// commits (no run loop, no renderer) must not stay referenced by that thread's implicit
/// transaction. Counted through weak references, not memory readings.
@Suite struct SVGTransactionRetentionTests {
    final class WeakLayer: @unchecked Sendable { weak var layer: CALayer? }

    @Test func importedDocumentsAreFreedWithoutACommitOnTheThread() throws {
        // A thread of its own, so no other test's open transaction is involved.
        let alive = try SVGThread.run { () -> Int in
            var refs: [WeakLayer] = []
            for _ in 0..<50 {
                let doc = try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"4\" height=\"4\"/><circle r=\"2\"/></svg>")
                let w = WeakLayer()
                w.layer = doc.layer
                refs.append(w)
            }
            return refs.filter { $0.layer != nil }.count
        }
        #expect(alive == 0, "\(alive) of 50 imported trees are still referenced")
    }
}

/// Runs a body on a new thread and waits for its result.
enum SVGThread {
    final class Box<T>: @unchecked Sendable { var result: Result<T, Error>? }

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        let t = Thread { box.result = Result { try body() }; done.signal() }
        t.start()
        done.wait()
        return try box.result!.get()
    }
}

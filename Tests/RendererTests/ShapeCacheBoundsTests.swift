import Testing
import Foundation
@testable import CARender

/// The shape cache's bounding boxes (`ShapeCache.boundingBox(of:)`): kept per path, and for a
/// `CGMutablePath` only while it has not changed (`CGPath.generation`).
@Suite struct ShapeCacheBoundsTests {
    @Test("a mutable path's box is kept while the path is unchanged and measured again after it grows")
    func mutablePathRemeasured() {
        let cache = ShapeCache()
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(cache.boundingBox(of: p) == CGRect(x: 0, y: 0, width: 10, height: 10))
        let g = p.generation
        #expect(cache.boundingBox(of: p) == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(p.generation == g, "measuring does not change the path")
        p.addLine(to: CGPoint(x: 30, y: 40))
        #expect(p.generation != g)
        #expect(cache.boundingBox(of: p) == CGRect(x: 0, y: 0, width: 30, height: 40))
        p.closeSubpath()
        p.move(to: CGPoint(x: -5, y: 2))
        #expect(cache.boundingBox(of: p) == CGRect(x: -5, y: 0, width: 35, height: 40))
    }

    @Test("an immutable path's box is measured once and kept")
    func immutablePathKept() {
        let cache = ShapeCache()
        let p = CGPath(ellipseIn: CGRect(x: 2, y: 3, width: 4, height: 5), transform: nil)
        let box = cache.boundingBox(of: p)
        #expect(box == p.boundingBox)
        #expect(cache.boundingBox(of: p) == box)
    }
}

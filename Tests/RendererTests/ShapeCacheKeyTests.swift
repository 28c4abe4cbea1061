import Testing
import Foundation
@testable import CARender

/// `ShapeCache.Key`'s hash (a few fields, Doubles by their bits): keys that are equal hash
/// equally, −0 and +0 included (`==` equates them; a table with two equal keys under different
/// hashes would hold both, and trap on a resize), and a table finds each of many keys that
/// differ only in the fields the hash leaves out.
@Suite struct ShapeCacheKeyTests {
    static func key(map: SIMD4<Double> = SIMD4(1, 0, 0, 1), sub: SIMD2<Double> = .zero, width: Double = 2,
                    miter: Double = 10, trim: SIMD2<Double>? = nil, limit: SIMD4<Int>? = nil, path: CGPath) -> ShapeCache.Key {
        ShapeCache.Key(path: ObjectIdentifier(path), map: map, subTexel: sub, fill: false, evenOdd: false,
                       stroke: ShapeStrokeStyle(halfWidth: width, cap: .round, join: .miter, miterLimit: miter),
                       field: false, wideField: false, limit: limit, trim: trim)
    }

    @Test("equal keys hash equally, negative zeros included")
    func equalKeysHashEqually() {
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
        let a = Self.key(map: SIMD4(1, 0, -0.0, 1), sub: SIMD2(-0.0, 0.25), trim: SIMD2(-0.0, 0.5), path: p)
        let b = Self.key(map: SIMD4(1, 0, 0, 1), sub: SIMD2(0, 0.25), trim: SIMD2(0, 0.5), path: p)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var table: [ShapeCache.Key: Int] = [a: 1]
        table[b] = 2
        #expect(table.count == 1)
        #expect(table[a] == 2)
    }

    @Test("keys differing only where the hash does not look are all kept and found")
    func keysDifferingOutsideTheHash() {
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
        var table: [ShapeCache.Key: Int] = [:]
        // The miter limit is not hashed: 300 keys share a hash value.
        for i in 0..<300 { table[Self.key(miter: 1 + Double(i) / 10, path: p)] = i }
        #expect(table.count == 300)
        for i in 0..<300 { #expect(table[Self.key(miter: 1 + Double(i) / 10, path: p)] == i) }
        #expect(table[Self.key(miter: 0.5, path: p)] == nil)
    }
}

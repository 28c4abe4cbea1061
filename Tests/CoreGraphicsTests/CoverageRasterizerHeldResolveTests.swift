import Foundation
import Testing

/// `takeResolvedCoverage` on a rasteriser that holds vertical runs back (CCoverage.h
/// `ca_edge_sink`, `ca_held_cells`; `CGContext`'s coverage masks: clips and the general
/// painters): rows that hold only held runs are worked out once and copied down the rows that
/// share them. Their values and full runs must be exactly those of the same edges written to
/// every row: sides on and off pixel boundaries, partial first and last rows, shared and
/// cancelling cells, more sides than the room, rows other edges touch after the sides, shapes
/// partly off the grid, even-odd, and one rasteriser reused shape after shape (its `written`
/// bytes left clear each time).
@Suite struct CoverageRasterizerHeldResolveTests {
    struct Rng {
        var s: UInt32
        mutating func unit() -> Double { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return Double(s % 10_000) / 10_000 }
    }

    typealias Shape = [[SIMD2<Double>]]

    static let width = 71, height = 53

    /// A rect's four corners, clockwise or counter-clockwise.
    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, reversed: Bool = false) -> [SIMD2<Double>] {
        let p: [SIMD2<Double>] = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
        return reversed ? p.reversed() : p
    }

    /// A rounded rect with `n` chords a corner: vertical sides between the corners' rows.
    static func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, r: Double, n: Int = 6) -> [SIMD2<Double>] {
        let centres: [SIMD2<Double>] = [[x + w - r, y + r], [x + w - r, y + h - r], [x + r, y + h - r], [x + r, y + r]]
        var p: [SIMD2<Double>] = []
        for c in 0..<4 {
            for k in 0...n {
                let a = (Double(c) - 1 + Double(k) / Double(n)) * Double.pi / 2
                p.append(centres[c] + SIMD2(r * cos(a), r * sin(a)))
            }
        }
        return p
    }

    /// The resolved values and full runs of `shape` on `rast` (reset to the grid first).
    static func resolve(_ shape: Shape, evenOdd: Bool, holding: Bool, on rast: inout CoverageRasterizer) -> ([UInt32], [Int32]) {
        rast.holdsVerticalRunsAfterReset = holding
        rast.reset(width: width, height: height)
        let points = shape.flatMap { $0 }
        var ends: [Int] = []
        for polygon in shape { ends.append((ends.last ?? 0) + polygon.count) }
        rast.addPolygons(points, ends: ends[...], origin: .zero)
        var runs = [Int32](repeating: -7, count: 2 * height)
        let values = runs.withUnsafeMutableBufferPointer { rast.takeResolvedCoverage(evenOdd: evenOdd, fullRuns: $0.baseAddress!) }
        rast.holdsVerticalRunsAfterReset = false
        return (values.map(\.bitPattern), runs)
    }

    /// The shapes: random rects on a grid of 1, 1/4 px and anywhere; rounded rects; sides that
    /// share and cancel cells; more sides than the room; a slanted edge added after the sides.
    static func shapes() -> [(String, Shape)] {
        var out: [(String, Shape)] = []
        for grid in [1.0, 4, 0] {
            var rng = Rng(s: 31 + UInt32(grid))
            func snap(_ v: Double) -> Double { grid == 0 ? v : (v * grid).rounded() / grid }
            for k in 0..<12 {
                var shape: Shape = []
                for _ in 0..<(1 + k % 4) {
                    shape.append(rect(snap(80 * rng.unit() - 6), snap(60 * rng.unit() - 6), snap(0.3 + 30 * rng.unit()),
                                      snap(0.2 + (k % 5 == 0 ? 1.5 : 40) * rng.unit())))
                }
                out.append(("rects on grid \(grid) #\(k)", shape))
            }
        }
        out.append(("rounded rects", [roundedRect(3.3, 2.6, 30, 45, r: 8), roundedRect(40.5, -4, 27.25, 70, r: 5.5),
                                      roundedRect(8.3, 7.6, 20, 35, r: 3)]))
        out.append(("shared and cancelling sides", [rect(3.25, 2, 10, 30), rect(13.25, 5.5, 8, 20), rect(8.25, 10, 10, 12.75),
                                                    rect(30.5, 4, 14, 36), rect(30.5, 4, 14, 36, reversed: true),
                                                    [[0, 50], [70, 12], [70, 50]]]))
        out.append(("more sides than the room", (0..<60).map { k in
            rect(Double(k) * 1.13 + 0.1, Double(k % 7) * 3.3, 0.9, 20 + Double(k % 5) * 6)
        }))
        out.append(("off the grid", [rect(-10.5, -3.25, 30, 70), rect(60.75, 10, 30, 20.5), rect(20.5, 40.25, 10, 30)]))
        return out
    }

    @Test(arguments: [false, true])
    func heldRowsResolveAsWrittenRows(evenOdd: Bool) {
        // One rasteriser reused for every shape, holding; a fresh one writing every row.
        var reused = CoverageRasterizer(width: 0, height: 0)
        for (name, shape) in Self.shapes() {
            var fresh = CoverageRasterizer(width: 0, height: 0)
            let written = Self.resolve(shape, evenOdd: evenOdd, holding: false, on: &fresh)
            let held = Self.resolve(shape, evenOdd: evenOdd, holding: true, on: &reused)
            let differing = zip(held.0, written.0).filter { $0 != $1 }.count
            #expect(differing == 0, "\(name): \(differing) values differ")
            #expect(held.1 == written.1, "\(name): full runs differ")
            #expect(reused.acc.allSatisfy { $0 == 0 } && reused.touched.allSatisfy { $0 == 0 }, "\(name): cells left")
        }
    }

    /// The shapes above do hold rows back (else the comparison would test nothing): a rect's
    /// resolve on a holding rasteriser leaves its middle rows' cells unwritten until the resolve.
    @Test func aRectsSidesAreHeldBack() {
        var rast = CoverageRasterizer(width: 0, height: 0)
        rast.holdsVerticalRunsAfterReset = true
        rast.reset(width: Self.width, height: Self.height)
        rast.addPolygons(Self.rect(5.5, 3.25, 20, 30), ends: [4], origin: .zero)
        let row = 20 * rast.stride
        #expect(rast.acc[row..<row + rast.stride].allSatisfy { $0 == 0 })
        var runs = [Int32](repeating: 0, count: 2 * Self.height)
        let values = runs.withUnsafeMutableBufferPointer { rast.takeResolvedCoverage(evenOdd: false, fullRuns: $0.baseAddress!) }
        // Row 20: half of pixel 5, pixels 6 … 24 whole, half of pixel 25.
        #expect(values[20 * Self.width + 5] == 0.5 && values[20 * Self.width + 6] == 1 && values[20 * Self.width + 25] == 0.5)
        #expect(runs[40] == 6 && runs[41] == 25)
    }
}

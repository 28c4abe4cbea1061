import Testing
@testable import CASoftware

/// `SoftwareRowIndex`: a band's candidates hold every instance whose rows meet it, in paint
/// order, each once, and only instances that meet the band's stripes — whatever the band's rows
/// and however many stripes an instance spans.
@Suite struct SoftwareRowIndexTests {
    @Test("candidates hold the instances meeting the rows, ascending and unique, none from other stripes")
    func candidatesMatchTheScan() {
        var seed: UInt32 = 21
        func next(_ n: Int) -> Int { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return Int(seed % UInt32(n)) }
        let height = 1080, count = 3000
        // Mostly small instances, some tall ones, some empty or off the target.
        let rows: [Range<Int>] = (0..<count).map { k in
            let y0 = next(height + 200) - 100
            let h = k % 97 == 0 ? 0 : (k % 13 == 0 ? next(600) : 1 + next(20))
            return y0..<(y0 + h)
        }
        let index = SoftwareRowIndex(count: count, height: height) { rows[$0] }
        for band in [0..<32, 32..<64, 10..<11, 5..<200, 1000..<1080, 1079..<1080, 0..<1080, 300..<300] {
            let want = (0..<count).filter { rows[$0].overlaps(band) && rows[$0].overlaps(0..<height) }
            let got = Array(index.candidates(band))
            #expect(got.filter { rows[$0].overlaps(band) } == want, "\(band)")
            #expect(zip(got, got.dropFirst()).allSatisfy { $0 < $1 }, "\(band): not ascending and unique")
            let stripes = band.isEmpty ? 0..<0
                : (band.lowerBound / 32 * 32)..<min((band.upperBound + 31) / 32 * 32, height)
            #expect(got.allSatisfy { rows[$0].overlaps(stripes) }, "\(band): a candidate from another stripe")
        }
        // A small batch keeps no index: every instance is a candidate.
        let small = SoftwareRowIndex(count: 10, height: height) { rows[$0] }
        #expect(Array(small.candidates(0..<32)) == Array(0..<10))
    }
}

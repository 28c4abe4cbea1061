import Testing
import Foundation
@testable import CoreText

/// Tab stops (Core Text's kCTParagraphStyleSpecifierTabStops and DefaultTabInterval): a tab
/// moves the pen to the first stop beyond it, measured from the line's start; the default is
/// 12 left stops 28 pt apart. Noto Sans "a" advances 561 units (5.61 pt at 10 pt).
@Suite(.enabled(if: TestFonts.available, TestFonts.skipMessage))
struct CTTabStopTests {
    func style(tabs: [CTTextTab]?, interval: CGFloat? = nil) -> CTParagraphStyle {
        var array: CFArray = tabs ?? []
        var gap = interval ?? 0
        return withUnsafeBytes(of: &array) { a in
            withUnsafeBytes(of: &gap) { g in
                var settings: [CTParagraphStyleSetting] = []
                if tabs != nil { settings.append(CTParagraphStyleSetting(spec: .tabStops, valueSize: MemoryLayout<CFArray>.size, value: a.baseAddress!)) }
                if interval != nil { settings.append(CTParagraphStyleSetting(spec: .defaultTabInterval, valueSize: MemoryLayout<CGFloat>.size, value: g.baseAddress!)) }
                return CTParagraphStyleCreate(settings, settings.count)
            }
        }
    }

    /// The x of the glyph for the character at `index`.
    func x(of index: Int, _ line: CTLine) -> Double? {
        for r in runs(line) {
            var pos = [CGPoint](repeating: .zero, count: CTRunGetGlyphCount(r))
            CTRunGetPositions(r, CFRange(location: 0, length: 0), &pos)
            if let k = stringIndices(r).firstIndex(of: index) { return Double(pos[k].x) }
        }
        return nil
    }

    func line(_ s: String, _ style: CTParagraphStyle?) -> CTLine {
        let f = TestFonts.font("NotoSans-Regular", 10)
        var extra: [String: Any] = [:]
        if let style { extra[kCTParagraphStyleAttributeName] = style }
        return CTLineCreateWithAttributedString(attributed(s, f, extra))
    }

    @Test("Default stops every 28 pt: a tab after \"a\" moves \"b\" to 28; after 40 pt of text, to 56")
    func defaultStops() throws {
        #expect(try #require(x(of: 2, line("a\tb", nil))).isApprox(28))
        let eight = String(repeating: "a", count: 8)   // 44.88 pt
        #expect(try #require(x(of: 9, line(eight + "\tb", nil))).isApprox(56))
        // The line's width includes the jump.
        #expect(width(line("a\t", nil)).isApprox(28))
    }

    @Test("Explicit stops (CTTextTabCreate) and the default tab interval after them")
    func explicitStopsAndInterval() throws {
        let s = style(tabs: [CTTextTabCreate(.left, 100, nil), CTTextTabCreate(.natural, 50, nil)])
        #expect(try #require(x(of: 2, line("a\tb", s))).isApprox(50))
        #expect(try #require(x(of: 4, line("a\tb\tc", s))).isApprox(100))
        let interval = style(tabs: [], interval: 40)
        #expect(try #require(x(of: 9, line(String(repeating: "a", count: 8) + "\tb", interval))).isApprox(80))
        // No stop beyond the pen and no interval: the tab advances as a space (260 units).
        let none = style(tabs: [], interval: 0)
        #expect(try #require(x(of: 2, line("a\tb", none))).isApprox(5.61 + 2.60))
        // Read back.
        var tabsBack: CFArray = []
        // (`&tabsBack` would pass the array's elements: CFArray is a Swift array here.)
        let got = withUnsafeMutableBytes(of: &tabsBack) { CTParagraphStyleGetValueForSpecifier(s, .tabStops, $0.count, $0.baseAddress!) }
        #expect(got)
        #expect((tabsBack as? [CTTextTab])?.map(CTTextTabGetLocation) == [100, 50])
    }
}

extension Double {
    func isApprox(_ v: Double, _ eps: Double = 1e-6) -> Bool { abs(self - v) <= eps }
}
